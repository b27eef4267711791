"""Edge pairing of the 4x4x4 reduction, by IDA* over tables.

Works in the centre frame (model.EDGE_MOVES: every outer turn and the wide
half turns), which keeps each centre colour on its axis and keeps the wing
permutation even. A state is (centres, pos, corner parity): centres the
CentreStage state, pos[w] the slot of wing piece w, and the parity of the
corner permutation.

Edge e is paired when its wings 2e and 2e+1 sit in the two slots of one
edge: pos[2e+1] == pos[2e] ^ 1 (a wing has one orientation per slot, so the
two wings in one edge always agree; swapped, the pair is a flipped edge).

Table 4x4-pairs: for two edges (four wings), the distance to "both paired",
indexed by the four slots in base 24 (24^4 entries, 4 bits each; the
255,024 states with distinct slots are all reached, at most 6 moves).

Stages: the centres are solved first (centres.CentreStage); then each stage
pairs at least one more edge while keeping the centres solved and the paired
edges paired. Its heuristic is the max of the centre table and, for the best
unpaired edge, the max of the pair table against every paired edge (a
minimum over edges of lower bounds is a lower bound for "some edge").
The stage that pairs the last edges also demands that the edge permutation
has the corners' parity, so the 3x3x3 left over has no PLL parity.
"""

from ..search import Stats, first_solution
from ..errors import UnsolvableCube
from ..moves import parse
from .model import EDGE_MOVES, EDGE_OF, N_WINGS, permutation_parity, wing_map
from .pieces import wing_parity

N_EDGES = N_WINGS // 2
BASE = N_WINGS
N_PAIR_STATES = BASE ** 4
MAX_STAGE_COST = 14
LAST_STAGE_EDGES = 2           # a stage starting with this many unpaired edges is the last
PARITY_NODE_CAP = 150000       # nodes spent looking for a last stage without PLL parity

# A PLL-parity fix (two opposite U edges swapped; centres and pairs kept):
# r2 U2 r2 Uw2 r2 Uw2 with the inner slice r2 = Rw2 R2. Appended only when
# the last stage could not avoid the parity within PARITY_NODE_CAP nodes.
PLL_PARITY_FIX = parse("Rw2 R2 U2 Rw2 R2 Uw2 Rw2 R2 Uw2")


def pair_index(s0, s1, s2, s3):
    """Index of four wing slots in the pair table."""
    return ((s0 * BASE + s1) * BASE + s2) * BASE + s3


class PairTable(object):
    """Spec of the two-edge pairing table for the shared BFS builder."""

    table = "4x4-pairs"
    size = N_PAIR_STATES

    def __init__(self):
        self.maps = [wing_map(m) for m in EDGE_MOVES]

    def goals(self):
        return sorted(pair_index(s, s ^ 1, t, t ^ 1)
                      for s in range(BASE) for t in range(BASE) if t >> 1 != s >> 1)

    def neighbours(self, index):
        rest, p3 = divmod(index, BASE)
        rest, p2 = divmod(rest, BASE)
        p0, p1 = divmod(rest, BASE)
        return [pair_index(m[p0], m[p1], m[p2], m[p3]) for m in self.maps]


def paired(pos):
    """The edges (0..11) whose two wings are together."""
    return [e for e in range(N_EDGES) if pos[2 * e + 1] == pos[2 * e] ^ 1]


def edge_parity(pos):
    """Parity of the permutation of the (paired) edges."""
    return permutation_parity([EDGE_OF[pos[2 * e]] for e in range(N_EDGES)])


