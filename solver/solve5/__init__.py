"""The 5x5x5 solver: its outer 4x4x4 part reduced by the 4x4x4 solver, then the
middle, then the 3x3x3 solver.

Stages (see docs/solver5.md and reduce.py):
  1. outer4   the corners, wings and X-centres reduced as a 4x4x4 by
              cubebot.solver.solve4.reductions               (outer4.reduce_outer)
              (each two-layer wide turn written with or without the middle
              slice, widechoice.variants)
  2. tpairs   every T-pair one colour                       (tpairs.TPairStage)
  3. middle   phase 2: T-centres and fixed centres with the X-centres, every
              midge in its dedge (middle.MiddleSolver)
  4. 3x3x3    the reduced cube solved by cubebot.solver.solve3

The output has outer and wide turns only (a middle slice as two wide
turns), each counted one move (OBTM).

Phase 2 interface (middle.py, docs/solver5.md): solve_middle(state,
max_nodes=None) takes the 150-facelet state lettered URFDLB by its fixed
centres with its 4x4x4 part reduced (what stage 1 leaves; colours are read
off the X-centres, so no align is needed) and returns move names: outer
turns and middle slices, a slice written as two turns (3Rw Rw'), after which
the cube is a 3x3x3; bounded by max_nodes with a fallback of its own.

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
