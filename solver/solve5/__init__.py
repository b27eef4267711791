"""The 5x5x5 solver: reduction to a 3x3x3 by 3-cycles from on-disk tables.

Stages (see docs/solver5.md and reduce.py):
  1. beam     single turns that put centres home cheaply (beam.CentreBeam),
              ending with an even wing permutation
  2. centres  every X- and T-centre home by 3-cycles   (centrecycles.CentreCycles)
  3. edges    every wing paired with its midge         (edges.EdgeStage)
  4. 3x3x3    the reduced cube solved by cubebot.solver.solve3

Only outer and two-layer wide turns are used (the fixed centres never move),
each counted one move (OBTM).

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
