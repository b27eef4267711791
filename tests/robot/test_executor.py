"""cubebot.robot.job.executor: planner output on the simulated cube gives the promised state;
stop requests leave the robot safe."""

import random
import threading

import pytest

from cubebot.robot.plan import planner
from cubebot.robot.machine.config import Config
from cubebot.robot.errors import MotorStalled, Stopped
from cubebot.robot.job.executor import Executor, same_cube
from cubebot.robot.machine.mechanism import Mechanism
from cubebot.robot.hw.sim.backend import make_sim_hardware
from cubebot.robot.job.robots import scramble
from cubebot.robot.hw.sim.ideal_sensor import IdealSensorModel
from cubebot.robot.hw.sim.world import World
from cubebot.robot.machine.timing import AWAY, TimeModel
from cubebot.solver.facelets import is_solved, solved
from cubebot.solver.moves import Move, apply, face_turns


def sim(state, config=None):
    config = config or Config()
    world = World(state, config, IdealSensorModel(), random.Random(0))
    mech = Mechanism(make_sim_hardware(config, world), config)
    mech.home()
    return world, mech


def random_moves(n, rng, count):
    turns = face_turns(n, wide=False)
    return [rng.choice(turns) for _ in range(count)]


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("make_plan", [planner.plan, planner.plan_naive])
def test_planned_actions_give_the_promised_state(n, make_plan):
    rng = random.Random(n)
    config = Config()
    model = TimeModel.from_config(config)
    for _ in range(12):
        start, _ = scramble(n, rng)
        world, mech = sim(start, config)
        moves = random_moves(n, rng, rng.randint(1, 25))
        plan = make_plan(moves, world.where, model, AWAY, n)
        ok = Executor(mech, world=world, debug=True).run(plan)
        assert ok
        promised = apply(start, moves, n)
        assert same_cube(world.state(), promised)
        if n == 3:
            assert world.state() == promised
        assert not world.faults


def test_simulated_turning_time_matches_the_plan_estimate():
    config = Config()
    model = TimeModel.from_config(config)
    start, moves = scramble(3, random.Random(5))
    world, mech = sim(start, config)
    plan = planner.plan(list(reversed([m._replace(turns=4 - m.turns) for m in moves])), world.where, model)
    t0 = mech.now_s()
    Executor(mech, world=world).run(plan)
    release_s = (config.flipper_hold_deg - config.flipper_away_deg) / float(config.flipper_speed_dps) \
        + config.settle_s
    assert mech.now_s() - t0 == pytest.approx(plan.seconds + release_s, rel=1e-6)
    assert is_solved(world.state())


def test_stop_between_actions_leaves_the_robot_safe():
    start, moves = scramble(3, random.Random(2))
    world, mech = sim(start)
    plan = planner.plan(list(reversed([m._replace(turns=4 - m.turns) for m in moves])), world.where,
                        TimeModel.from_config(mech.config))
    stop = threading.Event()
    progress = []

    def emit(name, payload):
        progress.append(payload["done"])
        if payload["done"] == 5:
            stop.set()
    with pytest.raises(Stopped, match="5 of"):
        Executor(mech, stop=stop, emit=emit, world=world).run(plan)
    assert progress[-1] == 5
    assert not world.holding and world.flipper_deg == mech.config.flipper_away_deg
    assert not any(m.is_moving() for m in mech.hw.motors())
    assert not world.faults


def test_a_stalled_motor_releases_the_flipper():
    world, mech = sim(solved(3))
    plan = planner.plan([Move("D", 1, 1, 1)], world.where, TimeModel.from_config(mech.config))
    assert [a.kind for a in plan.actions] == ["twist"]
    mech.hw.table.jam_after_deg(30)          # the table jams with the flipper holding the cube
    with pytest.raises(MotorStalled, match="table"):
        Executor(mech, world=world).run(plan)
    assert not world.holding and world.flipper_deg == mech.config.flipper_away_deg
