"""Choosing the solution cheapest for the mechanism among the solver's answers for the cube
seen in several orientations (cubebot.robot.plan.choose)."""

import random

import pytest

from cubebot.robot.machine.config import Config
from cubebot.robot.machine.timing import TimeModel
from cubebot.robot.plan import choose, planner
from cubebot.robot.job.robots import scrambled
from cubebot.solver.api import solve
from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply

MODEL = TimeModel.from_config(Config())


def test_the_24_rotations_are_distinct_orientations():
    from cubebot.solver.facelets import solved
    turned = set(apply(solved(3), r, 3) if r else solved(3) for r in choose.ROTATIONS)
    assert len(choose.ROTATIONS) == len(turned) == 24


@pytest.mark.parametrize("size", [2, 3])
def test_every_view_solution_solves_the_cube_as_it_lies(size):
    state = scrambled(size, 31)
    for rotation in random.Random(size).sample(choose.ROTATIONS, 6):
        for moves in choose.view_solutions(state, size, rotation, solve):
            assert is_solved(apply(state, moves, size), size), rotation


@pytest.mark.parametrize("size,views", [(2, 24), (3, 3)])
def test_more_views_never_plan_slower_and_keep_the_first_as_baseline(size, views):
    state = scrambled(size, 44)
    one = choose.choose(state, size, "URFDLB", MODEL, 1)
    more = choose.choose(state, size, "URFDLB", MODEL, views)
    assert more.first == one.first == solve(state, size=size).moves
    assert more.candidates > one.candidates          # views give other solutions (duplicates dropped)
    assert more.plan.seconds <= one.plan.seconds
    assert is_solved(apply(state, more.moves, size), size)
    assert more.plan.seconds == pytest.approx(planner.plan(more.moves, "URFDLB", MODEL, size=size).seconds)
