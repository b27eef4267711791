"""Many short 3x3x3 solutions, from the compiled two-phase search, to choose from.

kociemba gives one solution of a cube; the robot's turning time depends on
which faces come down in turn, so a choice among many short solutions turns
faster (docs/planner.md). cubebot.solver.twophase searches several starts at
once and, with `max_length`, keeps every solution it finds within that many
moves. `candidates(state, max_length, nodes, max_nodes)` searches the cube in
cubebot.solver.solve3's JOINT_VIEWS (phase 1 on each of the three axes, of
the cube and of its inverse) for every solution within `max_length` moves, in
one search of about `nodes` nodes (cubebot.robot.plan.choose asks for the
length of the solver's own solution plus a slack). Each solution is renamed
back to the faces of the cube as it lies (solve3.from_view) and checked on it.

A rotation about the axis phase 1 works on leaves the search's solutions the
same up to a renaming of faces, so the three axes, each as is and inverted,
are all the views that give new solutions.

Without the compiled module (not built, or CUBEBOT_PURE_PYTHON=1) or without
the 3x3-* tables, `candidates` returns None and the caller keeps the solver's
own solutions: the pure-Python search is too slow for the brick.
"""

import time

from cubebot.solver.errors import TableError
from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply, format_moves, parse

SIZE = 3
SEARCH_CPU_SECONDS = [0.0]    # CPU time of the compiled search in this process (compiled_seconds)
MAX_NODES_OVER_NODES = 2      # with no solution after this many times its node budget, the search stops


def compiled_seconds():
    """CPU seconds this process has spent in `candidates`' compiled search so far (what
    the brick-time estimate scales as compiled code)."""
    return SEARCH_CPU_SECONDS[0]


def available():
    """Whether the compiled two-phase search is built (and not switched off)."""
    from cubebot.solver import twophase
    return twophase.compiled() is not None


def candidates(state, max_length, nodes, max_nodes, directory=None):
    """The solutions (lists of Move) of the 3x3x3 `state` (facelets, cube frame) that
    the two-phase search finds within `max_length` moves, in the order found, each
    checked on `state`. The search stops after `nodes` nodes once it has one, and after
    `max_nodes` in any case ([] if it found none). None without the compiled module or
    its tables."""
    from cubebot.solver import solve3, twophase
    from cubebot.solver.cubies import from_facelets
    if not available():
        return None
    lettered = solve3.normalise(state)
    views = solve3.JOINT_VIEWS
    starts = [twophase.start_of(from_facelets(solve3.view_state(lettered, view), SIZE))
              for view in views]
    try:
        tables = twophase.Tables(directory)
    except TableError:
        return None
    began = time.process_time()
    try:
        found, _ = twophase.search(tables, starts, nodes, max_nodes=max_nodes,
                                   max_length=max_length)
    finally:
        SEARCH_CPU_SECONDS[0] += time.process_time() - began
        tables.close()
    out = []
    for s, path in found:
        moves = parse(solve3.from_view(" ".join(twophase.move_name(m) for m in path), views[s]))
        if not is_solved(apply(state, moves, SIZE), SIZE):
            raise ValueError("two-phase solution {} of the view {} does not solve the cube".format(
                format_moves(moves), views[s]))
        out.append(moves)
    return out
