"""A noise-free sensor model with robot.sim.sensor_model.SensorModel's interface.

Readings are the typical EV3 RGB-RAW references (robot.colorscheme), mixed
with the neighbour's colour by 1 - quality and scaled by brightness: tests
that must predict every reading exactly use it; the realistic model (gain,
colour cast, dark centres, noise, wild readings) is robot.sim.sensor_model.
"""

from ..colorscheme import EV3_TYPICAL_RAW, colour_of

REFERENCE_RGB = EV3_TYPICAL_RAW


class IdealSensorModel(object):
    """reading() = reference (mixed by quality), times brightness (default 1)."""

    def reading(self, colour, quality=1.0, centre=False, neighbour=None, brightness=None):
        base = EV3_TYPICAL_RAW[colour_of(colour)]
        if quality < 1.0 and neighbour is not None:
            other = EV3_TYPICAL_RAW[colour_of(neighbour)]
            base = tuple(quality * a + (1.0 - quality) * b for a, b in zip(base, other))
        scale = 1.0 if brightness is None else brightness
        return tuple(int(round(c * scale)) for c in base)

    def brightness(self):
        return 1.0
