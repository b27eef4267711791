"""Choose the solution that is cheapest for the mechanism among several.

A solver returns one solution (and, with a budget, a few more candidates).
Other short solutions of the same cube come from asking the solver about the
cube seen another way, a view (VIEWS, 48 of them): a whole-cube rotation
(ROTATIONS, the 24 of them, the identity first), of the cube itself or of its
inverse. The view's state is solved through cubebot.solver.api.solve, each
move of that solution is renamed back to the face it turns on the cube as it
lies (cubebot.solver.moves.rotated_faces), an inverse view's solution is
inverted, and each is checked on the state.

Each view is one more solve, which costs compute on the brick
(cubebot.robot.job.brick_time), so how many views are asked for is a setting
per size (`solution_views_2x2`, `solution_views_3x3`): the first `views` of
VIEWS, the identity first (its solution is the naive recipe's baseline), then
its inverse, then the next rotation and its inverse, and so on. A 2x2x2 solve
is a few table lookups, so all 48 views are asked for. A 3x3x3 view is a
kociemba search, which costs more on the brick than the turning it saves, so
only the cube as it lies is solved unless a configuration asks for more.
Which rotation is solved does not matter on average: on held-out cubes each
view's solutions alone come out alike for the mechanism (docs/planner.md), so
more views help only by giving more candidates. bench/robot.py shows what
they gain and cost.

`choose(state, size, where, model, views, solve)` returns a Choice: the
chosen moves and plan, the solver's first solution of the cube as it lies
(the naive recipe's baseline) and how many candidates were planned.
"""

from collections import namedtuple

from cubebot.solver.facelets import is_solved, solved
from cubebot.solver.moves import Move, apply, format_moves, invert, rotated_faces

from cubebot.robot.machine.timing import AWAY
from cubebot.robot.plan import planner

# The 24 whole-cube rotations, identity first: each face brought up, each of four turns.
ROTATIONS = tuple((up + " " + turn).strip() for up in ("", "x", "x2", "x'", "z", "z'")
                  for turn in ("", "y", "y2", "y'"))
# A view: (rotation, inverse): the cube turned by the rotation, or its inverse turned so.
# The identity first, each rotation's inverse right after it.
VIEWS = tuple((rotation, inverse) for rotation in ROTATIONS for inverse in (False, True))
IDENTITY_VIEW = VIEWS[0]

Choice = namedtuple("Choice", ["moves", "plan", "first", "candidates"])
Choice.__doc__ = """moves, plan: the chosen solution and its plan; first: the solver's first
solution of the cube as scanned (the baseline); candidates: how many solutions were planned."""


def _rotation_of(state, size):
    """The whole-cube rotation that turns the solved cube into `state` (a solved cube)."""
    home = solved(size)
    for rotation in ROTATIONS:
        if (apply(home, rotation, size) if rotation else home) == state:
            return rotation
    raise ValueError("the state is not a turned solved cube")


def _renamed(moves, rotation):
    """`moves` made after `rotation`, as moves made before it (then the rotation, left out)."""
    if not rotation:
        return list(moves)
    faces = rotated_faces(rotation)
    return [Move(faces[m.face], m.first, m.last, m.turns) for m in moves]


def view_solutions(state, size, view, solve, known=None):
    """The solver's candidates for `state` seen in `view` ((rotation, inverse), or a
    rotation alone), as moves of `state`. An inverse view needs `known`, a solution of
    `state`: the inverse cube is the solved cube turned by it."""
    rotation, inverse = (view, False) if isinstance(view, str) else view
    if inverse and known is None:
        raise ValueError("the inverse view needs a known solution of the cube")
    seen = apply(solved(size), known, size) if inverse else state
    turned = apply(seen, rotation, size) if rotation else seen
    found = []
    for moves in solve(turned, size=size).candidates or []:
        back = _renamed(moves, rotation)
        if inverse:
            # back solves the inverse cube, maybe ending turned (a 2x2x2 has no centres):
            # that turn, then back inverted, solves the cube itself; the turn is made last
            back = _renamed(invert(back), _rotation_of(apply(seen, back, size), size))
        if not is_solved(apply(state, back, size), size):
            raise ValueError("solution {} of the view {} does not solve the cube".format(
                format_moves(back), view))
        found.append(back)
    return found


def choose(state, size, where, model, views=1, solve=None, budget=None):
    """The Choice among the solutions of the first `views` of VIEWS."""
    if solve is None:
        from cubebot.solver.api import solve
    if budget is not None:
        base = solve

        def solve(s, size=None):
            return base(s, size=size, budget=budget)
    candidates = []
    seen = set()
    for view in VIEWS[:max(1, views)]:
        for moves in view_solutions(state, size, view, solve, candidates[0] if candidates else None):
            text = format_moves(moves)
            if text not in seen:
                seen.add(text)
                candidates.append(moves)
    best, plan = planner.fastest(candidates, where, model, AWAY, size)
    return Choice(best, plan, candidates[0], len(candidates))
