"""The NxNxN solver for N >= 6: a smaller cube's view solved first, then every
other orbit by table 3-cycles.

Stages (see docs/solver-big.md and reduce.py):
  1. view     the cube seen through the layers VIEW_ROWS (0, 1, N-2, N-1 for an
              even N: a 4x4x4; 0, 1, mid, N-2, N-1 for an odd N: a 5x5x5),
              solved whole by the smaller solver (cubebot.solver.solve4 or
              solve5); its moves are lifted to the same-named wide turns of
              the big cube (views.lift)
  2. parity   one quarter turn of an inner slice per wing orbit whose
              permutation is odd (slices outside the view leave it solved)
  3. centres  every other centre orbit (X-centres, obliques, T-centres) by
              pure 3-cycles from the table NxN-cycles, greedily
  4. wings    every other wing orbit by pure 3-cycles from the same table
Each 3-cycle moves nothing else, so the view stays solved and the cube ends
solved. Output: outer and wide turns only (a slice as two wide turns), each
counted one move (OBTM).

solve(state, metric, budget) is the engine entry point of cubebot.solver.api;
solve_stages(state, budget) also returns the moves of each stage.
"""

from cubebot.solver.big.reduce import STAGES, Result

__all__ = ["STAGES", "Result", "solve", "solve_stages"]


def solve(state, metric="obtm", budget=None):
    """A list of candidate solutions (lists of Moves), shortest first."""
    return solve_stages(state, budget).candidates


def solve_stages(state, budget=None, directory=None):
    """Result(candidates, stages: name -> moves, nodes: 0, no tree search)."""
    from cubebot.solver.big.reduce import Reducer
    from cubebot.solver.facelets import size_from_length
    return Reducer(size_from_length(len(state)), directory).solve(state, budget)
