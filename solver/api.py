"""solve(state, size=None, metric="htm", budget=None) -> Solution.

The one entry point the robot uses. It checks the state (length and symbol
counts; for the 2x2x2 and 3x3x3 every piece), picks the engine for the size
(ENGINES: size -> module name; a module has
`solve(state, metric, budget) -> list of candidate move lists`), checks that
the size's table files exist (TableError naming `cubebot tables build --size N`
if not: nothing is built here), applies
every candidate back to the state to make sure it solves it, and returns
them shortest first.

Solution fields:
  moves       the chosen solution, a list of cubebot.solver.moves.Move (face and
              wide turns only)
  length      its length in `metric`
  metric      "htm" or "qtm" ("obtm" for wide-turn cubes)
  seconds     wall-clock time of the solve
  candidates  every distinct solution found, shortest first (moves is the
              first); the budgeted 3x3x3 search finds several
"""

import importlib
import time
from collections import namedtuple

from cubebot.solver.errors import InvalidCube, NoSolver, SolverFailed
from cubebot.solver.facelets import centre_labels, check_counts, check_size, is_solved
from cubebot.solver.moves import METRICS, apply, count, format_moves

Solution = namedtuple("Solution", ["moves", "length", "metric", "seconds", "candidates"])

# size -> engine module (imported on first use). Sizes 4.. are added by their engines.
# The one registry of solvable sizes: the CLI's --size choices come from it.
ENGINES = {2: "cubebot.solver.solve2", 3: "cubebot.solver.solve3", 4: "cubebot.solver.solve4",
           5: "cubebot.solver.solve5", 6: "cubebot.solver.big", 7: "cubebot.solver.big",
           8: "cubebot.solver.big", 9: "cubebot.solver.big"}
MAX_BUDGET_S = 600.0          # the longest search budget a caller may ask for (seconds)


def solvable_sizes():
    """The cube sizes that have an engine, ascending."""
    return sorted(ENGINES)


def engine(size):
    """The engine module for an NxNxN cube; NoSolver if there is none."""
    name = ENGINES.get(size)
    if name is None:
        raise NoSolver("no solver for the {0}x{0}x{0} cube: sizes with a solver are {1}".format(
            size, ", ".join(str(n) for n in sorted(ENGINES))))
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if getattr(exc, "name", None) != name:
            raise
        raise NoSolver("no solver for the {0}x{0}x{0} cube yet ({1} is not there)".format(
            size, name))


def _check_args(metric, budget):
    if metric not in METRICS:
        raise InvalidCube("unknown metric {!r}: use one of {}".format(metric, ", ".join(METRICS)))
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, (int, float))
                               or budget != budget or not 0 < budget <= MAX_BUDGET_S):
        raise InvalidCube("budget {} s must be a number of seconds above 0 and at most {:g}".format(
            repr(budget)[:40], MAX_BUDGET_S))


def corner_state(state, n):
    """The 2x2x2 state formed by the corner facelets of an NxNxN state."""
    nn = n * n
    corners = (0, n - 1, nn - n, nn - 1)        # row-major corners of one face
    return "".join(state[f * nn + k] for f in range(6) for k in corners)


def check_structure(state, n):
    """Size-independent piece checks for N >= 4: centres (odd N) and corners."""
    if n % 2:
        centre_labels(state, n)
    from cubebot.solver.solve2.cube import orient
    orient(corner_state(state, n))


def solve(state, size=None, metric="htm", budget=None):
    """Solve `state` (any six symbols, any orientation); see the module docstring."""
    started = time.monotonic()
    _check_args(metric, budget)
    if size is not None:
        check_size(size)
    size = check_counts(state, size)
    if size >= 4:
        check_structure(state, size)
    solver = engine(size)
    if is_solved(state, size):
        # A solved cube needs no search (the big engines' free stages would still run theirs).
        return Solution([], 0, metric, time.monotonic() - started, [[]])
    from cubebot.solver.store import require_tables      # here: no table module at import time
    require_tables(size)
    found = solver.solve(state, metric=metric, budget=budget)
    candidates = []
    seen = set()
    for moves in found:
        text = format_moves(moves)
        if text in seen:
            continue
        seen.add(text)
        if not is_solved(apply(state, moves, size), size):
            raise SolverFailed("the {0}x{0}x{0} engine returned {1!r}, which does not solve "
                                 "the cube".format(size, text))
        candidates.append(list(moves))
    if not candidates:
        raise SolverFailed("the {0}x{0}x{0} engine found no solution".format(size))
    candidates.sort(key=lambda m: (count(m, metric), format_moves(m)))
    best = candidates[0]
    return Solution(best, count(best, metric), metric, time.monotonic() - started, candidates)
