"""Phase 3 of the reduction: centres solved and edges paired, in the orbit group.

Moves: orbits.PHASE3_MOVES (U, D, F, B, R2, L2 and the six wide half turns).
They keep each wing in its orbit: the A wing of edge e stays in the A-orbit
slots, the B wing in the B-orbit slots. A state is (centres, a, b, corner
parity): centres the centres.CentreStage masks, a[e] / b[e] the index
(0..11 in orbits.ORBIT_A / ORBIT_B) of the slot of edge e's A / B wing.
Edge e is paired when b[e] == partner[a[e]] (the B slot of the same edge).

Table 4x4-triples: for three edges, the distance to "all three paired" over
the slots of their A and B wings, indexed by the six slot indices in base 12
(12^6 = 2,985,984 entries, 4 bits; the (12*11*10)^2 = 1,742,400 states with
distinct slots are all reached, at most 7 moves). One table serves any three
edges (the goal does not depend on which edges they are).

Search (IDA* per stage, each keeping what the earlier stages reached):
  1. the centres solved and the FIRST_EDGES edges with the smallest triple
     bounds paired (heuristic: max of the centre table and their triples);
  2. then stage by stage at least one more edge paired, centres and paired
     edges kept (heuristic: the centre table and the triples of the most
     promising unpaired edge with every two paired edges);
  3. the stage that pairs the last edges also asks for the edge permutation
     parity of the corners (no PLL parity), for up to PARITY_NODE_CAP nodes;
     otherwise PLL_PARITY_FIX is appended.
A pure-Python search cannot pair all 12 edges and the centres in one IDA*
(the triple tables are too weak a bound for its ~13-15 moves).
"""

from itertools import combinations, permutations

from ..errors import UnsolvableCube
from ..moves import parse
from ..search import Stats, first_solution
from .centres import CentreStage
from .masks import MaskMover
from .model import permutation_parity, wing_map
from .orbits import N_ORBIT, ORBIT_A, ORBIT_B, PHASE3_MOVES

BASE = N_ORBIT
N_TRIPLE = BASE ** 3
N_TRIPLES = N_TRIPLE * N_TRIPLE         # 12^6 = 2,985,984
N_EDGES = N_ORBIT
TRIPLE = 3
FIRST_EDGES = 4
MAX_STAGE_COST = 20
PARITY_NODE_CAP = 100000       # nodes spent looking for a last stage without PLL parity

# A PLL-parity fix (two opposite U edges swapped; centres and pairs kept):
# r2 U2 r2 Uw2 r2 Uw2 with the inner slice r2 = Rw2 R2.
PLL_PARITY_FIX = parse("Rw2 R2 U2 Rw2 R2 Uw2 Rw2 R2 Uw2")


def orbit_maps(moves):
    """Per move, (map of A-slot indices, map of B-slot indices)."""
    where_a = dict((s, i) for i, s in enumerate(ORBIT_A))
    where_b = dict((s, i) for i, s in enumerate(ORBIT_B))
    result = []
    for m in moves:
        w = wing_map(m)
        result.append((tuple(where_a[w[s]] for s in ORBIT_A), tuple(where_b[w[s]] for s in ORBIT_B)))
    return result


def partner():
    """partner[i] = index in ORBIT_B of the other slot of ORBIT_A[i]'s edge."""
    where_b = dict((s, i) for i, s in enumerate(ORBIT_B))
    return tuple(where_b[s ^ 1] for s in ORBIT_A)


def triple_index(a, b, x, y, z):
    """Index in 4x4-triples of edges x, y, z with A/B slot indices a, b."""
    return ((a[x] * BASE + a[y]) * BASE + a[z]) * N_TRIPLE + (b[x] * BASE + b[y]) * BASE + b[z]


