"""A simulated robot with a scrambled cube on its table, ready for the pipeline.

`make_sim_robot(size, seed)` builds World + simulated Hardware + Mechanism and
wraps them in a cubebot.robot.job.pipeline.Robot. The cube is scrambled with
SCRAMBLE_MOVES[size] random outer face turns drawn from `seed` (no two
in a row on the same face); the sensor model is cubebot.robot.hw.sim.sensor_model's,
seeded from `seed` too, so a seed fixes the whole run.
"""

import random

from cubebot.solver.facelets import FACES, solved
from cubebot.solver.moves import Move, apply

from cubebot.robot.machine.config import Config
from cubebot.robot.machine.mechanism import Mechanism
from cubebot.robot.hw.sim.backend import make_sim_hardware
from cubebot.robot.hw.sim.world import World

SCRAMBLE_MOVES = {2: 20, 3: 30}
SENSOR_SEED_OFFSET = 1000003      # separates the sensor's random stream from the scramble's
STUCK_TABLE_DEG = 60              # where a stuck table jams (motor degrees into a move)


def scramble(size, rng):
    """A random scrambled state (cube frame) and its moves."""
    moves = []
    for _ in range(SCRAMBLE_MOVES.get(size, 30)):
        face = rng.choice([f for f in FACES if not moves or f != moves[-1].face])
        moves.append(Move(face, 1, 1, rng.choice((1, 2, 3))))
    return apply(solved(size), moves, size), moves


FAULTS = ("dead-sensor", "stuck-table")


def make_sim_robot(size=3, seed=0, config=None, noise="moderate", debug=False, state=None,
                   sensor_model=None, fault=None):
    """A pipeline Robot on a simulated MINDCUB3R with a scrambled cube (or `state`).

    fault: None, "dead-sensor" (every reading the same grey) or "stuck-table"
    (the table jams part-way into its first turn).
    """
    from cubebot.robot.job.pipeline import Robot
    from cubebot.robot.hw.sim.sensor_model import SensorModel
    config = config or Config()
    seed = 0 if seed is None else seed
    rng = random.Random(seed)
    if state is None:
        state, _ = scramble(size, rng)
    if sensor_model is None:
        sensor_model = SensorModel(random.Random(seed + SENSOR_SEED_OFFSET), noise=noise)
    world = World(state, config, sensor_model, rng)
    hardware = make_sim_hardware(config, world)
    if fault == "dead-sensor":
        hardware.color.dead = True
    elif fault == "stuck-table":
        hardware.table.jam_after_deg(STUCK_TABLE_DEG)
    elif fault is not None:
        raise ValueError("unknown fault {!r}: use one of {}".format(fault, ", ".join(FAULTS)))
    return Robot(Mechanism(hardware, config), world=world, debug=debug)
