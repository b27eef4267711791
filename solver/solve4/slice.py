"""The slice stage (Tsai's step 3): four edges into the E slice, centres made ready.

Runs in the orbit group (orbits.PHASE3_MOVES, 20 moves) after the wing
stage, and hands the pairs stage (pairs.py) a cube it can finish:
  - four edges (any four: the stage picks them) have both wings in the E
    slice, arranged so that the pairs moves can pair them: their pairing
    permutation (pairs.py) is one of the four of the Klein group V4, the
    only ones the pairs moves reach there;
  - the centres are in one of the 10,080 configurations that the pairs
    moves can solve.

Edge coordinate, for a set of four edges: which A-orbit indices hold their
A wings (C(12, 4) = 495 sets, ranked in colex order: set_ranks) and, in
increasing A index order, the B-orbit indices of their B wings as base-12
digits (12^4 = 20,736; tuples with a repeated digit are never reached).
N_SLICE = 495 * 20,736 = 10,264,320 entries, 5,880,600 reached, at most 10
moves from a goal. Table 4x4-slice (4 bits, exact), built with per-move
tables of the set ranks and the digit tuples.

Table 4x4-centres-p4 (CentresForPairs): the distance of every centre
configuration (centres.CentreStage coordinate, 343,000) under the orbit
moves to the ones the pairs moves can solve, which the shared builder finds
from the solved centres.

The search (SliceSearch) lets any of the sets of four edges that are
nearest in 4x4-slice (or one further) go into the slice: IDA* with the max
of the centre table and the min of 4x4-slice over those sets.
"""

from itertools import combinations, permutations

from cubebot.solver.coords import binomial
from cubebot.solver.search import MaskModel, core_function
from cubebot.solver.tables import UNREACHED, bfs
from cubebot.solver.solve4.centres import CentreStage
from cubebot.solver.solve4.masks import MaskMover, int32_array
from cubebot.solver.solve4.orbits import E_A, N_ORBIT, PAIR_MOVES, PHASE3_MOVES, OrbitMover, orbit_maps, partner

SLICE_SIZE = len(E_A)                          # four edges in the slice
N_SETS = binomial(N_ORBIT, SLICE_SIZE)        # C(12, 4) = 495 sets of A indices
DIGITS = N_ORBIT                               # a B index is a base-12 digit
N_TUPLES = DIGITS ** SLICE_SIZE                # 12^4 = 20,736 digit tuples
N_SLICE = N_SETS * N_TUPLES                    # 10,264,320
# The pairing permutations of the slice (as positions in E_A) the pairs moves reach: V4.
KLEIN = ((0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0))
SUBSET_SLACK = 1               # sets of four edges this much further than the nearest may go
MAX_SUBSETS = 40               # ... but at most this many (the heuristic is a min over them)


def set_ranks():
    """Rank (colex) of every sorted 4-tuple of A indices: a dict tuple -> 0..494."""
    sets = sorted(combinations(range(N_ORBIT), SLICE_SIZE), key=lambda c: c[::-1])
    assert len(sets) == N_SETS
    return dict((c, k) for k, c in enumerate(sets))


def digits_index(digits):
    """The base-12 number of four B indices."""
    return ((digits[0] * DIGITS + digits[1]) * DIGITS + digits[2]) * DIGITS + digits[3]


def _digits(index):
    return (index // DIGITS ** 3, index // DIGITS ** 2 % DIGITS, index // DIGITS % DIGITS,
            index % DIGITS)


def slice_index(ranks, a4, b4):
    """The 4x4-slice index of four edges with A indices a4 and B indices b4."""
    items = sorted(zip(a4, b4))
    key = (items[0][0], items[1][0], items[2][0], items[3][0])
    return ranks[key] * N_TUPLES + ((items[0][1] * DIGITS + items[1][1]) * DIGITS +
                                    items[2][1]) * DIGITS + items[3][1]


def _bits_and_digits(a, b):
    """(bit, digit) of an orbit state's A and B indices: bit[e] the mask bit of edge e's A
    index, digit[x] the B index of the edge whose A index is x."""
    digit = [0] * N_ORBIT
    for e in range(N_ORBIT):
        digit[a[e]] = b[e]
    return [1 << x for x in a], digit


