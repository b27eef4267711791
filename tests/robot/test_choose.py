"""Choosing the solution cheapest for the mechanism among the solver's answers for the cube
seen in several orientations (cubebot.robot.plan.choose)."""

import random

import pytest

from cubebot.robot.machine.config import N_VIEWS, Config
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


def test_the_views_are_each_rotation_of_the_cube_and_of_its_inverse():
    assert len(choose.VIEWS) == len(set(choose.VIEWS)) == N_VIEWS == 2 * len(choose.ROTATIONS)
    assert choose.VIEWS[0] == choose.IDENTITY_VIEW == ("", False)
    assert choose.VIEWS[1] == ("", True)            # each rotation's inverse right after it


@pytest.mark.parametrize("size", [2, 3])
def test_every_view_solution_solves_the_cube_as_it_lies(size):
    state = scrambled(size, 31)
    known = solve(state, size=size).moves
    views = random.Random(size).sample(choose.VIEWS, 8) + [("x y", True), ("", True)]
    for view in views:
        found = choose.view_solutions(state, size, view, solve, known)
        assert found
        for moves in found:
            assert is_solved(apply(state, moves, size), size), view
            assert all(m.last is not None for m in moves)      # face turns only, no rotation
    with pytest.raises(ValueError):
        choose.view_solutions(state, size, ("", True), solve)      # an inverse view needs a solution


@pytest.mark.parametrize("size,views", [(2, N_VIEWS), (3, 3)])
def test_more_views_never_plan_slower(size, views):
    state = scrambled(size, 44)
    one = choose.choose(state, size, "URFDLB", MODEL, 1)
    more = choose.choose(state, size, "URFDLB", MODEL, views)
    assert more.candidates > one.candidates          # views give other solutions (duplicates dropped)
    assert more.plan.seconds <= one.plan.seconds
    assert is_solved(apply(state, more.moves, size), size)
    assert more.plan.seconds == pytest.approx(planner.plan(more.moves, "URFDLB", MODEL, size=size).seconds)


@pytest.mark.parametrize("size", [2, 3])
def test_the_baseline_is_the_solvers_first_solution_of_the_cube_as_it_lies(size):
    state = scrambled(size, 45)
    for views in (1, 2, N_VIEWS):
        assert choose.choose(state, size, "LUFRDB", MODEL, views).first == solve(state, size=size).moves
