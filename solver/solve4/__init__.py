"""The 4x4x4 solver: reduction to a 3x3x3 with IDA* over on-disk tables.

Stages (see docs/solver4.md):
  1. centres-lr  L/R centres onto the L/R axis             (centres.LRStage)
  2. centres-ud  U/D centres onto U/D, wings even          (centres.UDStage)
  3. wings       one wing of each edge in each orbit       (phase2.EOStage)
  4. pairs       centres solved, edges paired, no parity   (phase3.Phase3)
  5. 3x3x3       the reduced cube solved by cubebot.solver.solve3  (finish)

Stages 1-3 turn only blocks that leave the DLB corner in place (model's
fixed frame); stage 4 uses U, D, F, B, R2, L2 and wide half turns. The result
is rewritten into outer and wide turns (model.to_physical), counted in OBTM.

solve(state, metric, budget) is the engine entry point of cubebot.solver.api;
solve_stages(state, budget) also returns the length of each stage.
"""

from collections import namedtuple

STAGES = ("centres-lr", "centres-ud", "wings", "slice", "pairs", "3x3x3")

Result = namedtuple("Result", ["candidates", "stages", "nodes"])


def solve(state, metric="obtm", budget=None):
    """A list of candidate solutions (lists of Moves), shortest first."""
    return solve_stages(state, budget).candidates


def solve_stages(state, budget=None, directory=None):
    """Result(candidates, stages: name -> moves, nodes: pair search nodes)."""
    from cubebot.solver.solve4.reduce import Reducer
    return Reducer(directory).solve(state, budget)
