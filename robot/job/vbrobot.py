"""A pipeline Robot on a virtual brick: the simulated cube driven through python-ev3dev2.

`open_virtual_robot(size, seed, ...)` scrambles a cube exactly as
cubebot.robot.job.simrobot does for the same seed (same scramble, same sensor model),
puts it in a World, builds a VirtualBrick around that world and opens the
real ev3dev2 backend on it. Close the result to stop the physics thread.
"""

import random

from cubebot.robot.job.robots import VIRTUAL_BRICK, OpenRobot
from cubebot.robot.machine.config import Config
from cubebot.robot.machine.mechanism import Mechanism

FAULTS = ("dead-sensor", "stuck-table")


class VirtualRobot(OpenRobot):
    """`robot` (cubebot.robot.job.pipeline.Robot), `brick` (VirtualBrick), `hw`, `world`; close() when done."""

    def __init__(self, robot, brick, hw, world=None):
        OpenRobot.__init__(self, VIRTUAL_BRICK, hw, world=world, brick=brick)
        self.robot = robot


def open_virtual_robot(size=3, seed=0, config=None, noise="moderate", debug=False, fault=None,
                       screen=None):
    """See the module docstring. fault: "dead-sensor" (the colour sensor stops
    answering) or "stuck-table" (the turntable cannot turn)."""
    from cubebot.robot.job.pipeline import Robot
    from cubebot.robot.job.simrobot import SENSOR_SEED_OFFSET, scramble
    from cubebot.robot.hw.sim.sensor_model import SensorModel
    from cubebot.robot.hw.sim.world import World
    from cubebot.robot.hw.virtual_brick.brick import VirtualBrick
    if fault is not None and fault not in FAULTS:
        raise ValueError("unknown fault {!r}: use one of {}".format(fault, ", ".join(FAULTS)))
    config = config or Config()
    seed = 0 if seed is None else seed
    rng = random.Random(seed)
    state, _ = scramble(size, rng)
    sensor = SensorModel(random.Random(seed + SENSOR_SEED_OFFSET), noise=noise)
    world = World(state, config, sensor, rng)
    brick = VirtualBrick(world, config)
    brick.start()
    try:
        hw = brick.make_hardware(screen=screen)
    except BaseException:
        brick.close()
        raise
    if fault == "stuck-table":
        brick.block_motor(config.table_port)
    elif fault == "dead-sensor":
        brick.unplug(config.color_port)
    return VirtualRobot(Robot(Mechanism(hw, config), world=world, debug=debug), brick, hw, world)