class SliceTable(object):
    """Table spec of 4x4-slice: goals and neighbours for the shared builder."""

    table = "4x4-slice"
    size = N_SLICE

    def __init__(self):
        ranks = set_ranks()
        sets = sorted(ranks, key=ranks.get)
        orders = list(permutations(range(SLICE_SIZE)))
        order_rank = dict((q, k) for k, q in enumerate(orders))
        maps = orbit_maps(PHASE3_MOVES)
        # per move: the set rank after the move (times N_TUPLES) and how the order changes
        self.set_moves = []
        self.tuple_moves = []
        for ma, mb in maps:
            row = []
            for c in sets:
                moved = [ma[s] for s in c]
                order = tuple(sorted(range(SLICE_SIZE), key=moved.__getitem__))
                row.append((ranks[tuple(moved[k] for k in order)] * N_TUPLES, order_rank[order]))
            self.set_moves.append(row)
            self.tuple_moves.append([digits_index([mb[d] for d in _digits(x)])
                                     for x in range(N_TUPLES)])
        self.reorders = []
        for q in orders:
            self.reorders.append([digits_index([_digits(x)[q[j]] for j in range(SLICE_SIZE)])
                                  for x in range(N_TUPLES)])
        self.ranks = ranks

    def goals(self):
        p = partner()
        base = self.ranks[tuple(E_A)] * N_TUPLES
        return sorted(base + digits_index([p[E_A[v[k]]] for k in range(SLICE_SIZE)])
                      for v in KLEIN)

    def neighbours(self, index):
        s, t = divmod(index, N_TUPLES)
        reorders, result = self.reorders, []
        for set_move, tuple_move in zip(self.set_moves, self.tuple_moves):
            base, order = set_move[s]
            result.append(base + reorders[order][tuple_move[t]])
        return result


class CentresForPairs(object):
    """Table spec of 4x4-centres-p4: centres into a configuration the pairs moves solve."""

    table = "4x4-centres-p4"

    def __init__(self):
        self.cs = CentreStage()
        self.size = self.cs.size
        self.neighbours = self._neighbours(PHASE3_MOVES)

    def _neighbours(self, moves):
        cs, mover = self.cs, MaskMover(moves)
        n = len(moves)

        def neighbours(rank):
            a, b, c = cs.unrank(rank)
            move = mover.apply
            return [cs.rank((move(a, i), move(b, i), move(c, i))) for i in range(n)]
        return neighbours

    def goals(self):
        reached = bfs(self.cs.goals(), self._neighbours(PAIR_MOVES), n_states=self.size)
        return [r for r in range(self.size) if reached[r] != UNREACHED]


