"""Centre-keeping midge cores with any outer word inside: the table 5x5-midge-cores.

A core is X^k W X^-k: X a middle slice (k = 1, 2, 3), W a word of at most W_MAX outer turns
in which every face makes an even number of quarter turns (a half turn counts two). Such a
core keeps every centre home: X^-k undoes X^k on the fixed centres, and an outer quarter turn
only swaps its face's two T-pair slots, so W leaves every pair slot as it was. W carries edges
in and out of X's ring, so a core moves 3-6 midges (docs/solver5.md).

A core's effect does not depend on the cube: with midges.dest's d before it and d' after,
d'[A[h]] = B[d[h]] (A the half-slot map of all its turns, B of its outer turns only), so the
midge of slot s is home after it iff d[2s] == E[s] = B^-1[A[2s]]. CoreIndex counts, for every
core at once, the midges it places net on a given d.

Table 5x5-midge-cores: one record per distinct effect E (the cheapest core for it), key the
core's index (2 bytes), value E (N_MIDGES bytes) then its phase-2 moves (MAX_MOVES bytes,
slices.MOVES index + 1, leading zeros for fewer). `words()` lists the W words, `build_cores()`
the cheapest core of each effect.
"""

import itertools
from array import array
from collections import Counter

from cubebot.solver.errors import TableError
from cubebot.solver.moves import Move
from .cycletables import BYTE, decode
from .midges import N_HALVES, N_MIDGES, maps
from .slices import MIDDLE, MOVES, OUTER, SLICES, written

TABLE = "5x5-midge-cores"
W_MAX = 4                      # outer turns inside a core; 5 gave no shorter solves (docs)
MAX_MOVES = W_MAX + 2          # X^k, W, X^-k as phase-2 moves
KEY_WIDTH = 2                  # core index < 2 ** 16
VALUE_WIDTH = N_MIDGES + MAX_MOVES
QUARTER_TURNS = {1: 1, 2: 2, 3: 1}   # a move's quarter turns: a half turn two


def even_word(word):
    """True if every face turns an even number of quarter turns in `word`."""
    count = {}
    for m in word:
        count[m.face] = count.get(m.face, 0) + QUARTER_TURNS[m.turns]
    return all(v % 2 == 0 for v in count.values())


def words(longest=W_MAX):
    """The outer words W of 1..longest turns, no face twice in a row, with even_word."""
    result = []
    for length in range(1, longest + 1):
        for word in itertools.product(OUTER, repeat=length):
            if all(word[i].face != word[i + 1].face for i in range(length - 1)) and even_word(word):
                result.append(list(word))
    return result


def effect(moves):
    """E of the moves (the module docstring): E[s] = B^-1[A[2s]]."""
    a, b = maps(moves)
    back = [0] * N_HALVES
    for h, t in enumerate(b):
        back[t] = h
    return tuple(back[a[2 * s]] for s in range(N_MIDGES))


def moved(e):
    """The midge slots a core of effect e moves (E[s] != 2s)."""
    return [s for s in range(N_MIDGES) if e[s] != 2 * s]


def build_cores(longest=W_MAX):
    """[(effect, moves)] for every effect of X^k W X^-k that moves a midge: the fewest
    written turns, then the first found (slices in slices.SLICES order, W by length)."""
    best = {}
    order = []
    for x in SLICES:
        undo = Move(x.face, MIDDLE, MIDDLE, 4 - x.turns)
        for word in words(longest):
            core = [x] + word + [undo]
            e = effect(core)
            if not moved(e):
                continue
            cost = len(written(core))
            if e not in best:
                order.append(e)
            if e not in best or cost < best[e][0]:
                best[e] = (cost, core)
    ranked = sorted(range(len(order)), key=lambda i: (best[order[i]][0], i))
    return [(order[i], best[order[i]][1]) for i in ranked]


def build(path, progress=None):
    """Write 5x5-midge-cores (records: core index -> effect bytes + move bytes)."""
    from cubebot.solver.tables import write_records
    cores = build_cores()
    if progress:
        progress("{} centre-keeping midge cores".format(len(cores)))
    index = dict((m, i + 1) for i, m in enumerate(MOVES))
    items = []
    for key, (e, core) in enumerate(cores):
        value = 0
        for h in e:
            value = value * BYTE + h
        moves = 0
        for m in core:
            moves = moves * BYTE + index[m]
        items.append((key, value * BYTE ** MAX_MOVES + moves))
    write_records(path, items, KEY_WIDTH, VALUE_WIDTH)


class CoreIndex(object):
    """The cores of a 5x5-midge-cores table, indexed by what they place.

    by_target[s * 24 + t]: the cores with E[s] == t != 2s (they place slot s's midge
    when d[2s] == t); moved_mask[i]: the slots core i moves, as bits; popcount[m]: the
    bits set in a 12-bit mask m.
    """

    def __init__(self, table):
        self.popcount = [bin(m).count("1") for m in range(1 << N_MIDGES)]
        self.values = []
        self.cost = []
        self.moved_mask = []
        self.by_target = [[] for _ in range(N_MIDGES * N_HALVES)]
        self._flat = None
        mask = BYTE ** MAX_MOVES
        for i in range(len(table)):
            value = table.get(i)
            if value is None:
                raise TableError("table {} has no core {}: run `cubebot tables build --size 5`".format(
                    TABLE, i))
            e, moves = divmod(value, mask)
            bits = 0
            for s in reversed(range(N_MIDGES)):
                e, t = divmod(e, BYTE)
                if t != 2 * s:
                    bits |= 1 << s
                    self.by_target[s * N_HALVES + t].append(i)
            self.values.append(moves)
            self.moved_mask.append(bits)
            self.cost.append(len(written(decode(moves, MOVES))))

    def moves(self, i):
        return decode(self.values[i], MOVES)

    def flat(self):
        """(by, starts, moved, cost) for the compiled loops (midges.native): by_target's
        lists joined (array "i"), list s * 24 + t being by[starts[k]:starts[k + 1]] for
        k = s * 24 + t; moved_mask (array "H"); cost (a byte a core). Made once."""
        if self._flat is None:
            by, starts = array("i"), array("i", [0])
            for cores in self.by_target:
                by.extend(cores)
                starts.append(len(by))
            self._flat = (by, starts, array("H", self.moved_mask), bytes(self.cost))
        return self._flat

    def placing(self, d):
        """[(net midges placed, core index)] of the cores that place at least one net on
        dest d (midges.dest), sorted."""
        home = 0
        lists = []
        by_target = self.by_target
        for s in range(N_MIDGES):
            t = d[2 * s]
            if t == 2 * s:
                home |= 1 << s
            else:
                lists.append(by_target[s * N_HALVES + t])
        moved, popcount = self.moved_mask, self.popcount
        result = []
        for i, g in Counter(itertools.chain.from_iterable(lists)).items():
            net = g - popcount[moved[i] & home]
            if net > 0:
                result.append((net, i))
        result.sort()
        return result


_INDEXES = {}                  # table path -> its CoreIndex (read once per process)


def core_index(table):
    """The CoreIndex of an open 5x5-midge-cores table, read once per file."""
    key = (table.path, table.size)
    found = _INDEXES.get(key)
    if found is None:
        found = _INDEXES[key] = CoreIndex(table)
    return found

