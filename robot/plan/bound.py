"""A lower bound on the turning time of any plan for a solution (seconds).

Whatever a planner does, every face turn of the solution is a twist of that
face, and a twist costs at least `twist_s[q]` (the twist from HOLD, with no
flipper stroke before it). A table turn never changes the face at the
bottom and a flip always does (it tilts the cube a quarter turn about a
horizontal axis), so between two twists of different faces there is at
least one flip, and at least two when the faces are opposite (a half turn
about a horizontal axis); so too before the first twist if its face is not
down at the start. A flip costs at least the cheapest flip of the time
model (`flip_s[HOLD]`). Table turns and the flipper's engage/release
strokes are left out (counted as free).

Runs of turns on one axis commute (U D' = D' U) and cubebot.robot.plan.planner tries
their orders, so the bound takes the cheapest order too (a DP over the face
last turned). It is a bound for any planner that makes each move of the
solution with its own twist: 3x3x3 outer face turns only (no wide turns,
no whole-cube rotations), as the 3x3x3 solver returns.

`free_table_bound` is tighter: the exact optimum (cubebot.robot.plan.planner's DP, which
is exact for a time model) under `free_table_model`, where table turns and
the release before them cost nothing but everything else costs what it
does. Every action costs at most its real time there, so no plan is faster
than this bound in the real model either. What it keeps is the flipper
stroke the mechanism forces: a table turn leaves the flipper away, so the
next flip starts from away or the next twist engages first.
"""

from cubebot.solver.errors import InvalidCube
from cubebot.solver.facelets import OPPOSITE
from cubebot.solver.moves import format_move

from cubebot.robot.machine import orientation
from cubebot.robot.plan.planner import _groups, _ops, _orders, plan
from cubebot.robot.machine.timing import AWAY, TimeModel


def flips_between(face, other):
    """The fewest flips that take `face` off the bottom and put `other` there."""
    if face == other:
        return 0
    return 2 if OPPOSITE[face] == other else 1


def lower_bound(moves, time_model, start_where=orientation.IDENTITY, size=3):
    """(seconds, flips): a lower bound on any plan's turning time for `moves`.

    flips is the fewest flips any plan needs (for the cheapest order of
    commuting runs). See the module docstring.
    """
    cheapest_flip = min(time_model.flip_s.values())
    start = (orientation.face_at(start_where, "D"), 0.0, 0)
    states = {start[0]: start[1:]}        # face last at the bottom -> (seconds, flips)
    for group in _groups(_ops(moves, size)):
        op = group[0]
        if op[0] != "twist" or any(len(o[2]) != 1 or o[2][0][2] is not None for o in group):
            raise InvalidCube("the bound takes outer face turns only: {} is not one".format(
                format_move(op[1]) if op[0] == "twist" else "a whole-cube rotation"))
        after = {}
        for order in _orders(group):
            for face, (seconds, flips) in sorted(states.items()):
                for o in order:
                    turn_face, q, _ = o[2][0]
                    f = flips_between(face, turn_face)
                    seconds += f * cheapest_flip + time_model.twist_s[q]
                    flips += f
                    face = turn_face
                old = after.get(face)
                if old is None or seconds < old[0]:
                    after[face] = (seconds, flips)
        states = after
    return min(states.values())


def free_table_model(time_model):
    """`time_model` with table turns, and the release before them, costing nothing."""
    return TimeModel(time_model.flip_s, [0.0] * len(time_model.rotate_s), time_model.twist_s,
                     time_model.engage_s, 0.0)


def free_table_bound(moves, time_model, start_where=orientation.IDENTITY, flipper_state=AWAY, size=3):
    """Seconds: the fastest plan for `moves` when table turns are free (a lower bound)."""
    return plan(moves, start_where, free_table_model(time_model), flipper_state, size).seconds
