"""A synthetic EV3 colour sensor in RGB-RAW mode, for the simulated robot and tests.

A `SensorModel` is one sensor on one robot: it draws, once, a unit-to-unit
gain per channel (no two sensors agree) and how much darker and yellower a
centre looks when read from the centre arm position. Each scene
(`new_scene`, drawn at start) adds a warm colour cast of the room light
(white drifts towards yellow: blue down, red up). Each reading
then adds a per-facelet brightness change (the arm's distance from the
facelet), multiplicative and additive noise, and with a small probability a
wild reading (another colour's reading, or junk). All values are raw counts,
clipped to 0..RAW_MAX, like `ColorSensor.raw`.

Colours are face letters of the sensor's colour scheme (`scheme`, a name of
cubebot.robot.colour.scheme.SCHEMES or a dict; "pastel" has pink, purple and cyan
stickers) or colour names. Noise presets: "low", "moderate" (+-25%
brightness, a noticeable cast) and "high" (more of everything, and 3% wild
readings). The presets are chosen to resemble the traits described in the
project's references (docs/references.md); they are not fitted to real recordings,
so no preset is a measured claim about a real sensor (`real=True` is).

`real=True` gives the sensor the traits of the real EV3 scans in
tests/data/real-scans: the colours read as on a real robot
(colorscheme.EV3_REAL_RAW, a dim blue), the centres read from their own arm
position at 0.6 to 1.35 times the body's look per channel (the range of the
real robots: darker on one, brighter on another), and an overall level drawn
between REAL_LEVEL_RANGE (a sensor further from the cube reads dim: down to
single-digit counts on the dark colours).
"""

import math

from cubebot.robot.colour.scheme import EV3_REAL_RAW, RAW_MAX, SCHEMES, colour_of, typical_raw
from cubebot.robot.colour.rescan import RESCAN_SAMPLES, rescan_set

# Preset parameters. Fractions are relative to the reading.
#   jitter: sd of multiplicative noise per channel; floor: sd of additive noise, counts
#   brightness: half-width of the per-facelet brightness factor range
#   cast: the largest warm cast (0.15 = blue -15%, red +5%)
#   wild: probability that a reading is wild
#   unit: sd of the per-sensor gain per channel
#   centre: sd of the centre look around CENTRE_GAIN
PRESETS = {
    "low": dict(jitter=0.015, floor=2.0, brightness=0.08, cast=0.05, wild=0.0,
                unit=0.05, centre=0.05),
    "moderate": dict(jitter=0.03, floor=3.0, brightness=0.25, cast=0.15, wild=0.003,
                     unit=0.10, centre=0.10),
    "high": dict(jitter=0.06, floor=5.0, brightness=0.35, cast=0.25, wild=0.03,
                 unit=0.15, centre=0.15),
}

# A centre is read from another arm position: a white centre reads about
# (150, 215, 100) where white edges read (260, 430, 250).
CENTRE_GAIN = (0.58, 0.50, 0.40)
# How the warm cast moves red for each unit it takes off blue.
CAST_RED_SHARE = 0.3
# real=True: the centres' look per channel (times the body's), and the sensor's
# overall level (log-uniform), from the real EV3 scans (docs/colors.md).
REAL_CENTRE_GAIN_RANGE = (0.6, 1.35)
REAL_LEVEL_RANGE = (0.08, 1.2)
# Junk readings are uniform in 0..JUNK_MAX counts per channel.
JUNK_MAX = 500


