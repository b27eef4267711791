"""Slot sets as 24-bit masks, and the fast coordinates built on them.

Bit k of a mask is centre slot k (model.CENTRES order), or wing slot k
(model.WINGS order) for the wing masks of the wings stage. A move permutes the
bits; `MaskMover` does that with three 256-entry tables per move (one per
byte). `CombCoord` ranks "which k of these slots are set" in colex order
(0 .. C(len(slots), k) - 1), again through per-byte tables, and unranks
through a table built once per process.

Every per-byte table is a flat array of 32-bit integers (WORD), not a tuple
of int objects: on the brick a Python int costs 16 bytes and a tuple slot 4
more, an array entry 4 bytes; the move tables of one permutation are built
once per process and shared by every mover that uses it (the stages share
most of their moves), and so are the rank tables of one CombCoord (slots, k): a
batch of solves builds each once (the unrank tables, built only for the table
builds, are not kept).
"""

from array import array

from cubebot.solver.coords import binomial
from cubebot.solver.solve4.model import N_CENTRES, centre_perm

BYTE = 8
BYTE_VALUES = 256
N_BYTES = 3
N_BITS = N_BYTES * BYTE        # 24 centre slots, or 24 wing slots
assert N_BITS == N_CENTRES
WORD = "i" if array("i").itemsize >= 4 else "l"     # a signed integer of at least 32 bits
SEEN_BITS = 4                  # CombCoord entry = rank contribution << SEEN_BITS | bits counted
SEEN_MASK = (1 << SEEN_BITS) - 1

_PERM_TABLES = {}              # permutation -> its MaskMover table (built on first use)
_COMB_TABLES = {}              # (slots, k) -> CombCoord's rank tables (built on first use)
_FLAT_TABLES = {}              # the same tables one after another for the compiled core (flat())


def _perm_table(perm):
    """One move's table for MaskMover: entry c*256 + v = where byte c = v sends its bits."""
    perm = tuple(perm)
    table = _PERM_TABLES.get(perm)
    if table is None:
        # new bit k = old bit perm[k]; so old bit j goes to the k with perm[k] = j.
        dest = [0] * N_BITS
        for k, j in enumerate(perm):
            dest[j] = k
        table = array(WORD, [0]) * (N_BYTES * BYTE_VALUES)
        for c in range(N_BYTES):
            for value in range(BYTE_VALUES):
                out = 0
                for b in range(BYTE):
                    if value >> b & 1:
                        out |= 1 << dest[c * BYTE + b]
                table[c * BYTE_VALUES + value] = out
        table = _PERM_TABLES.setdefault(perm, table)
    return table


def int32_array(values):
    """A native array of 32-bit integers (the compiled core's layout)."""
    out = array("i", values)
    if out.itemsize != 4:
        out = array("l", out)
        if out.itemsize != 4:
            raise ValueError("no 32-bit array type on this machine")
    return out


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
        self.tables = [_perm_table(perm_of(m)) for m in self.moves]
        self._flat = None

    def flat(self):
        """The tables one after another, as native 32-bit integers (search.MaskModel's
        movers); made once per mover."""
        if self._flat is None:
            key = tuple(id(table) for table in self.tables)     # the tables live in _PERM_TABLES
            flat = _FLAT_TABLES.get(key)
            if flat is None:
                flat = _FLAT_TABLES.setdefault(key, int32_array(t for table in self.tables
                                                                for t in table))
            self._flat = flat
        return self._flat

    def apply(self, mask, i):
        t = self.tables[i]
        return t[mask & 0xFF] | t[BYTE_VALUES + ((mask >> 8) & 0xFF)] | t[2 * BYTE_VALUES + (mask >> 16)]

    def apply3(self, masks, i):
        """(apply(m, i) for m in masks) of three masks (one per axis), in one call."""
        t = self.tables[i]
        a, b, c = masks
        return (t[a & 0xFF] | t[BYTE_VALUES + ((a >> 8) & 0xFF)] | t[2 * BYTE_VALUES + (a >> 16)],
                t[b & 0xFF] | t[BYTE_VALUES + ((b >> 8) & 0xFF)] | t[2 * BYTE_VALUES + (b >> 16)],
                t[c & 0xFF] | t[BYTE_VALUES + ((c >> 8) & 0xFF)] | t[2 * BYTE_VALUES + (c >> 16)])


class CombCoord(object):
    """Rank of a mask restricted to `slots` with exactly k bits set there."""

    def __init__(self, slots, k):
        self.slots = tuple(sorted(slots))
        self.k = k
        self.size = binomial(len(self.slots), k)
        if k > SEEN_MASK:
            raise ValueError("CombCoord counts at most {} set slots, not {}".format(SEEN_MASK, k))
        key = (self.slots, k)
        self.tables = _COMB_TABLES.get(key)
        if self.tables is None:
            self.tables = _COMB_TABLES.setdefault(key, self._rank_tables())
        self._unrank = None

    def _rank_tables(self):
        """tables[c][before * 256 + byte] = rank contribution << SEEN_BITS | bits counted."""
        k = self.k
        order = dict((s, i) for i, s in enumerate(self.slots))
        tables = []
        for c in range(N_BYTES):
            table = array(WORD, [0]) * ((k + 1) * BYTE_VALUES)
            for before in range(k + 1):
                for value in range(BYTE_VALUES):
                    rank, seen = 0, before
                    for b in range(BYTE):
                        slot = c * BYTE + b
                        if value >> b & 1 and slot in order:
                            seen += 1
                            if seen <= k:
                                rank += binomial(order[slot], seen)
                    table[before * BYTE_VALUES + value] = rank << SEEN_BITS | (min(seen, k) - before)
            tables.append(table)
        return tables

    def flat(self):
        """(the three rank tables one after another as native 32-bit integers, k): a
        rank coordinate of search.MaskModel."""
        key = (self.slots, self.k)
        flat = _FLAT_TABLES.get(key)
        if flat is None:
            flat = _FLAT_TABLES.setdefault(key, int32_array(t for table in self.tables
                                                            for t in table))
        return flat, self.k

    def rank(self, mask):
        t0, t1, t2 = self.tables
        v0 = t0[mask & 0xFF]
        v1 = t1[(v0 & SEEN_MASK) << 8 | (mask >> 8) & 0xFF]
        # the counts add up to at most k < 16: no carry out of the low bits
        v2 = t2[((v0 + v1) & SEEN_MASK) << 8 | mask >> 16]
        return (v0 + v1 + v2) >> SEEN_BITS

    def ranks(self, masks):
        """[self.rank(m) for m in masks], in one loop (no call per mask)."""
        t0, t1, t2 = self.tables
        result = []
        for mask in masks:
            v0 = t0[mask & 0xFF]
            v1 = t1[(v0 & SEEN_MASK) << 8 | (mask >> 8) & 0xFF]
            result.append((v0 + v1 + t2[((v0 + v1) & SEEN_MASK) << 8 | mask >> 16]) >> SEEN_BITS)
        return result

    def unrank(self, rank):
        """The mask (bits only on self.slots) of a rank."""
        if self._unrank is None:
            self._unrank = self._unrank_table()
        return self._unrank[rank]

    def _unrank_table(self):
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
        # apply(state, i) and rank(state): the mover's and the coordinate's own (bound
        # methods; one call less per search node)
        self.apply, self.rank = self.mover.apply, self.coord.rank

    def goals(self):
        return [self.coord.rank(self.goal_mask)]

    def neighbours(self, rank):
        state = self.coord.unrank(rank)
        apply, r = self.mover.apply, self.coord.rank
        return [r(apply(state, i)) for i in range(len(self.moves))]