class SliceSearch(object):
    """The stage's search: its state is the orbits.OrbitMover state itself.

    start() picks the sets of four edges that may go into the slice: those
    at most SUBSET_SLACK further in 4x4-slice than the nearest set, at most
    MAX_SUBSETS of them; the goal is any one of them in the slice, so the
    heuristic is the min over the sets (then the max with the centres).
    """

    def __init__(self, slice_table, centre_table, centre_stage=None, orbit=None):
        self.st = slice_table
        self.ct = centre_table
        self.slice_bytes, self.slice_offset = slice_table.nibbles()
        self.centre_bytes, self.centre_offset = centre_table.nibbles()
        self.cs = centre_stage or CentreStage()
        self.orbit = orbit or OrbitMover(PHASE3_MOVES)
        self.moves = self.orbit.moves
        self.apply = self.orbit.apply
        self.ranks = set_ranks()
        # by the 12-bit mask of four A indices: (their set rank * N_TUPLES, the indices in order)
        self.by_mask = [None] * (1 << N_ORBIT)
        for c, k in self.ranks.items():
            self.by_mask[sum(1 << x for x in c)] = (k * N_TUPLES, c)
        self.all_subsets = tuple(combinations(range(N_ORBIT), SLICE_SIZE))
        self.subsets = []
        self._model = None           # the search.MaskModel of core_spec, made on first use
        self._by_mask = None         # by_mask for the core (native 32-bit, 5 a mask)
        self._every = None           # the model's spec with every set of edges (start())
        self._spec = None            # (subsets, its spec)

    def core_spec(self):
        """The stage as a search.MaskModel spec for the current subsets (search.stage_ida):
        the three centre masks and the A and B indices, the same moves and bound."""
        if self._spec is not None and self._spec[0] == self.subsets:
            return self._spec[1]
        spec = self._mask_model().with_slice(self.slice_bytes, self.slice_offset, self._by_mask,
                                             bytes(e for edges in self.subsets for e in edges))
        self._spec = (list(self.subsets), spec)
        return spec

    def _mask_model(self):
        """The stage's search.MaskModel (and _by_mask, _every), made on first use."""
        if self._model is None:
            cs = self.cs
            orbit = bytes(x for ma, mb in self.orbit.maps for x in tuple(ma) + tuple(mb))
            self._model = MaskModel(
                self.moves, [self.orbit.mover.flat()], [0, 0, 0], [c.flat() for c in cs.coords],
                [(self.centre_bytes, self.centre_offset,
                  ((0, 0, cs.base * cs.base, None), (1, 1, cs.base, None), (2, 2, 1, None)))],
                orbit)
            by_mask = []
            for entry in self.by_mask:
                by_mask.extend((-1, 0, 0, 0, 0) if entry is None else (entry[0],) + entry[1])
            self._by_mask = int32_array(by_mask)
            self._every = self._model.with_slice(
                self.slice_bytes, self.slice_offset, self._by_mask,
                bytes(e for edges in self.all_subsets for e in edges))
        return self._model

    @staticmethod
    def core_state(state):
        masks, a, b, _ = state
        return tuple(masks) + tuple(a) + tuple(b)

    def start(self, orbit_state):
        """The search state of an orbits.OrbitMover state (itself); chooses self.subsets."""
        distances = core_function("slice_distances")
        if distances is not None:
            self._mask_model()
            scored = sorted(zip(distances(self._every, self.core_state(orbit_state)),
                                self.all_subsets))
        else:
            scored = self._scored(orbit_state)
        nearest = scored[0][0]
        self.subsets = [edges for d, edges in scored if d <= nearest + SUBSET_SLACK][:MAX_SUBSETS]
        return orbit_state

    def _scored(self, orbit_state):
        """[(4x4-slice distance, edges) of every set of four edges], sorted."""
        _, a, b, _ = orbit_state
        table, offset, by_mask = self.slice_bytes, self.slice_offset, self.by_mask
        bit, digit = _bits_and_digits(a, b)
        scored = []
        for edges in self.all_subsets:
            e0, e1, e2, e3 = edges
            base, (i0, i1, i2, i3) = by_mask[bit[e0] | bit[e1] | bit[e2] | bit[e3]]
            r = base + ((digit[i0] * DIGITS + digit[i1]) * DIGITS + digit[i2]) * DIGITS + digit[i3]
            scored.append(((table[offset + (r >> 1)] >> ((r & 1) << 2)) & 15, edges))
        scored.sort()
        return scored

    def heuristic(self, state):
        """max(centre distance, min over the sets of their slice distance); the sets
        are read only until one is no further than the centres.

        A set's 4x4-slice index (slice_index) is read as by_mask[its A-index mask]
        plus the B indices in A-index order: digit[x] is the B index of the edge
        whose A index is x."""
        masks, a, b, _ = state
        table, offset, by_mask = self.slice_bytes, self.slice_offset, self.by_mask
        r = self.cs.rank(masks)
        y = (self.centre_bytes[self.centre_offset + (r >> 1)] >> ((r & 1) << 2)) & 15
        bit, digit = _bits_and_digits(a, b)
        nearest = None
        for e0, e1, e2, e3 in self.subsets:
            base, (i0, i1, i2, i3) = by_mask[bit[e0] | bit[e1] | bit[e2] | bit[e3]]
            r = base + ((digit[i0] * DIGITS + digit[i1]) * DIGITS + digit[i2]) * DIGITS + digit[i3]
            x = (table[offset + (r >> 1)] >> ((r & 1) << 2)) & 15     # 4x4-slice[r], inline
            if x <= y:
                return y
            if nearest is None or x < nearest:
                nearest = x
        return nearest
