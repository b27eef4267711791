"""The T-pair stage's moves and its table: where one colour's four T-centres are.

Steps. The T-pair stage (tpairs.py) turns only what keeps the 4x4x4 part
reduced: outer turns (1 written turn), middle slices (2: 3Rw Rw') and
conjugated slices W S W' (W a wide turn, S a middle slice across it: 4),
which leave the 4x4x4 part exactly as it was (S never touches it, W' undoes
W there) but move T-centres across T-pairs. `steps()` lists them (135) with
their written turns and their permutation of the 24 T-centre slots.

Coordinate. A colour's four T-centres occupy a set of 4 of the 24 T slots:
N_TSET = C(24, 4) = 10,626 sets, ranked colex (rank = C(a, 1) + C(b, 2) +
C(c, 3) + C(d, 4) for slots a < b < c < d). Goal: the set is two whole
T-pairs, C(12, 2) = 66 sets. The table 5x5-tpair-sets holds each set's
exact cost to a goal set in written turns under the steps (the shared BFS
builder with move costs), 4 bits an entry: 0-8 (the largest is 8).

A cube's six colours each need at least their own cost, so the largest of
the six is a lower bound; their sum, which counts a step once per colour it
helps, is the estimate the stage's beam ranks cubes by (`TSetTable.total`).

Move table. Every step moves each colour's set on its own, so the beam
follows a cube as six ranks and turns it by table: 5x5-tpair-moves holds,
for each set and step, the set after it (a word table, N_TSET x N_STEPS =
1,434,510 entries, rank r's row at r x N_STEPS; read through mmap, row by row:
`SetMoves`). Without the file (tests) the rows are computed as they are met.
"""

from itertools import combinations

from cubebot.solver.coords import binomial
from cubebot.solver.facelets import FACES, OPPOSITE
from cubebot.solver.moves import Move
from .model import T_CENTRES, slot_perm
from .slices import MIDDLE, OUTER, SLICE_FACES, SLICES, TURNS, cost
from .tcentres import PAIRS

TABLE = "5x5-tpair-sets"
MOVE_TABLE = "5x5-tpair-moves"
WIDE = 2                       # layers of the wide turn W of a conjugated slice
N_TSLOTS = len(T_CENTRES)      # 24 T-centre slots
PER_COLOUR = 4                 # T-centres of each colour
N_TSET = binomial(N_TSLOTS, PER_COLOUR)     # 10,626 sets of 4 slots
N_GOALS = binomial(len(PAIRS), 2)           # 66 sets that are two whole T-pairs
SLICES_ACROSS = 2              # middle slices across a face's wide turn (not its own axis)
N_STEPS = len(OUTER) + len(SLICES) + len(FACES) * len(TURNS) * SLICES_ACROSS * len(TURNS)
                               # 18 + 9 + 6 x 3 x 2 x 3 = 135 (outer, slices, W S W')


def _compose(moves):
    """new[k] = old[p[k]] over the T-centre slots after `moves`."""
    p = list(range(N_TSLOTS))
    for m in moves:
        q = slot_perm(m, T_CENTRES)
        p = [p[q[k]] for k in range(len(p))]
    return tuple(p)


def _steps():
    """(moves, written turns, T-centre permutation) of every step of the search:
    outer turns, middle slices, and W S W' for W a wide turn, S a slice across it."""
    steps = [[m] for m in OUTER + SLICES]
    for f in FACES:
        for t in TURNS:
            for s in SLICE_FACES:
                if s not in (f, OPPOSITE[f]):
                    steps += [[Move(f, 1, WIDE, t), Move(s, MIDDLE, MIDDLE, u), Move(f, 1, WIDE, 4 - t)]
                              for u in TURNS]
    return [(moves, sum(cost(m) for m in moves), _compose(moves)) for moves in steps]


_STEPS = []                    # _steps(), made once per process when first needed


def steps():
    """The search steps (see _steps), built on first use and kept."""
    if not _STEPS:
        _STEPS.extend(_steps())
    return _STEPS


def rank(slots):
    """The colex rank of a set of 4 T slots (any order)."""
    return sum(binomial(s, k + 1) for k, s in enumerate(sorted(slots)))


def unrank(r):
    """The 4 T slots (ascending) of rank r."""
    slots = []
    for k in range(PER_COLOUR, 0, -1):
        s = k - 1
        while binomial(s + 1, k) <= r:
            s += 1
        r -= binomial(s, k)
        slots.append(s)
    return sorted(slots)


def goals():
    """The ranks of the sets that are two whole T-pairs."""
    return sorted(rank(a + b) for a, b in combinations(PAIRS, 2))