class TripleTable(object):
    """Table spec: three edges' A and B wing slots, distance to all three paired."""

    table = "4x4-triples"
    size = N_TRIPLES

    def __init__(self):
        maps = orbit_maps(PHASE3_MOVES)
        # Per move: the new triple index of every triple index, for A and for B.
        self.moves_a = [self._triple_map(ma) for ma, _ in maps]
        self.moves_b = [self._triple_map(mb) for _, mb in maps]

    @staticmethod
    def _triple_map(m):
        return [(m[i // (BASE * BASE)] * BASE + m[i // BASE % BASE]) * BASE + m[i % BASE]
                for i in range(N_TRIPLE)]

    def goals(self):
        p = partner()
        return sorted(triple_index(a, [p[x] for x in a], 0, 1, 2)
                      for a in permutations(range(BASE), TRIPLE))

    def neighbours(self, index):
        a, b = divmod(index, N_TRIPLE)
        return [ma[a] * N_TRIPLE + mb[b] for ma, mb in zip(self.moves_a, self.moves_b)]


class Phase3(object):
    """The phase-3 search; tables are DenseTable-like (t[rank])."""

    def __init__(self, centre_table, triple_table):
        self.cs = CentreStage()
        self.ct = centre_table
        self.tt = triple_table
        self.moves = list(PHASE3_MOVES)
        self.mover = MaskMover(self.moves)
        self.maps = orbit_maps(self.moves)
        self.partner = partner()
        self.corner_flip = [1 if m.turns != 2 else 0 for m in self.moves]
        self.edge_at = [s >> 1 for s in ORBIT_A]
        self.stats = Stats()

    def start(self, symbols, pos, corner_parity):
        """The state from centre symbols and wing positions with one wing per edge in A."""
        where_a = dict((s, i) for i, s in enumerate(ORBIT_A))
        where_b = dict((s, i) for i, s in enumerate(ORBIT_B))
        a, b = [], []
        for e in range(N_EDGES):
            first, second = pos[2 * e], pos[2 * e + 1]
            if first not in where_a:
                first, second = second, first
            if first not in where_a or second not in where_b:
                raise UnsolvableCube("edge {} has both wings in one orbit: phase 2 did not "
                                     "orient the wings".format(e))
            a.append(where_a[first])
            b.append(where_b[second])
        return (self.cs.start(symbols), tuple(a), tuple(b), corner_parity)

    def apply(self, state, i):
        centres, a, b, cp = state
        move = self.mover.apply
        ma, mb = self.maps[i]
        return ((move(centres[0], i), move(centres[1], i), move(centres[2], i)),
                tuple([ma[x] for x in a]), tuple([mb[x] for x in b]), cp ^ self.corner_flip[i])

    def paired(self, state):
        """The edges whose two wings are together."""
        p, a, b = self.partner, state[1], state[2]
        return [e for e in range(N_EDGES) if b[e] == p[a[e]]]

    def edge_parity(self, state):
        """Parity of the permutation of the (paired) edges."""
        return permutation_parity([self.edge_at[x] for x in state[1]])

    def _bound(self, state, triples):
        tt, a, b = self.tt, state[1], state[2]
        worst = 0
        for x, y, z in triples:
            v = tt[triple_index(a, b, x, y, z)]
            if v > worst:
                worst = v
        return worst

    def solve(self, state):
        """Moves (a list per stage) that solve the centres and pair every edge, no PLL parity.

        self.stats counts the nodes of this solve."""
        self.stats = Stats()
        stages = []
        todo = [e for e in range(N_EDGES) if e not in self.paired(state)]
        first = min(combinations(todo, min(FIRST_EDGES, len(todo))),
                    key=lambda c: (self._bound(state, list(combinations(c, TRIPLE))), c))
        solution = self._stage(state, [], list(first), False)
        state = self._follow(state, solution)
        stages.append(solution)
        while True:
            done = self.paired(state)
            if len(done) == N_EDGES:
                if self.edge_parity(state) != state[3]:
                    stages.append(list(PLL_PARITY_FIX))
                return stages
            todo = [e for e in range(N_EDGES) if e not in done]
            pairs = list(combinations(done, TRIPLE - 1))
            target = min(todo, key=lambda e: (self._bound(state, [(e, x, y) for x, y in pairs]), e))
            solution = None
            if len(todo) == 2:
                solution = self._stage(state, done, [target], True, PARITY_NODE_CAP)
            if solution is None:
                solution = self._stage(state, done, [target], False)
            state = self._follow(state, solution)
            stages.append(solution)

    def _follow(self, state, solution):
        for move in solution:
            state = self.apply(state, self.moves.index(move))
        return state

    def _stage(self, start, done, targets, parity_goal, node_cap=None):
        """A stage solution: centres solved, `done` kept paired, `targets` (or, after the
        first stage, any unpaired edge) paired; None if node_cap nodes did not find one."""
        ct, rank, tt, p = self.ct, self.cs.rank, self.tt, self.partner
        keep = list(done) if done else list(targets)
        todo = [e for e in range(N_EDGES) if e not in keep]
        triples = [t for t in combinations(list(done) + list(targets), TRIPLE)
                   if any(e in targets for e in t)]

        def edges_done(a, b):
            for e in keep:
                if b[e] != p[a[e]]:
                    return False
            if not done:
                return True
            for e in todo:
                if b[e] == p[a[e]]:
                    return True
            return False

        def heuristic(state):
            centres, a, b, _ = state
            c = h = ct[rank(centres)]
            for x, y, z in triples:
                v = tt[triple_index(a, b, x, y, z)]
                if v > h:
                    h = v
            if h and not c and done and edges_done(a, b):
                return 0
            return h

        def is_goal(state):
            centres, a, b, cp = state
            if ct[rank(centres)] != 0 or not edges_done(a, b):
                return False
            if parity_goal and len(self.paired(state)) == N_EDGES:
                return self.edge_parity(state) == cp
            return True

        stop = None
        if node_cap is not None:
            cap = self.stats.nodes + node_cap
            stats = self.stats

            def stop():
                return stats.nodes > cap

        solution = first_solution(start, self.moves, self.apply, heuristic, is_goal,
                                  max_cost=MAX_STAGE_COST, stats=self.stats, stop=stop)
        if solution is None and node_cap is None:
            raise UnsolvableCube("phase 3 found no stage solution within {} moves".format(
                MAX_STAGE_COST))
        return solution
