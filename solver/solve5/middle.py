"""Phase 2 of the 5x5x5 reduction: the middle pieces, once the 4x4x4 part is reduced.

Interface (for phase 1 and the pipeline):
  solve_middle(state, max_nodes=None) -> list of 5x5x5 move names
on a 150-character 5x5x5 facelet string whose 4x4x4 part is reduced (every
face's X-centres one colour, the two wings of every edge paired). It returns
outer turns and middle slices that put every T-centre and fixed centre on
the face of its X-centres' colour and every midge next to its own dedge, the
right way round; the cube is then a 3x3x3. A middle slice is written as two
turns, 3Rw Rw' (three layers, then two back: the whole-cube frame does not
change), and counted two; the list is simplified (adjacent turns merged).
Raises InvalidCube if the 4x4x4 part is not reduced, UnsolvableCube if the
middle pieces cannot be solved (an odd midge permutation or flip). max_nodes
bounds each IDA* stage (default pairsearch.MAX_NODES); past it a stage descends
its exact table, so a solve always finishes. Stages: stages.py; the move
model: slices.py; docs/solver5.md.

In two steps, for a caller choosing among several phase-1 endings (the
pipeline, reduce.py): MiddleSolver(directory).plans(state, max_nodes) gives
the centre stages' best solutions (Plans, each with an estimate of its
whole phase-2 length) without the midge stage, the costly part;
solver.finish(plan) runs the midge stage after one, and
written(joined(result)) are then its phase-2 moves.
"""

from .slices import MIDDLE, MOVES, OUTER, SLICE_FACES, SLICES, TURNS, cost, is_slice, names, written
from .stages import MiddleSolver, joined

# the phase-2 move model (slices.py) is also read from here (phase 1's T-pair stage)
__all__ = ["solve_middle", "MiddleSolver", "joined", "MIDDLE", "MOVES", "OUTER", "SLICE_FACES",
           "SLICES", "TURNS", "cost", "is_slice", "names", "written"]


def solve_middle(state, max_nodes=None):
    """Move names (outer turns and middle slices as turns) that solve the middle pieces."""
    return names(MiddleSolver().solve(state, max_nodes))
