"""Plans executed on the simulated MINDCUB3R: the cube ends as promised, in the estimated time."""

import random

import pytest

from cubebot.robot.machine.actions import FLIP, ROTATE, table_quarters
from cubebot.robot.machine.config import Config
from cubebot.robot.machine.mechanism import Mechanism
from cubebot.robot.plan.planner import plan, plan_naive
from cubebot.robot.hw.sim.backend import make_sim_hardware
from cubebot.robot.hw.sim.ideal_sensor import IdealSensorModel
from cubebot.robot.hw.sim.world import World
from cubebot.robot.machine.timing import TimeModel
from cubebot.solver.facelets import solved
from cubebot.solver.moves import apply

from .planner_support import physical, random_solution, rng_for


def run_on_sim(actions, state, config):
    world = World(state, config, IdealSensorModel(), random.Random(0))
    hw = make_sim_hardware(config, world)
    mech = Mechanism(hw, config)
    mech.home()
    t0 = mech.now_s()
    for a in actions:
        if a.kind == FLIP:
            mech.flip()
        elif a.kind == ROTATE:
            mech.turn_table(table_quarters(a.quarter_turns))
        else:
            mech.turn_bottom(table_quarters(a.quarter_turns))
    return world, mech.now_s() - t0


@pytest.mark.parametrize("n, faces, length", [(3, "URFDLB", 20), (2, "URF", 10)])
@pytest.mark.parametrize("overrides", [{}, {"settle_s": 0.2, "table_speed_dps": 500, "table_overshoot_deg": 30}])
def test_sim_runs_the_plan_in_the_estimated_time(n, faces, length, overrides):
    config = Config(**overrides)
    model = TimeModel.from_config(config)
    rng = rng_for(n * 100 + len(overrides))
    for _ in range(4):
        start = apply(solved(n), random_solution(rng, 12, "URFDLB"))
        moves = random_solution(rng, length, faces)
        for planner in (plan, plan_naive):
            p = planner(moves, "URFDLB", model, size=n)
            world, seconds = run_on_sim(p.actions, start, config)
            assert physical(world.state(), world.where) == physical(apply(start, moves), p.end_where)
            assert seconds == pytest.approx(p.seconds, abs=1e-6)
