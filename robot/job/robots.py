"""The one place that builds a robot, of any kind, from one description.

Kinds:
  ev3            the real brick through python-ev3dev2
  virtual-brick  the same ev3dev2 backend on a fake sysfs with motor physics,
                 tied to a simulated world (cubebot.robot.hw.virtual_brick)
  sim            the pure simulation (cubebot.robot.hw.sim.backend), simulated time

The description is the arguments of `open_backend`: kind, config, the cube
(state, or a seed that scrambles one), faults, sensor noise, screen. A seed
fixes a simulated run entirely: the scramble (SCRAMBLE_MOVES face turns of
cubebot.solver.scramble.face_turns) and the sensor model's noise stream
(seeded with seed + SENSOR_SEED_OFFSET) are drawn from it, whichever command
asks (`demo`, `run --sim`, `serve --sim`, the virtual brick, the benches).

`open_backend(...)` returns an `OpenRobot` (hw, world, brick); close it
(or use it as a context manager) to leave the motors safe and stop the
virtual brick's physics thread. `robot_factory(opened, ...)` gives the
make_robot(size, seed) of a RobotService: every run on a simulated kind gets
the cube of its seed, as `make_sim_robot(size, seed)` does for one run.
"""

import os
import random

EV3, VIRTUAL_BRICK, SIM = "ev3", "virtual-brick", "sim"
HOME_DIR = os.path.join("~", ".cubebot")           # the robot user's settings folder
CONFIG_FILE = os.path.join(HOME_DIR, "config.json")    # written by `cubebot calibrate`
PROFILE_FILE = os.path.join(HOME_DIR, "profile.json")  # ditto
KINDS = (EV3, VIRTUAL_BRICK, SIM)
SIM_NOISE = "moderate"        # the simulated colour sensor's noise (like a real sensor)
SCRAMBLE_MOVES = {2: 20, 3: 30}   # face turns of a simulated cube's scramble, by size
SENSOR_SEED_OFFSET = 1000003      # separates the sensor's random stream from the scramble's
STUCK_TABLE_DEG = 60              # sim: where a stuck table jams (motor degrees into a move)
SLIP_AT_HELD_TURN = 5          # the "slip" fault: this held turn of the run leaves its layer a quarter off
FAULTS = ("dead-sensor", "stuck-table", "slip")


