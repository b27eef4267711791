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
more views help only by giving more candidates; bench/planner.py shows what
they gain.

Where the compiled two-phase search is built, a 3x3x3 gets many more
candidates from it (cubebot.robot.plan.search3, `search`: a Search of the
config's `search_slack_3x3`, `search_nodes_3x3` and `planned_candidates_3x3`):
every solution it finds within the solver's length plus the slack. Planning
each exactly costs Python time on the brick, so they are ranked by the flip
bound (cubebot.robot.plan.bound.lower_bound, a few operations a move) and
only the best `planned` of them, with the solver's first solution always
among them, are planned.

`choose(state, size, where, model, views, solve, budget, search)` returns a
Choice: the chosen moves and plan, the solver's first solution of the cube
as it lies (the naive recipe's baseline) and how many candidates were
planned.
"""

from collections import namedtuple

from cubebot.solver.facelets import is_solved, solved
from cubebot.solver.moves import Move, apply, format_moves, invert, rotated_faces

from cubebot.robot.machine.timing import AWAY
from cubebot.robot.plan import bound, planner, search3

# The 24 whole-cube rotations, identity first: each face brought up, each of four turns.
ROTATIONS = tuple((up + " " + turn).strip() for up in ("", "x", "x2", "x'", "z", "z'")
                  for turn in ("", "y", "y2", "y'"))
# A view: (rotation, inverse): the cube turned by the rotation, or its inverse turned so.
# The identity first, each rotation's inverse right after it.
VIEWS = tuple((rotation, inverse) for rotation in ROTATIONS for inverse in (False, True))
IDENTITY_VIEW = VIEWS[0]

Search = namedtuple("Search", ["slack", "nodes", "planned"])
Search.__doc__ = """The 3x3x3 two-phase candidates: every solution within the solver's length +
slack moves, in a search of about `nodes` nodes; the best `planned` by the flip bound planned."""

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


def ranked(candidates, where, model, planned, size=3):
    """The first candidate and the best `planned` - 1 others by the flip bound (fewest
    bound seconds first, the order found on ties): the ones worth planning exactly."""
    if len(candidates) <= planned:
        return list(candidates)
    keys = [(bound.lower_bound(moves, model, where, size)[0], i)
            for i, moves in enumerate(candidates[1:], 1)]
    keys.sort()
    return [candidates[0]] + [candidates[i] for _, i in keys[:max(0, planned - 1)]]


def choose(state, size, where, model, views=1, solve=None, budget=None, search=None):
    """The Choice among the solutions of the first `views` of VIEWS and, for a 3x3x3
    with `search` (a Search) where the compiled two-phase search is built, its
    solutions."""
    if solve is None:
        from cubebot.solver.api import solve
    if budget is not None:
        base = solve

        def solve(s, size=None):
            return base(s, size=size, budget=budget)
    candidates = []
    seen = set()

    def add(moves):
        text = format_moves(moves)
        if text not in seen:
            seen.add(text)
            candidates.append(moves)
    for view in VIEWS[:max(1, views)]:
        for moves in view_solutions(state, size, view, solve, candidates[0] if candidates else None):
            add(moves)
    planned = candidates
    if search is not None and size == search3.SIZE and search.nodes > 0:
        longest = min(len(moves) for moves in candidates) + search.slack
        for moves in search3.candidates(state, longest, search.nodes,
                                        search.nodes * search3.MAX_NODES_OVER_NODES) or []:
            add(moves)
        planned = ranked(candidates, where, model, search.planned, size)
    best, plan = planner.fastest(planned, where, model, AWAY, size)
    return Choice(best, plan, candidates[0], len(planned))
