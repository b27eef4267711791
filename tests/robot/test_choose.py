"""Choosing the solution cheapest for the mechanism among the solver's answers for the cube
seen in several orientations (cubebot.robot.plan.choose)."""

import random

import pytest

from cubebot.robot.machine.config import N_VIEWS, Config
from cubebot.robot.machine.orientation import position_of
from cubebot.robot.machine.timing import TimeModel
from cubebot.robot.plan import choose, planner
from cubebot.robot.job.robots import scrambled
from cubebot.solver.api import solve
from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply, rotated_faces
from cubebot.robot.plan.routes import orientations

MODEL = TimeModel.from_config(Config())


def test_the_24_rotations_are_distinct_orientations():
    from cubebot.solver.facelets import solved
    turned = set(apply(solved(3), r, 3) if r else solved(3) for r in choose.ROTATIONS)
    assert len(choose.ROTATIONS) == len(turned) == 24


def test_the_views_are_each_rotation_of_the_cube_and_of_its_inverse():
    assert len(choose.VIEWS) == len(set(choose.VIEWS)) == N_VIEWS == 2 * len(choose.ROTATIONS)
    assert choose.VIEWS[0] == choose.IDENTITY_VIEW == ("", False)
    for where in random.Random(5).sample(orientations().wheres, 6):
        ranked = choose.ranked_views(where)
        assert sorted(ranked) == sorted(choose.VIEWS)
        assert ranked[0][1] is False and ranked[1][1] is True      # the two kinds take turns


@pytest.mark.parametrize("where", ["URFDLB", "LUFRDB", "FDRBUL"])
def test_the_first_view_puts_kociembas_axis_front_to_back(where):
    # the view of the cube ranked first brings to kociemba's U a face at the robot's front or back
    rotation, inverse = choose.ranked_views(where)[0]
    up = rotated_faces(rotation)["U"] if rotation else "U"
    assert not inverse and position_of(where, up) in ("F", "B")
    # and the first inverse view puts it left to right
    rotation, inverse = next(v for v in choose.ranked_views(where) if v[1])
    up = rotated_faces(rotation)["U"] if rotation else "U"
    assert position_of(where, up) in ("L", "R")


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
    every = choose.choose(state, size, "LUFRDB", MODEL, N_VIEWS)
    assert every.first == choose.baseline(state, size) == solve(state, size=size).moves
    one = choose.choose(state, size, "LUFRDB", MODEL, 1)
    assert one.first is None                         # the identity view is not the first ranked
