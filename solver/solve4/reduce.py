"""The reduction pipeline: check and label, centre stages, edges, 3x3x3.

Reducer(directory).solve(state, budget) -> solve4.Result. Tables are opened
(mmap) when a Reducer is made and read one entry at a time.
"""

from .. import solve3, store
from ..cubies import corner_facelets, from_facelets, parity
from ..facelets import is_solved, solved
from ..moves import apply, count, permutation, simplify
from ..search import first_solution
from ..errors import TableError
from . import STAGES, Result
from .centres import CentreStage, LRStage, UDStage
from .edges import EdgeSearch, PairTable
from .finish import to_3x3
from .model import CORNERS, N, centre_colours, to_physical
from .pieces import label, wing_parity, wing_positions

DIRECT_DEPTH = 3               # cubes this close to solved are solved directly, optimally
MAX_CENTRE_STAGE = 15          # above every centre table's largest distance
CORNER_SIZE = 2


def corner_parity(lettered):
    """Parity of the corner permutation of a URFDLB-lettered 4x4x4 state."""
    small = list(solved(CORNER_SIZE))
    for big, little in zip(CORNERS, corner_facelets(CORNER_SIZE)):
        for i, j in zip(big, little):
            small[j] = lettered[i]
    return parity(from_facelets("".join(small), CORNER_SIZE).cp)


class Reducer(object):
    """The 4x4x4 solver with its tables open."""

    def __init__(self, directory=None):
        self.stages = (LRStage(), UDStage(), CentreStage())
        self.tables = [store.open_dense(s.table, directory) for s in self.stages]
        self.pairs = store.open_dense(PairTable.table, directory)

    def _exact(self, stage, table, start):
        """A shortest stage solution (the table is exact, so IDA* walks straight down)."""
        rank = stage.rank

        def heuristic(state):
            return table[rank(state)]

        solution = first_solution(start, stage.moves, stage.apply, heuristic,
                                  lambda s: table[rank(s)] == 0, max_cost=MAX_CENTRE_STAGE)
        if solution is None:
            raise TableError("table {} gives no path to its goal: run `cubebot tables build`".format(
                stage.table))
        return solution

    def _direct(self, lettered):
        """An optimal solution of at most DIRECT_DEPTH moves, or None."""
        lr, table = self.stages[0], self.tables[0]
        perms = [permutation(m, N) for m in lr.moves]

        def apply_perm(cube, i):
            return "".join([cube[p] for p in perms[i]])

        def heuristic(cube):
            return table[lr.rank(lr.start(centre_colours(cube)))]

        return first_solution(lettered, lr.moves, apply_perm, heuristic,
                              lambda cube: is_solved(cube, N), max_cost=DIRECT_DEPTH)

    def solve(self, state, budget=None):
        lettered, _ = label(state)
        direct = self._direct(lettered)
        if direct is not None:
            moves, _ = to_physical(direct)
            stage_moves = dict((name, []) for name in STAGES)
            stage_moves["direct"] = moves
            return Result([moves], stage_moves, 0)
        lr, ud, ct = self.stages
        parts = []
        cube = lettered
        m = self._exact(lr, self.tables[0], lr.start(centre_colours(cube)))
        parts.append(m)
        cube = apply(cube, m, N)
        start = ud.start(centre_colours(cube), wing_parity(wing_positions(cube)))
        m = self._exact(ud, self.tables[1], start)
        parts.append(m)
        cube = apply(cube, m, N)
        m = self._exact(ct, self.tables[2], ct.start(centre_colours(cube)))
        parts.append(m)
        cube = apply(cube, m, N)

        pos = wing_positions(cube)
        edge_moves = []
        search = EdgeSearch(ct, self.tables[2], self.pairs)
        for stage_moves in search.solve(ct.start(centre_colours(cube)), pos, corner_parity(cube)):
            edge_moves += stage_moves
        parts.append(edge_moves)
        cube = apply(cube, edge_moves, N)

        reduction = [mv for part in parts for mv in part]
        candidates = []
        finishes = solve3.solve(to_3x3(cube), budget=budget)
        for finish in finishes:
            moves, _ = to_physical(reduction + list(finish))
            candidates.append(simplify(moves))
        candidates.sort(key=lambda ms: count(ms, "obtm"))
        best_finish = min(finishes, key=len)
        stage_moves = dict(zip(STAGES, parts + [list(best_finish)]))
        return Result(candidates, stage_moves, search.stats.nodes)
