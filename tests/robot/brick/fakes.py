"""Small stand-ins for the brick tests: a world with fixed readings and the default ports."""

import types


def ports():
    """The MINDCUB3R ports (as cubebot.robot.machine.config has them)."""
    return types.SimpleNamespace(flipper_port="outA", table_port="outB", arm_port="outC",
                                 color_port="in3", proximity_port="in4")


class StillWorld(object):
    """A world that records the motor angles and shows one colour and one distance."""

    def __init__(self, rgb=(120, 200, 90), distance_cm=4.0):
        self.rgb = rgb
        self.distance_cm = distance_cm
        self.angles = None
        self.updates = 0

    def update(self, flipper_deg, table_deg, arm_deg):
        self.angles = (flipper_deg, table_deg, arm_deg)
        self.updates += 1

    def read_rgb_raw(self):
        return self.rgb

    def read_distance_cm(self):
        return self.distance_cm
