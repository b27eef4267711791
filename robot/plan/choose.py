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
per size (`solution_views_2x2`, `solution_views_3x3`), and the views come in
the order most likely to give a cheap solution first (`ranked_views`). A
2x2x2 solve is a few table lookups, so all 48 views are asked for. A 3x3x3
view is a kociemba search, which costs more on the brick than a second view
saves in turning, so one view is asked for: the one that puts kociemba's
quarter-turn axis where the mechanism turns it cheaply. bench/robot.py shows
what more views gain and cost.

`choose(state, size, where, model, views, solve)` returns a Choice: the
chosen moves and plan, the solver's first solution of the cube as it lies
(the naive recipe's baseline) when the identity view was among those solved,
and how many candidates were planned.
"""

from collections import namedtuple

from cubebot.solver.facelets import is_solved, solved
from cubebot.solver.moves import Move, apply, format_moves, invert, parse, rotated_faces

from cubebot.robot.machine import orientation
from cubebot.robot.machine.timing import AWAY
from cubebot.robot.plan import planner

# The 24 whole-cube rotations, identity first: each face brought up, each of four turns.
ROTATIONS = tuple((up + " " + turn).strip() for up in ("", "x", "x2", "x'", "z", "z'")
                  for turn in ("", "y", "y2", "y'"))
# A view: (rotation, inverse). The cube turned by each rotation, then its inverse turned so.
VIEWS = tuple((rotation, inverse) for inverse in (False, True) for rotation in ROTATIONS)
IDENTITY_VIEW = VIEWS[0]

# How cheap a view's solutions tend to be for the mechanism, by the robot axis on which the
# view puts kociemba's U-D axis (the axis of its second phase's quarter turns), 0 best.
# The flipper turns the cube about the robot's left-right axis, so faces at the robot's
# front and back come down by flips alone. Solutions of the cube itself do best with that
# axis front-back; those of the inverse cube (the same moves reversed and inverted) with it
# left-right. Measured on kociemba's solutions of held-out cubes (docs/planner.md).
AXIS_RANK = {False: {"F": 0, "B": 0, "U": 1, "D": 1, "L": 2, "R": 2},
             True: {"L": 0, "R": 0, "U": 1, "D": 1, "F": 2, "B": 2}}

Choice = namedtuple("Choice", ["moves", "plan", "first", "candidates"])
Choice.__doc__ = """moves, plan: the chosen solution and its plan; first: the solver's first
solution of the cube as scanned (the baseline), None when the identity view was not solved;
candidates: how many solutions were planned."""


def ranked_views(where):
    """The 48 VIEWS, those most likely to give a cheap solution for a cube lying as `where`
    first (AXIS_RANK), the views of the cube and of its inverse taking turns within a rank."""
    def rank(view):
        rotation, inverse = view
        up = rotated_faces(rotation)["U"] if rotation else "U"
        return AXIS_RANK[inverse][orientation.position_of(where, up)]

    taken = {}
    keyed = []
    for view in VIEWS:
        group = (rank(view), view[1])
        taken[group] = taken.get(group, -1) + 1
        keyed.append(((group[0], taken[group], view[1]), view))
    return [view for _, view in sorted(keyed)]


def _rotation_of(state, size):
    """The whole-cube rotation that turns the solved cube into `state` (a solved cube)."""
    home = solved(size)
    for rotation in ROTATIONS:
        if (apply(home, rotation, size) if rotation else home) == state:
            return parse(rotation)
    raise ValueError("the state is not a turned solved cube")


def view_solutions(state, size, view, solve, known=None):
    """The solver's candidates for `state` seen in `view` ((rotation, inverse), or a
    rotation alone), as moves of `state`. An inverse view needs `known`, a solution of
    `state`: the inverse cube is the solved cube turned by it."""
    rotation, inverse = (view, False) if isinstance(view, str) else view
    if inverse and known is None:
        raise ValueError("the inverse view needs a known solution of the cube")
    seen = apply(solved(size), known, size) if inverse else state
    turned = apply(seen, rotation, size) if rotation else seen
    faces = rotated_faces(rotation) if rotation else None
    found = []
    for moves in solve(turned, size=size).candidates or []:
        back = [Move(faces[m.face], m.first, m.last, m.turns) for m in moves] if faces else list(moves)
        if inverse:
            # back solves the inverse cube, maybe ending turned (a 2x2x2 has no centres):
            # that turn first, then back inverted, solves the cube itself
            back = _rotation_of(apply(seen, back, size), size) + invert(back)
        if not is_solved(apply(state, back, size), size):
            raise ValueError("solution {} of the view {} does not solve the cube".format(
                format_moves(back), view))
        found.append(back)
    return found


def choose(state, size, where, model, views=1, solve=None, budget=None):
    """The Choice among the solutions of the first `views` of ranked_views(where)."""
    if solve is None:
        from cubebot.solver.api import solve
    if budget is not None:
        base = solve

        def solve(s, size=None):
            return base(s, size=size, budget=budget)
    candidates = []
    seen = set()
    first = None
    for view in ranked_views(where)[:max(1, views)]:
        found = view_solutions(state, size, view, solve, candidates[0] if candidates else None)
        if view == IDENTITY_VIEW and found:
            first = found[0]
        for moves in found:
            text = format_moves(moves)
            if text not in seen:
                seen.add(text)
                candidates.append(moves)
    best, plan = planner.fastest(candidates, where, model, AWAY, size)
    return Choice(best, plan, first, len(candidates))


def baseline(state, size, solve=None):
    """The solver's first solution of the cube as it lies (the naive recipe's baseline)."""
    if solve is None:
        from cubebot.solver.api import solve
    return list(solve(state, size=size).moves)