class EdgeSearch(object):
    """Pairs the edges stage by stage; tables are DenseTable-like (t[rank])."""

    def __init__(self, centre_stage, centre_table, pair_table):
        self.cs = centre_stage
        self.ct = centre_table
        self.pt = pair_table
        self.moves = list(EDGE_MOVES)
        self.maps = [wing_map(m) for m in self.moves]
        self.corner_flip = [1 if (m.last == 1 and m.turns != 2) else 0 for m in self.moves]
        self.stats = Stats()

    def apply(self, state, i):
        centres, pos, cp = state
        m = self.maps[i]
        return (self.cs.apply(centres, i), tuple([m[p] for p in pos]), cp ^ self.corner_flip[i])

    def solve(self, centres, pos, corner_parity):
        """Moves (a list per stage) that pair every edge, centres solved, no PLL parity."""
        if wing_parity(pos):
            raise UnsolvableCube("edge stage started with odd wing parity: OLL parity was not removed")
        state = (centres, tuple(pos), corner_parity)
        stages = []
        while True:
            done = paired(state[1])
            if len(done) == N_EDGES:
                if edge_parity(state[1]) != state[2]:
                    stages.append(list(PLL_PARITY_FIX))
                return stages
            solution = None
            targets = self._targets(state[1], done)
            if len(done) >= N_EDGES - LAST_STAGE_EDGES:
                solution = self._stage(state, done, targets[0], True, PARITY_NODE_CAP)
            if solution is None:
                solution = self._stage(state, done, targets[0], False, None)
            for move in solution:
                state = self.apply(state, self.moves.index(move))
            stages.append(solution)

    def _bound(self, pos, e, others):
        """Lower bound for pairing edge e while keeping `others` paired."""
        pt = self.pt
        a, b = pos[2 * e], pos[2 * e + 1]
        worst = 0
        for d in others:
            v = pt[pair_index(a, b, pos[2 * d], pos[2 * d + 1])]
            if v > worst:
                worst = v
        return worst

    def _targets(self, pos, done):
        """(target, others, need) choices for the next stage, most promising first.

        With edges paired: pair one more edge, the unpaired edges in order of
        their lower bound (ties: lowest number). With none: pair two edges,
        the pairs in order of the pair table.
        """
        todo = [e for e in range(N_EDGES) if e not in done]
        if done:
            order = sorted(todo, key=lambda e: (self._bound(pos, e, done), e))
            return [(e, list(done), [e]) for e in order]
        pairs = [(e, f) for e in todo for f in todo if f > e]
        pairs.sort(key=lambda p: (self._bound(pos, p[0], [p[1]]), p))
        return [(e, [f], [e, f]) for e, f in pairs]

    def _stage(self, start, done, choice, parity_goal, node_cap):
        ct, rank = self.ct, self.cs.rank
        target, others, need = choice
        final_count = N_EDGES
        pt = self.pt
        # With edges paired, pairing any other edge ends the stage too: the
        # target's bound then guides the search, and a node where some other
        # edge got paired (centres solved, paired edges kept) counts as a goal.
        any_edge = bool(done)
        todo = [e for e in range(N_EDGES) if e not in done]
        keep = list(done) if any_edge else list(done) + need

        def stage_done(pos):
            if any(pos[2 * d + 1] != pos[2 * d] ^ 1 for d in keep):
                return False
            if not any_edge:
                return True
            return any(pos[2 * e + 1] == pos[2 * e] ^ 1 for e in todo)

        def heuristic(state):
            centres, pos, _ = state
            c = ct[rank(centres)]
            h = c
            a, b = pos[2 * target], pos[2 * target + 1]
            for d in others:
                v = pt[pair_index(a, b, pos[2 * d], pos[2 * d + 1])]
                if v > h:
                    h = v
            if h and not c and any_edge and stage_done(pos):
                return 0
            return h

        def is_goal(state):
            centres, pos, cp = state
            if ct[rank(centres)] != 0 or not stage_done(pos):
                return False
            if parity_goal and len(paired(pos)) == final_count:
                return edge_parity(pos) == cp
            return True

        stop = None
        if node_cap is not None:
            cap = self.stats.nodes + node_cap
            stats = self.stats

            def stop():
                return stats.nodes > cap

        solution = first_solution(start, self.moves, self.apply, heuristic, is_goal,
                                  max_cost=MAX_STAGE_COST, stats=self.stats, stop=stop)
        if solution is None and node_cap is not None:
            return None
        if solution is None:
            raise UnsolvableCube("edge pairing found no stage solution within {} moves".format(
                MAX_STAGE_COST))
        return solution