class SensorModel(object):
    """One simulated sensor under one lighting; see the module docstring.

    `rng` is a random.Random; `noise` a preset name; keyword arguments
    override single preset parameters (names as in PRESETS).
    """

    def __init__(self, rng, noise="moderate", scheme="standard", real=False, **params):
        if isinstance(scheme, dict):
            self.scheme = dict(scheme)
        elif scheme in SCHEMES:
            self.scheme = SCHEMES[scheme]
        else:
            raise ValueError("unknown colour scheme {!r}: use one of {}".format(
                scheme, ", ".join(sorted(SCHEMES))))
        self.real = bool(real)
        if noise not in PRESETS:
            raise ValueError("unknown noise level {!r}: use one of {}".format(
                noise, ", ".join(sorted(PRESETS))))
        self.rng = rng
        self.params = dict(PRESETS[noise])
        for key in sorted(params):
            if key not in self.params:
                raise ValueError("unknown sensor parameter {!r}: use one of {}".format(
                    key, ", ".join(sorted(self.params))))
            self.params[key] = float(params[key])
        p = self.params
        self.wild_count = 0      # wild readings drawn so far (for benchmarks)
        self.unit_gain = tuple(max(0.5, rng.gauss(1.0, p["unit"])) for _ in range(3))
        self.level = 1.0
        if self.real:
            low, high = REAL_CENTRE_GAIN_RANGE
            look = rng.uniform(low, high)
            centre = tuple(min(high, max(low, look * rng.gauss(1.0, p["centre"])))
                           for _ in range(3))
            lo, hi = REAL_LEVEL_RANGE
            self.level = math.exp(rng.uniform(math.log(lo), math.log(hi)))
        else:
            centre = CENTRE_GAIN
        self.centre_gain = tuple(g * max(0.3, rng.gauss(1.0, p["centre"])) for g in centre) \
            if not self.real else centre
        self.new_scene()

    def colour_reading(self, name):
        """The noiseless reading of colour `name` on this sensor (before gains)."""
        if self.real and name in EV3_REAL_RAW:
            base = EV3_REAL_RAW[name]
        else:
            base = typical_raw(name)
        return tuple(v * self.level for v in base)

    def new_scene(self):
        """Draw a new colour cast (another room light); the sensor stays the same."""
        warm = self.rng.uniform(0.0, self.params["cast"])
        cast = (1.0 + CAST_RED_SHARE * warm, 1.0, 1.0 - warm)
        self.gain = tuple(c * u for c, u in zip(cast, self.unit_gain))

    def brightness(self):
        """A per-facelet brightness factor (the arm's distance from it)."""
        b = self.params["brightness"]
        return self.rng.uniform(1.0 - b, 1.0 + b)

    def reading(self, colour, quality=1.0, centre=False, neighbour=None, brightness=None):
        """One (r, g, b) raw reading of a facelet of `colour`.

        quality < 1 means the sensor is off-centre: the reading mixes in
        `neighbour`'s colour (a random other colour if None) by 1 - quality.
        centre=True reads it as a centre (from the centre arm position).
        brightness: the facelet's brightness factor (drawn if None).
        """
        rng, p = self.rng, self.params
        name = colour_of(colour, self.scheme)
        if rng.random() < p["wild"]:
            return self._wild(name)
        base = self.colour_reading(name)
        if quality < 1.0:
            other = colour_of(neighbour, self.scheme) if neighbour is not None else \
                self._other(name)
            mix = self.colour_reading(other)
            q = max(0.0, float(quality))
            base = tuple(q * a + (1.0 - q) * b for a, b in zip(base, mix))
        if brightness is None:
            brightness = self.brightness()
        gains = self.gain
        if centre:
            gains = tuple(g * c for g, c in zip(gains, self.centre_gain))
        return tuple(self._channel(v * g * brightness) for v, g in zip(base, gains))

    def _channel(self, value):
        p = self.params
        # The additive noise shrinks with a dim sensor's level, to one count at least.
        floor = max(1.0, p["floor"] * min(1.0, self.level))
        value = value * self.rng.gauss(1.0, p["jitter"]) + self.rng.gauss(0.0, floor)
        return int(round(min(RAW_MAX, max(0.0, value))))

    def _other(self, name):
        others = sorted(c for c in set(self.scheme.values()) if c != name)
        return others[self.rng.randrange(len(others))]

    def _wild(self, name):
        """A wild reading: another colour's reading, or junk."""
        self.wild_count += 1
        if self.rng.random() < 0.5:
            return self.reading(self._other(name))
        return tuple(self.rng.randrange(JUNK_MAX) for _ in range(3))

    def scan(self, state, n, samples=1, quality=1.0):
        """Readings of a whole cube: a list (URFDLB facelet order) of lists of samples.

        `state` is a facelet string in face letters of the sensor's scheme
        (e.g. cubebot.solver.facelets.solved(n)); odd cubes' middle centres are read
        as centres. Each facelet keeps one brightness across its samples.
        """
        if len(state) != 6 * n * n:
            raise ValueError("state has {} facelets: a {}x{}x{} cube needs {}".format(
                len(state), n, n, n, 6 * n * n))
        centres = centre_indices(n)
        out = []
        for i, colour in enumerate(state):
            bright = self.brightness()
            out.append([self.reading(colour, quality=quality, centre=i in centres,
                                     brightness=bright) for _ in range(samples)])
        return out


def rescan(sensor, state, n, readings, doubtful):
    """What the robot's rescan reads, in the simulation: every facelet of
    cubebot.robot.colour.rescan.rescan_set(doubtful, readings) gets RESCAN_SAMPLES new samples
    (each from its own spot, so its own brightness), added to its earlier ones
    in `readings` (changed in place). Returns how many facelets were read again.
    """
    centres = centre_indices(n)
    wanted = rescan_set(doubtful, readings)
    for i in wanted:
        readings[i].extend(sensor.reading(state[i], centre=i in centres)
                           for _ in range(RESCAN_SAMPLES))
    return len(wanted)


def centre_indices(n):
    """The facelet indices of the six middle centres of an odd cube (empty if even)."""
    if n % 2 == 0:
        return frozenset()
    mid = (n * n) // 2
    return frozenset(k * n * n + mid for k in range(6))
