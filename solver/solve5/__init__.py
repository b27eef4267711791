"""The 5x5x5 solver: its outer 4x4x4 part reduced by the 4x4x4 solver, then the
middle, then the 3x3x3 solver.

Stages (see docs/solver5.md and reduce.py):
  1. outer4   the corners, wings and X-centres reduced as a 4x4x4 by
              cubebot.solver.solve4.reduce                   (outer4.reduce_outer)
  2. align    the X-centres turned onto the fixed centres   (outer4.align)
  3. middle   phase 2: T-centres home, every midge in its dedge; today a
              stand-in by table 3-cycles (centrecycles, edges) until
              middle.solve_middle (phase 2 proper) is there
  4. 3x3x3    the reduced cube solved by cubebot.solver.solve3

The output has outer and two-layer wide turns only, each counted one move
(OBTM); the colours are named by the fixed centres.

Phase 2 interface (middle.py): solve_middle(state, budget_nodes=None) takes
the 150-facelet state lettered URFDLB by its fixed centres, with its 4x4x4
part reduced and its X-centres on their fixed centres (what stages 1-2
leave), and returns a list of Moves (outer and two-layer wide turns; a
middle slice is written as two opposite wide turns, Rw' Lw for the M slice
by x against the rest) after which every face's centres are one colour and
every edge's three pieces are paired, or None if budget_nodes ran out (the
stand-in then finishes).

solve(state, metric, budget) is the engine entry point of cubebot.solver.api;
solve_stages(state, budget) also returns the moves of each stage.
"""

from cubebot.solver.solve5.reduce import STAGES, Result

__all__ = ["STAGES", "Result", "solve", "solve_stages"]


def solve(state, metric="obtm", budget=None):
    """A list of candidate solutions (lists of Moves), shortest first."""
    return solve_stages(state, budget).candidates


def solve_stages(state, budget=None, directory=None):
    """Result(candidates, stages: name -> moves, nodes: 0, no tree search)."""
    from cubebot.solver.solve5.reduce import Reducer
    return Reducer(directory).solve(state, budget)
