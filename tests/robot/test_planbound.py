"""cubebot.robot.plan.bound: lower bounds on any plan's turning time hold and are tight where they can be."""

import pytest

from cubebot.robot.machine import orientation
from cubebot.robot.machine.actions import FLIP, counts
from cubebot.robot.plan.bound import flips_between, free_table_bound, free_table_model, lower_bound
from cubebot.robot.plan.planner import plan, plan_naive
from cubebot.robot.machine.timing import AWAY, HOLD
from cubebot.solver.errors import InvalidCube
from cubebot.solver.moves import parse

from .planner_support import random_solution, rng_for, time_model

TM = time_model()
ORIENTS = orientation.all_orientations()


@pytest.mark.parametrize("overrides", [{}, {"settle_s": 0.3}, {"table_speed_dps": 300}])
def test_bounds_never_exceed_any_plan(overrides):
    model = time_model(**overrides)
    rng = rng_for(11)
    for k in range(60):
        start = ORIENTS[k % len(ORIENTS)]
        moves = random_solution(rng, rng.randint(1, 22))
        seconds, flips = lower_bound(moves, model, start)
        table_free = free_table_bound(moves, model, start)
        ours = plan(moves, start, model)
        naive = plan_naive(moves, start, model)
        assert seconds <= table_free + 1e-9
        assert table_free <= ours.seconds + 1e-9
        assert ours.seconds <= naive.seconds + 1e-9
        assert flips <= counts(ours.actions)[FLIP] and flips <= counts(naive.actions)[FLIP]


def test_flip_bound_of_single_turns():
    twist, flip = TM.twist_s, TM.flip_s[HOLD]
    assert lower_bound(parse("D"), TM) == (twist[1], 0)
    assert lower_bound(parse("R2"), TM) == (pytest.approx(flip + twist[2]), 1)
    assert lower_bound(parse("U'"), TM) == (pytest.approx(2 * flip + twist[3]), 2)
    assert lower_bound([], TM) == (0.0, 0)
    assert [flips_between("U", f) for f in "URFDLB"] == [0, 1, 1, 2, 1, 1]


def test_commuting_runs_take_their_cheapest_order():
    # From D down, "U D" costs 2 + 2 flips in this order, 0 + 2 as "D U".
    seconds, flips = lower_bound(parse("U D"), TM)
    assert flips == 2
    assert seconds == pytest.approx(2 * TM.flip_s[HOLD] + 2 * TM.twist_s[1])


def test_free_table_bound_keeps_the_forced_flipper_stroke():
    # F is at the front: the table brings it to the back (free here), which leaves
    # the flipper away, so the flip costs the stroke from away.
    assert free_table_bound(parse("F"), TM) == pytest.approx(TM.flip_s[AWAY] + TM.twist_s[1])
    relaxed = free_table_model(TM)
    assert relaxed.rotate_s[1] == 0 and relaxed.release_s == 0
    assert relaxed.flip_s == TM.flip_s and relaxed.twist_s == TM.twist_s and relaxed.engage_s == TM.engage_s


def test_wide_turns_are_refused():
    with pytest.raises(InvalidCube, match="outer face turns"):
        lower_bound(parse("Rw"), TM)
