"""The reduction pipeline: check and label, centres, wings, pairs, 3x3x3.

Reducer(directory).solve(state, budget) -> solve4.Result. Tables are opened
(mmap) when a Reducer is made and read one entry at a time.
"""

from .. import solve3, store
from ..cubies import corner_facelets, from_facelets, parity
from ..errors import TableError
from ..facelets import is_solved, solved
from ..moves import apply, count, permutation, simplify
from ..search import first_solution, ida_star
from . import STAGES, Result
from .centres import CentreStage, LRStage, UDStage
from .finish import to_3x3
from .model import CORNERS, N, centre_colours, to_physical
from .phase2 import CentreOrbitStage, EOStage, WingStage
from .phase3 import Phase3, TripleTable
from .pieces import label, wing_parity, wing_positions

DIRECT_DEPTH = 3               # cubes this close to solved are solved directly, optimally
MAX_CENTRE_STAGE = 15          # above every exact table's largest distance
MAX_UD_CHOICES = 200           # optimal centres-ud solutions compared by their wing stage
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
        self.lr, self.ud = LRStage(), UDStage()
        self.lr_table = store.open_dense(self.lr.table, directory)
        self.ud_table = store.open_dense(self.ud.table, directory)
        self.wings = WingStage(store.open_dense(EOStage.table, directory),
                               store.open_dense(CentreOrbitStage.table, directory))
        self.phase3 = Phase3(store.open_dense(CentreStage.table, directory),
                             store.open_dense(TripleTable.table, directory))

    def _exact(self, stage, table, start, max_solutions=1):
        """Up to max_solutions shortest stage solutions (the table is exact, so
        IDA* walks straight down)."""
        rank = stage.rank

        def heuristic(state):
            return table[rank(state)]

        found = list(ida_star(start, stage.moves, stage.apply, heuristic,
                              lambda s: table[rank(s)] == 0,
                              max_cost=min(heuristic(start), MAX_CENTRE_STAGE),
                              max_solutions=max_solutions))
        if not found:
            raise TableError("table {} gives no path to its goal: run `cubebot tables build`".format(
                stage.table))
        return found

    def _direct(self, lettered):
        """An optimal solution of at most DIRECT_DEPTH moves, or None."""
        lr, table = self.lr, self.lr_table
        perms = [permutation(m, N) for m in lr.moves]

        def apply_perm(cube, i):
            return "".join([cube[p] for p in perms[i]])

        def heuristic(cube):
            return table[lr.rank(lr.start(centre_colours(cube)))]

        return first_solution(lettered, lr.moves, apply_perm, heuristic,
                              lambda cube: is_solved(cube, N), max_cost=DIRECT_DEPTH)

    def _wings(self, cube):
        """The wing-stage solution for a cube with its centres on their axes."""
        ws = self.wings
        solution = first_solution(ws.start(centre_colours(cube), wing_positions(cube)), ws.moves,
                                  ws.apply, ws.heuristic, lambda s: ws.heuristic(s) == 0,
                                  max_cost=MAX_CENTRE_STAGE)
        if solution is None:
            raise TableError("tables {} and {} give no path to their goal: run `cubebot tables "
                             "build`".format(EOStage.table, CentreOrbitStage.table))
        return solution

    def _centres_and_wings(self, cube):
        """The centres-ud and wing stages: of the optimal centres-ud solutions (up to
        MAX_UD_CHOICES) the one whose wing-stage lower bound is smallest."""
        ud, ws = self.ud, self.wings
        start = ud.start(centre_colours(cube), wing_parity(wing_positions(cube)))
        best = None
        for m in self._exact(ud, self.ud_table, start, MAX_UD_CHOICES):
            after = apply(cube, m, N)
            bound = ws.heuristic(ws.start(centre_colours(after), wing_positions(after)))
            if best is None or bound < best[0]:
                best = (bound, m, after)
        m_wings = self._wings(best[2])
        return best[1], m_wings, apply(best[2], m_wings, N)

    def solve(self, state, budget=None):
        lettered, _ = label(state)
        direct = self._direct(lettered)
        if direct is not None:
            moves, _ = to_physical(direct)
            stage_moves = dict((name, []) for name in STAGES)
            stage_moves["direct"] = moves
            return Result([moves], stage_moves, 0)
        cube = lettered
        m_lr = self._exact(self.lr, self.lr_table, self.lr.start(centre_colours(cube)))[0]
        cube = apply(cube, m_lr, N)
        m_ud, m_eo, cube = self._centres_and_wings(cube)
        p3 = self.phase3
        start = p3.start(centre_colours(cube), wing_positions(cube), corner_parity(cube))
        m_pairs = [mv for part in p3.solve(start) for mv in part]
        cube = apply(cube, m_pairs, N)
        parts = [m_lr, m_ud, m_eo, m_pairs]

        reduction = [mv for part in parts for mv in part]
        candidates = []
        finishes = solve3.solve(to_3x3(cube), budget=budget)
        for finish in finishes:
            moves, _ = to_physical(reduction + list(finish))
            candidates.append(simplify(moves))
        candidates.sort(key=lambda ms: count(ms, "obtm"))
        best_finish = min(finishes, key=len)
        stage_moves = dict(zip(STAGES, parts + [list(best_finish)]))
        return Result(candidates, stage_moves, p3.stats.nodes)