def inverses():
    """For each step, where it takes each slot: inv[old] = new (new[k] = old[p[k]])."""
    result = []
    for _, _, p in steps():
        inv = [0] * N_TSLOTS
        for new, old in enumerate(p):
            inv[old] = new
        result.append(inv)
    return result


def ranks(colours):
    """The six colours' set ranks (FACES order) of the 24 T-centre colours in slot order."""
    return tuple(rank([k for k, c in enumerate(colours) if c == f]) for f in FACES)


def split_units():
    """unit[r]: 2 - the whole T-pairs in set r; a cube's six units add up to its
    split pairs (each colour owns two pairs' worth of slots)."""
    pair_of = {}
    for p, (a, b) in enumerate(PAIRS):
        pair_of[a] = pair_of[b] = p
    unit = [0] * N_TSET
    for combo in combinations(range(N_TSLOTS), PER_COLOUR):
        held = [pair_of[s] for s in combo]
        unit[rank(combo)] = 2 - (len(held) - len(set(held)))
    return unit


def neighbours(r, where):
    """The rank after each step, in steps() order (where = inverses())."""
    slots = unrank(r)
    return [rank([w[s] for s in slots]) for w in where]


def build(path, progress=None):
    """5x5-tpair-sets: each set's cost to two whole T-pairs (N_TSET = C(24, 4) entries)."""
    from cubebot.solver.tables import PLAIN, bfs, write_dense
    where = inverses()

    def report(depth, count):
        if progress:
            progress("cost {}: {} sets".format(depth, count))

    dist = bfs(goals(), lambda r: neighbours(r, where), n_states=N_TSET, progress=report,
               costs=[turns for _, turns, _ in steps()])
    write_dense(path, dist, bits=4, encoding=PLAIN)


def build_moves(path, progress=None):
    """5x5-tpair-moves: the set after each step, N_TSET x N_STEPS words (row r at r x N_STEPS)."""
    from cubebot.solver.tables import write_words
    where = inverses()
    if len(where) != N_STEPS:
        raise ValueError("{} steps, N_STEPS says {}".format(len(where), N_STEPS))
    values = []
    for r in range(N_TSET):
        values += neighbours(r, where)
        if progress and r % 2000 == 0:
            progress("{} of {} sets".format(r, N_TSET))
    write_words(path, values)


class SetMoves(object):
    """row(r)[k]: the rank of set r after step k, for the N_STEPS steps.

    table: the word table 5x5-tpair-moves (store.open_words(MOVE_TABLE)), kept open
    and read through its word view; None computes each row from the steps when
    first asked for and keeps it."""

    def __init__(self, table=None):
        self.table = table
        self.words = table.words() if table is not None else None
        self.rows = {}
        self.where = None
        # one int object per rank, shared by every row: the beams hold up to ~10^5
        # six-rank states, and ints read fresh from the table would take 28 bytes each
        self.canon = list(range(N_TSET)).__getitem__

    def row(self, r):
        words = self.words
        if isinstance(words, memoryview):
            return list(map(self.canon, words[r * N_STEPS:(r + 1) * N_STEPS]))
        if words is not None:
            return [self.canon(words[r * N_STEPS + k]) for k in range(N_STEPS)]
        found = self.rows.get(r)
        if found is None:
            if self.where is None:
                self.where = inverses()
            found = self.rows[r] = [self.canon(x) for x in neighbours(r, self.where)]
        return found


BITS = tuple(1 << (N_TSLOTS - 1 - k) for k in range(N_TSLOTS))   # slot k's bit in a key


class TSetTable(object):
    """The table read whole (5 KB) into {key: cost}; a key is the 24-bit mask of a
    colour's slots, slot k at bit 23 - k, so that int(colours.translate(...), 2)
    makes it from the 24 T-centre colours at C speed."""

    def __init__(self, dense):
        values = dense.values(range(N_TSET))
        self.by_rank = values          # cost of each set, by rank
        self.cost = {}
        for combo in combinations(range(N_TSLOTS), PER_COLOUR):
            key = 0
            for s in combo:
                key |= BITS[s]
            self.cost[key] = values[rank(combo)]
        self.marks = [str.maketrans(dict((g, "1" if g == f else "0") for g in FACES)) for f in FACES]

    def total(self, colours):
        """The sum of the six colours' costs (0 exactly when every T-pair is one colour),
        for the 24 T-centre colours (letters URFDLB, four of each: reduce.label checks
        that) in slot order."""
        cost = self.cost
        u, r, f, d, left, b = self.marks          # written out: this runs ~10^5 times a solve
        return (cost[int(colours.translate(u), 2)] + cost[int(colours.translate(r), 2)] +
                cost[int(colours.translate(f), 2)] + cost[int(colours.translate(d), 2)] +
                cost[int(colours.translate(left), 2)] + cost[int(colours.translate(b), 2)])
