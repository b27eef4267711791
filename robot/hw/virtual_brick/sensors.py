"""Simulated EV3 sensors behind fake sysfs files (lego-sensor/sensorN).

Each tick a sensor reads the mode ev3dev2 wrote (tolerating a stale tail),
asks its source for a measurement and writes value0..N in place. Sources are
callables: the colour sensor's returns raw (r, g, b) counts, the proximity
sensors' a distance in centimetres (both from the simulated world).
"""

from cubebot.robot.hw.virtual_brick.sysfs import DeviceDir, match_word

IR_RANGE_CM = 70.0       # the IR sensor's 100 % proximity
IR_MAX_PCT = 100
US_MAX_MM = 2550         # the ultrasonic sensor's reading with nothing in range
MM_PER_CM = 10
MAX_VALUES = 8


def _colour_values(mode, rgb):
    r, g, b = [int(round(v)) for v in rgb]
    if mode in ("RGB-RAW", "REF-RAW"):
        return [r, g, b] if mode == "RGB-RAW" else [(r + g + b) // 3, 0]
    return [min(100, (r + g + b) // 12)]


def _ir_values(mode, distance_cm):
    pct = int(round(min(IR_MAX_PCT, max(0.0, distance_cm) * IR_MAX_PCT / IR_RANGE_CM)))
    return [pct]


def _us_values(mode, distance_cm):
    mm = int(round(min(US_MAX_MM, max(0.0, distance_cm) * MM_PER_CM)))
    if mode.endswith("-IN"):
        return [int(round(mm / 25.4))]
    return [mm]


KINDS = {
    "color": {"driver_name": "lego-ev3-color",
              "modes": ("COL-REFLECT", "COL-AMBIENT", "COL-COLOR", "REF-RAW", "RGB-RAW", "COL-CAL"),
              "mode": "COL-REFLECT", "decimals": 0, "values": _colour_values},
    "ir": {"driver_name": "lego-ev3-ir",
           "modes": ("IR-PROX", "IR-SEEK", "IR-REMOTE", "IR-REM-A", "IR-CAL"),
           "mode": "IR-PROX", "decimals": 0, "values": _ir_values},
    "us": {"driver_name": "lego-ev3-us",
           "modes": ("US-DIST-CM", "US-DIST-IN", "US-LISTEN", "US-SI-CM", "US-SI-IN"),
           "mode": "US-DIST-CM", "decimals": 1, "values": _us_values},
}


class SimSensor(object):
    """One sensor on an input port; `source()` gives its measurement."""

    def __init__(self, root, name, port, kind, source):
        self.port = port
        self.kind = KINDS[kind]
        self.source = source
        self.unplugged = False
        self._mode = self.kind["mode"]
        attrs = {"address": port, "driver_name": self.kind["driver_name"],
                 "modes": " ".join(self.kind["modes"]), "mode": self._mode,
                 "num_values": 1, "decimals": self.kind["decimals"], "units": "",
                 "commands": "", "command": "", "bin_data_format": "s16"}
        for n in range(MAX_VALUES):
            attrs["value" + str(n)] = 0
        self.dir = DeviceDir(root, "lego-sensor", name, attrs)

    def tick(self):
        """Publish the current measurement in the current mode."""
        if self.unplugged:
            return
        text = self.dir["mode"].read()
        mode = match_word(text, self.kind["modes"])
        if mode is not None:
            self._mode = mode
        if text != self._mode:
            self.dir["mode"].rewrite(self._mode)
        values = self.kind["values"](self._mode, self.source())
        self.dir["num_values"].write(len(values))
        for n, value in enumerate(values):
            self.dir["value" + str(n)].write(value)

    def unplug(self):
        """The sensor stops answering: every value file reads back empty."""
        self.unplugged = True
        for n in range(MAX_VALUES):
            self.dir["value" + str(n)].clear()

    def close(self):
        self.dir.close()
