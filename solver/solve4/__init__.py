"""The 4x4x4 solver: reduction to a 3x3x3 with IDA* over on-disk tables.

Stages (STAGES; see docs/solver4.md), run by reduce.Reducer:
  1. centres-lr  L/R centres onto the L/R axis                  (centres.LRStage)
  2. centres-ud  U/D centres onto U/D, wings even               (centres.UDStage)
  3. wings       every edge gets one wing in each pair orbit    (wings.EOStage)
  4. slice       four edges into the E slice, centres made ready (slice.SliceSearch)
  5. pairs       centres solved, edges paired, no parity        (pairs.PairsSearch)
  6. 3x3x3       the reduced cube solved by cubebot.solver.solve3 (finish.to_3x3)

Stages 1-3 turn only blocks that leave the DLB corner in place (model's
fixed frame); stages 4-5 use the orbit-keeping moves of orbits.py (outer
U, D, F, B turns, R2, L2 and wide half turns). The result is rewritten into
outer and wide turns (model.to_physical), counted in OBTM.

Modules: model (the cube, frame, move sets), pieces (reading a state), masks
and orbits (fast coordinates, the wing orbits), centres, wings, slice, pairs
(the stages), finish (to a 3x3x3), reduce (the pipeline), build (the tables).

solve(state, metric, budget) is the engine entry point of cubebot.solver.api;
solve_stages(state, budget) also returns the length of each stage;
reductions(state, count) runs stages 1-5 only and gives up to `count` equally short
reductions (the 5x5x5 solver reduces its outer 4x4x4 part with them).
"""

from cubebot.solver.solve4.reduce import STAGES, Result

__all__ = ["STAGES", "Result", "reductions", "solve", "solve_stages"]


def solve(state, metric="obtm", budget=None):
    """A list of candidate solutions (lists of Moves), shortest first."""
    return solve_stages(state, budget).candidates


def solve_stages(state, budget=None, directory=None):
    """Result(candidates, stages: name -> moves, nodes: slice and pairs search nodes,
    seconds: reduce.SECTIONS name -> wall seconds, stage_nodes: slice/pairs -> nodes)."""
    from cubebot.solver.solve4.reduce import Reducer
    return Reducer(directory).solve(state, budget)


def reductions(state, directory=None, count=1):
    """The cube reduced, not finished: up to `count` reductions of the fewest moves,
    each (moves, stages), each leaving another reduced cube.

    moves: outer and wide turns (OBTM) after which, up to a whole-cube rotation,
    every centre is solved, every edge paired and there is no OLL or PLL
    parity; stages: stage name -> its number of moves (STAGES[:5], or
    {"direct": n} for a cube within a few moves of solved, then solved).
    """
    from cubebot.solver.solve4.model import to_physical
    from cubebot.solver.solve4.reduce import Reducer
    reducer = Reducer(directory)
    try:
        names, found = reducer.reductions(state, count)
    finally:
        reducer.release()
    result = []
    for parts, _ in found:
        moves, _ = to_physical([m for part in parts for m in part])
        result.append((moves, dict(zip(names or ("direct",), (len(part) for part in parts)))))
    return result
