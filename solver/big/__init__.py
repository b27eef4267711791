"""The NxNxN solver for N >= 6: the cube reduced to a smaller one by grouping
layers, then solved by the smaller solver.

The view rows (0, 1, N-2, N-1 for an even N: a 4x4x4; 0, 1, mid, N-2, N-1
for an odd N: a 5x5x5) each stand for a group of rows ({0}, {1..}, {..N-2},
{N-1}, and {mid}). Stages (see docs/solver-big.md and reduce.py):
  1. free     a beam over all turns joins many facelets to their group's view
              facelet (freebeam)
  2. inserts  a beam over free turns and short inserts (X Y X', W S W')
              joins more centre facelets, the wings let go (insertbeam)
  3. pairing  a beam over outer turns and slice-flip-slice steps pairs the
              wings outside the view, every centre kept joined (pairbeam)
  4. parity   one slice quarter turn per wing orbit odd against the view's
  5. centres  the centre orbits outside the view joined by block commutators
              and table 3-cycles (stages.CentreStage), their closing outer
              turns left out (they keep what is joined joined)
  6. wings    the wing orbits outside the view joined by table 3-cycles
  7. view     the cube is now the smaller cube blown up: solved whole by
              cubebot.solver.solve4 or solve5, its moves lifted to the
              grouped turns (views.lift: the 4x4x4's Rw is the 6x6x6's 3Rw)
Stages 1-4 run in several orientations of the cube (reduce.TRIED); 5-7 go on
in the one with the best estimate (moves so far and facelets not joined).
Output: outer and wide turns only (a slice as two wide turns), each counted
one move (OBTM).

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
