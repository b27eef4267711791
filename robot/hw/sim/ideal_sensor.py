"""A plain sensor model with cubebot.robot.hw.sim.sensor_model.SensorModel's interface.

Readings are the typical EV3 RGB-RAW references (cubebot.robot.colour.scheme), mixed
with the neighbour's colour by 1 - quality, scaled by brightness and, if
`noise` > 0, by a uniform factor in 1 +- noise. With noise 0 (the default)
every reading is predictable, for tests of the scan geometry; the realistic
model (gain, colour cast, dark centres, noise, wild readings) is
cubebot.robot.hw.sim.sensor_model.
"""

import random

from cubebot.robot.colour.scheme import EV3_TYPICAL_RAW, colour_of

REFERENCE_RGB = EV3_TYPICAL_RAW


class IdealSensorModel(object):
    """reading() = reference (mixed by quality) x brightness (default 1) x (1 +- noise)."""

    def __init__(self, noise=0.0, rng=None):
        self.noise = float(noise)
        self.rng = rng if rng is not None else random.Random(0)

    def reading(self, colour, quality=1.0, centre=False, neighbour=None, brightness=None):
        base = EV3_TYPICAL_RAW[colour_of(colour)]
        if quality < 1.0 and neighbour is not None:
            other = EV3_TYPICAL_RAW[colour_of(neighbour)]
            base = tuple(quality * a + (1.0 - quality) * b for a, b in zip(base, other))
        scale = 1.0 if brightness is None else brightness
        if self.noise:
            scale *= 1.0 + self.rng.uniform(-self.noise, self.noise)
        return tuple(int(round(c * scale)) for c in base)

    def brightness(self):
        return 1.0
