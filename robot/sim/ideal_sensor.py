"""A plain sensor model for the simulated colour sensor: fixed EV3 RGB-RAW
references per colour, scaled by spot quality, with optional small noise.

It stands for the colour sensor when a test needs readings it can predict;
robot.sim.sensor_model is the realistic one (brightness spread, the centre
read from another arm position). Readings are (r, g, b) raw counts.
"""

REFERENCE_RGB = {
    "white": (260, 430, 250),
    "yellow": (240, 250, 22),
    "orange": (240, 90, 17),
    "red": (180, 48, 18),
    "green": (28, 230, 36),
    "blue": (27, 108, 120),
}
EMPTY_RGB = (6, 8, 5)          # the dark turntable / nothing under the sensor
OFF_CENTRE_DIMMING = 0.3       # an edge-of-facelet reading is this much darker


class IdealSensorModel(object):
    """Readings = reference x (1 - dimming x (1 - quality)) x (1 +- noise)."""

    def __init__(self, noise=0.0):
        self.noise = noise

    def _jitter(self, rng):
        return 1.0 + (rng.uniform(-self.noise, self.noise) if self.noise else 0.0)

    def reading(self, colour, quality, rng):
        scale = (1.0 - OFF_CENTRE_DIMMING * (1.0 - quality)) * self._jitter(rng)
        return tuple(int(round(c * scale)) for c in REFERENCE_RGB[colour])

    def empty(self, rng):
        return EMPTY_RGB
