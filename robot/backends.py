"""Open a robot on one of three backends, for the commands that drive hardware.

  ev3            the real brick through python-ev3dev2
  virtual-brick  the same ev3dev2 backend on a fake sysfs with motor physics,
                 tied to a simulated world (robot.virtual_brick)
  sim            the pure simulation (robot.sim.backend), simulated time

`open_backend(...)` returns an `OpenRobot` (hw, world, brick); close it
(or use it as a context manager) to leave the motors safe and stop the
virtual brick's physics thread.
"""

import os
import random

EV3, VIRTUAL_BRICK, SIM = "ev3", "virtual-brick", "sim"
HOME_DIR = os.path.join("~", ".cubebot")           # the robot user's settings folder
CONFIG_FILE = os.path.join(HOME_DIR, "config.json")    # written by `cubebot calibrate`
PROFILE_FILE = os.path.join(HOME_DIR, "profile.json")  # ditto
KINDS = (EV3, VIRTUAL_BRICK, SIM)
SIM_NOISE = "moderate"        # the simulated colour sensor's noise (like a real sensor)


class OpenRobot(object):
    """An opened backend: `hw` (robot.hardware.Hardware), `world` (None on
    the real brick) and `brick` (the VirtualBrick, or None)."""

    def __init__(self, kind, hw, world=None, brick=None):
        self.kind = kind
        self.hw = hw
        self.world = world
        self.brick = brick

    def close(self):
        try:
            if self.hw is not None:
                self.hw.close()
        finally:
            if self.brick is not None:
                self.brick.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def scrambled(n, seed):
    """A random cube-frame state of size n (robot.sim.factory's scramble of `seed`)."""
    from .sim.factory import scramble
    return scramble(n, random.Random(seed))[0]


def make_world(config, state, seed=0, noise=SIM_NOISE):
    """A simulated world with `state` (cube-frame facelets, or None) on the table;
    the sensor model and its seed as robot.sim.factory makes them."""
    from .sim.factory import SENSOR_SEED_OFFSET
    from .sim.sensor_model import SensorModel
    from .sim.world import World
    sensor = SensorModel(random.Random(seed + SENSOR_SEED_OFFSET), noise=noise)
    return World(state, config, sensor, random.Random(seed))


def open_backend(kind, config, state=None, seed=0, screen=None, missing=(),
                 proximity="ir", world=None, missing_ok=False):
    """Open the robot. For the simulated kinds, `state` is the cube put on
    the table (or pass a ready `world`); `missing` lists ports with nothing
    plugged in (virtual brick fault injection). Raises DeviceMissing, or with
    `missing_ok` leaves missing devices None and lists them in hw.missing."""
    if kind == EV3:
        from .ev3.backend import make_hardware
        return OpenRobot(kind, make_hardware(config, screen=screen, missing_ok=missing_ok))
    world = world if world is not None else make_world(config, state, seed)
    if kind == SIM:
        from .sim.backend import make_sim_hardware
        hw = make_sim_hardware(config, world)
        if screen is not None:
            hw.screen = screen
        hw.missing = []
        return OpenRobot(kind, hw, world=world)
    if kind == VIRTUAL_BRICK:
        from .virtual_brick.brick import VirtualBrick
        brick = VirtualBrick(world, config, missing=missing, proximity=proximity)
        brick.start()
        try:
            hw = brick.make_hardware(screen=screen, missing_ok=missing_ok)
        except BaseException:
            brick.close()
            raise
        return OpenRobot(kind, hw, world=world, brick=brick)
    raise ValueError("unknown backend {!r}: use one of {}".format(kind, ", ".join(KINDS)))


def robot_factory(opened, config, first_seed=0, profile=None):
    """make_robot(size, seed) for a RobotService on an opened backend.

    On the simulated kinds each run puts a freshly scrambled cube on the
    table: the run's seed, or first_seed, first_seed + 1, ... when None.
    profile: the colour profile (robot.colorprofile) or None for the defaults.
    """
    from .mechanism import Mechanism
    from .pipeline import Robot
    seeds = [first_seed]

    def make_robot(size, seed):
        if opened.world is None:
            from .brick_time import on_the_brick      # measured on the brick: no estimate
            return Robot(Mechanism(opened.hw, config), brick_time=on_the_brick, profile=profile)
        if seed is None:
            seed = seeds[0]
            seeds[0] += 1
        opened.world.place_cube(scrambled(size, seed))
        return Robot(Mechanism(opened.hw, config), world=opened.world, profile=profile)
    return make_robot


def add_backend_arguments(parser):
    """--virtual-brick / --sim flags (default: the real brick)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--virtual-brick", dest="backend", action="store_const", const=VIRTUAL_BRICK,
                       help="use python-ev3dev2 on a virtual brick (fake sysfs + physics)")
    group.add_argument("--sim", dest="backend", action="store_const", const=SIM,
                       help="use the pure simulation")
    parser.set_defaults(backend=EV3)
    parser.add_argument("--config", metavar="PATH", default=None,
                        help="JSON file of configuration overrides (default on the brick: {} if it "
                             "exists; else the built-in MINDCUB3R values)".format(CONFIG_FILE))
    parser.add_argument("--profile", metavar="PATH", default=None,
                        help="colour profile (default on the brick: {} if it exists; else the "
                             "built-in colours)".format(
                            PROFILE_FILE))


def robot_config(path, kind=EV3):
    """The configuration: `path`, else (on the real brick) the calibrated
    ~/.cubebot/config.json if there is one, else the defaults."""
    from .config import load_config
    if path is None and kind == EV3 and os.path.exists(os.path.expanduser(CONFIG_FILE)):
        path = os.path.expanduser(CONFIG_FILE)
    return load_config(path)


def colour_profile(path, kind=EV3):
    """The colour profile: `path`, else (on the real brick) ~/.cubebot/profile.json
    if there is one, else None (the built-in colours)."""
    if path is None and kind != EV3:
        return None
    if path is None:
        path = os.path.expanduser(PROFILE_FILE)
        if not os.path.exists(path):
            return None
    from .colorprofile import load_profile
    return load_profile(path)
