"""Slot sets as 24-bit masks, and the fast coordinates built on them.

Bit k of a mask is centre slot k (model.CENTRES order), or wing slot k
(model.WINGS order) for the wing masks of the wings stage. A move permutes the
bits; `MaskMover` does that with three 256-entry tables per move (one per
byte). `CombCoord` ranks "which k of these slots are set" in colex order
(0 .. C(len(slots), k) - 1), again through per-byte tables, and unranks
through a table built once per process.
"""

from cubebot.solver.coords import binomial
from cubebot.solver.solve4.model import N_CENTRES, centre_perm

BYTE = 8
BYTE_VALUES = 256
N_BYTES = 3
N_BITS = N_BYTES * BYTE        # 24 centre slots, or 24 wing slots
assert N_BITS == N_CENTRES


def mask_of(symbols, wanted):
    """The mask of centre slots whose symbol is in `wanted`."""
    mask = 0
    for k, s in enumerate(symbols):
        if s in wanted:
            mask |= 1 << k
    return mask


class MaskMover(object):
    """Applies moves to 24-bit masks: mover.apply(mask, i) for moves[i].

    perm_of(move) gives the move as a permutation of the 24 bit positions
    (new bit k = old bit perm[k]); by default of the centre slots.
    """

    def __init__(self, moves, perm_of=centre_perm):
        self.moves = list(moves)
        self.tables = [self._tables(perm_of(m)) for m in self.moves]

    @staticmethod
    def _tables(perm):
        # new bit k = old bit perm[k]; so old bit j goes to the k with perm[k] = j.
        dest = [0] * N_BITS
        for k, j in enumerate(perm):
            dest[j] = k
        tables = []
        for c in range(N_BYTES):
            table = []
            for value in range(BYTE_VALUES):
                out = 0
                for b in range(BYTE):
                    if value >> b & 1:
                        out |= 1 << dest[c * BYTE + b]
                table.append(out)
            tables.append(tuple(table))
        return tuple(tables)

    def apply(self, mask, i):
        t0, t1, t2 = self.tables[i]
        return t0[mask & 0xFF] | t1[(mask >> 8) & 0xFF] | t2[mask >> 16]


class CombCoord(object):
    """Rank of a mask restricted to `slots` with exactly k bits set there."""

    def __init__(self, slots, k):
        self.slots = tuple(sorted(slots))
        self.k = k
        self.size = binomial(len(self.slots), k)
        order = dict((s, i) for i, s in enumerate(self.slots))
        # tables[c][before][byte] = (rank contribution, bits counted)
        self.tables = []
        for c in range(N_BYTES):
            per_before = []
            for before in range(k + 1):
                row = []
                for value in range(BYTE_VALUES):
                    rank, seen = 0, before
                    for b in range(BYTE):
                        slot = c * BYTE + b
                        if value >> b & 1 and slot in order:
                            seen += 1
                            if seen <= k:
                                rank += binomial(order[slot], seen)
                    row.append((rank, min(seen, k) - before))
                per_before.append(tuple(row))
            self.tables.append(tuple(per_before))
        self._unrank = None

    def rank(self, mask):
        t0, t1, t2 = self.tables
        r0, n0 = t0[0][mask & 0xFF]
        r1, n1 = t1[n0][(mask >> 8) & 0xFF]
        r2, _ = t2[n0 + n1][mask >> 16]
        return r0 + r1 + r2

    def unrank(self, rank):
        """The mask (bits only on self.slots) of a rank."""
        if self._unrank is None:
            self._unrank = self._unrank_table()
        return self._unrank[rank]

    def _unrank_table(self):
        from array import array
        from itertools import combinations
        table = array("L", [0]) * self.size
        for combo in combinations(self.slots, self.k):
            mask = 0
            for s in combo:
                mask |= 1 << s
            table[self.rank(mask)] = mask
        return table


def mask_of_slots(slots):
    """The mask with exactly these slots set (centre or wing slots)."""
    mask = 0
    for s in slots:
        mask |= 1 << s
    return mask


class MaskStage(object):
    """A stage whose state is one mask with k of `slots` set, goal one mask.

    Gives what the shared builder and IDA* need: moves, apply, rank, goals,
    neighbours (ranks are CombCoord ranks).
    """

    def __init__(self, moves, perm_of, slots, k, goal_slots):
        self.moves = list(moves)
        self.mover = MaskMover(self.moves, perm_of)
        self.coord = CombCoord(slots, k)
        self.size = self.coord.size
        self.goal_mask = mask_of_slots(goal_slots)

    def apply(self, state, i):
        return self.mover.apply(state, i)

    def rank(self, state):
        return self.coord.rank(state)

    def goals(self):
        return [self.coord.rank(self.goal_mask)]

    def neighbours(self, rank):
        state = self.coord.unrank(rank)
        apply, r = self.mover.apply, self.coord.rank
        return [r(apply(state, i)) for i in range(len(self.moves))]