class OpenRobot(object):
    """An opened backend: `hw` (cubebot.robot.hw.interface.Hardware), `world` (None on
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


def scramble(size, rng):
    """A random scrambled state (cube frame) and its moves, drawn from `rng`."""
    from cubebot.solver.scramble import face_turns
    return face_turns(size, rng, SCRAMBLE_MOVES.get(size, 30))


def scrambled(n, seed):
    """The cube-frame state of size n that `seed` scrambles."""
    return scramble(n, random.Random(seed))[0]


def make_world(config, state, seed=0, noise=SIM_NOISE, sensor_model=None, size=None):
    """A simulated world with `state` (cube-frame facelets, or None) on the table, or
    with `size`, the cube that `seed` scrambles; its sensor model seeded from `seed`."""
    from cubebot.robot.hw.sim.sensor_model import SensorModel
    from cubebot.robot.hw.sim.world import World
    rng = random.Random(seed)
    if state is None and size is not None:
        state, _ = scramble(size, rng)
    if sensor_model is None:
        sensor_model = SensorModel(random.Random(seed + SENSOR_SEED_OFFSET), noise=noise)
    return World(state, config, sensor_model, rng)


def _check_fault(fault):
    if fault is not None and fault not in FAULTS:
        raise ValueError("unknown fault {!r}: use one of {}".format(fault, ", ".join(FAULTS)))


def open_backend(kind, config, state=None, seed=0, screen=None, missing=(),
                 proximity="ir", world=None, missing_ok=False, fault=None, noise=SIM_NOISE, pace=None):
    """Open the robot. For the simulated kinds, `state` is the cube put on
    the table (or pass a ready `world`); `missing` lists ports with nothing
    plugged in (virtual brick fault injection); `fault` is one of FAULTS:
    "dead-sensor" (sim: every reading the same grey; virtual brick: the
    sensor is unplugged) or "stuck-table" (sim: the table jams part-way into
    its first turn; virtual brick: its motor is blocked) or "slip" (both: the
    SLIP_AT_HELD_TURN-th held turn leaves its layer a quarter turn off, once,
    which only the check at the end can see). Raises
    DeviceMissing, or with `missing_ok` leaves missing devices None and lists
    them in hw.missing. pace: the sim's simulated seconds per real second
    (cubebot.robot.hw.sim.backend.SimClock; None: as fast as it computes)."""
    _check_fault(fault)
    if kind == EV3:
        from cubebot.robot.hw.ev3.backend import make_hardware
        return OpenRobot(kind, make_hardware(config, screen=screen, missing_ok=missing_ok))
    world = world if world is not None else make_world(config, state, seed, noise)
    if fault == "slip":
        world.slip_at(SLIP_AT_HELD_TURN)
    if kind == SIM:
        from cubebot.robot.hw.sim.backend import make_sim_hardware
        hw = make_sim_hardware(config, world, pace=pace)
        if screen is not None:
            hw.screen = screen
        hw.missing = []
        if fault == "dead-sensor":
            hw.color.dead = True
        elif fault == "stuck-table":
            hw.table.jam_after_deg(STUCK_TABLE_DEG)
        return OpenRobot(kind, hw, world=world)
    if kind == VIRTUAL_BRICK:
        from cubebot.robot.hw.virtual_brick.brick import VirtualBrick
        brick = VirtualBrick(world, config, missing=missing, proximity=proximity)
        brick.start()
        try:
            hw = brick.make_hardware(screen=screen, missing_ok=missing_ok)
        except BaseException:
            brick.close()
            raise
        if fault == "stuck-table":
            brick.block_motor(config.table_port)
        elif fault == "dead-sensor":
            brick.unplug(config.color_port)
        return OpenRobot(kind, hw, world=world, brick=brick)
    raise ValueError("unknown backend {!r}: use one of {}".format(kind, ", ".join(KINDS)))


def reseed(world, size, seed, noise=SIM_NOISE):
    """Put the cube of `seed` on the world's table, with the sensor noise stream of
    `seed`: the world is then as make_world(config, None, seed, noise, size=size) makes it."""
    from cubebot.robot.hw.sim.sensor_model import SensorModel
    rng = random.Random(seed)
    state, _ = scramble(size, rng)
    world.rng = rng
    world.sensor_model = SensorModel(random.Random(seed + SENSOR_SEED_OFFSET), noise=noise)
    world.place_cube(state)


def robot_factory(opened, config, first_seed=0, profile=None, noise=SIM_NOISE, debug=False):
    """make_robot(size, seed) for a RobotService on an opened backend.

    On the simulated kinds each run puts the cube of its seed on the table
    (`reseed`: the same cube and sensor noise as `cubebot demo --seed S`):
    the run's seed, or first_seed, first_seed + 1, ... when None.
    profile: the colour profile (cubebot.robot.colour.profile) or None for the defaults.
    """
    from cubebot.robot.machine.mechanism import Mechanism
    from cubebot.robot.job.pipeline import Robot
    seeds = [first_seed]

    def make_robot(size, seed):
        if opened.world is None:
            from cubebot.robot.job.brick_time import on_the_brick   # measured on the brick: no estimate
            return Robot(Mechanism(opened.hw, config), brick_time=on_the_brick, profile=profile,
                         debug=debug)
        if seed is None:
            seed = seeds[0]
            seeds[0] += 1
        reseed(opened.world, size, seed, noise)
        return Robot(Mechanism(opened.hw, config), world=opened.world, profile=profile, debug=debug)
    return make_robot


class VirtualRobot(OpenRobot):
    """`robot` (cubebot.robot.job.pipeline.Robot) on an opened backend, with `brick`, `hw`,
    `world`; close() when done."""

    def __init__(self, robot, opened):
        OpenRobot.__init__(self, opened.kind, opened.hw, world=opened.world, brick=opened.brick)
        self.robot = robot


def make_sim_robot(size=3, seed=0, config=None, noise=SIM_NOISE, debug=False, state=None,
                   sensor_model=None, fault=None, profile=None):
    """A pipeline Robot on a simulated MINDCUB3R with the cube of `seed` (or `state`).

    fault: None or one of FAULTS (see open_backend). Simulated time: nothing to close.
    """
    return open_robot(SIM, size, seed, config, noise, debug, fault, state=state,
                      sensor_model=sensor_model, profile=profile).robot


def open_virtual_robot(size=3, seed=0, config=None, noise=SIM_NOISE, debug=False, fault=None,
                       screen=None, profile=None):
    """A VirtualRobot: the cube of `seed` (the same as make_sim_robot's) in a World, a
    VirtualBrick around it and the real ev3dev2 backend on that. Close it to stop
    the physics thread."""
    return open_robot(VIRTUAL_BRICK, size, seed, config, noise, debug, fault, screen=screen, profile=profile)


def open_robot(kind, size=3, seed=0, config=None, noise=SIM_NOISE, debug=False, fault=None,
               state=None, sensor_model=None, screen=None, profile=None):
    """A VirtualRobot of a simulated `kind` for one run: the whole description in one call."""
    from cubebot.robot.machine.config import Config
    from cubebot.robot.machine.mechanism import Mechanism
    from cubebot.robot.job.pipeline import Robot
    _check_fault(fault)
    config = config or Config()
    seed = 0 if seed is None else seed
    world = make_world(config, state, seed, noise, sensor_model, size=size)
    opened = open_backend(kind, config, world=world, screen=screen, fault=fault)
    robot = Robot(Mechanism(opened.hw, config), world=world, debug=debug, profile=profile)
    return VirtualRobot(robot, opened)


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
    from cubebot.robot.machine.config import load_config
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
    from cubebot.robot.colour.profile import load_profile
    return load_profile(path)
