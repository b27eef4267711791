"""Choose the solution that is cheapest for the mechanism among several.

A solver returns one solution (and, with a budget, a few more candidates).
Other short solutions of the same cube come from asking the solver about the
cube seen in another orientation: `views(n)` lists whole-cube rotations
(ROTATIONS, the 24 of them, the identity first); the state is turned by the
rotation, solved through cubebot.solver.api.solve, and each move of that
solution is renamed back to the face it turns on the cube as it lies
(cubebot.solver.moves.rotated_faces), and checked on the state. Each view is
one more solve, which costs compute on the brick (cubebot.robot.job.brick_time),
so how many views are asked for is a setting per size (`solution_views_2x2`,
`solution_views_3x3`): a 2x2x2 solve is a few table lookups, so all 24 views
are asked for; a 3x3x3 view is a kociemba search, which costs more on the
brick than the turning it saves, so only the cube as it lies is solved unless
a configuration asks for more. bench/robot.py shows what more views gain and
cost.

`choose(state, size, where, model, views, solve)` returns a Choice: the
chosen moves and plan, the first solution (kociemba's first, the naive
recipe's baseline), and how many candidates were planned.
"""

from collections import namedtuple

from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import Move, apply, format_moves, rotated_faces

from cubebot.robot.machine.timing import AWAY
from cubebot.robot.plan import planner

# The 24 whole-cube rotations, identity first: each face brought up, each of four turns.
ROTATIONS = tuple((up + " " + turn).strip() for up in ("", "x", "x2", "x'", "z", "z'")
                  for turn in ("", "y", "y2", "y'"))

Choice = namedtuple("Choice", ["moves", "plan", "first", "candidates"])
Choice.__doc__ = """moves, plan: the chosen solution and its plan; first: the solver's first
solution of the cube as scanned (the baseline); candidates: how many solutions were planned."""


def view_solutions(state, size, rotation, solve):
    """The solver's candidates for `state` seen turned by `rotation`, as moves of `state`."""
    if not rotation:
        return [list(m) for m in (solve(state, size=size).candidates or [])]
    turned = apply(state, rotation, size)
    faces = rotated_faces(rotation)
    found = []
    for moves in solve(turned, size=size).candidates or []:
        back = [Move(faces[m.face], m.first, m.last, m.turns) for m in moves]
        if not is_solved(apply(state, back, size), size):
            raise ValueError("solution {} of the view {} does not solve the cube".format(
                format_moves(back), rotation))
        found.append(back)
    return found


def choose(state, size, where, model, views=1, solve=None, budget=None):
    """The Choice among the solutions of `views` orientations (the first `views` of ROTATIONS)."""
    if solve is None:
        from cubebot.solver.api import solve
    if budget is not None:
        base = solve

        def solve(s, size=None):
            return base(s, size=size, budget=budget)
    candidates = []
    seen = set()
    for rotation in ROTATIONS[:max(1, views)]:
        for moves in view_solutions(state, size, rotation, solve):
            text = format_moves(moves)
            if text not in seen:
                seen.add(text)
                candidates.append(moves)
    best, plan = planner.fastest(candidates, where, model, AWAY, size)
    return Choice(best, plan, candidates[0], len(candidates))
