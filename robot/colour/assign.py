"""Joint assignment of colours to corners and edges under the cube's constraints.

Input: `cost[i][k]`, the cost (a negative log-likelihood) of facelet i having
colour class k. A *labelling* maps the face letters URFDLB to classes: on odd
cubes it is read off the middle centres, on even cubes off the DBL corner
(which then sits solved: any valid cube can be turned so). Under a labelling
each corner and edge position holds one real piece in one orientation: the
search picks, per position, a (piece, orientation) candidate so that no piece
is used twice, the corner twist sums to 0 (mod 3), the edge flip to 0 (mod 2)
and, on the 3x3x3, corner and edge permutation parities agree.

`PieceSearch` is a best-first (A*) search with lazy successors: a node is a
partial choice (positions in a fixed order) and its bound is its cost plus the
cheapest candidate of every later position, so valid cubes come out cheapest
first. It stops once the cheapest cube is known and nothing else is within
`margin` of it (or a second cube is), or after `max_nodes` expansions.
"""

import heapq
import itertools
import operator

from cubebot.solver.cubies import CORNER_NAMES, EDGE_NAMES, parity
from cubebot.solver.facelets import FACES

DBL = CORNER_NAMES.index("DBL")
_CORNER_BITS = 0
_EDGE_BITS = len(CORNER_NAMES)


def labellings(cost, n, fixed, corners):
    """Candidate labellings, cheapest first: (base cost, classes of URFDLB, fixed
    facelets, rotation class id: see rotation_classes).

    Odd N: every assignment of the six classes to the middle centres, costed
    on those centres. Even N: every choice of three classes for the DBL corner
    (costed on it) with every assignment of the other three to U, R, F.
    """
    classes = rotation_classes()
    if fixed:
        # the six centres' rows, summed in the order of `fixed` (URFDLB)
        cu, cr, cf, cd, cl, cb = [cost[i] for i in fixed]
        out = [(cu[p[0]] + cr[p[1]] + cf[p[2]] + cd[p[3]] + cl[p[4]] + cb[p[5]], p, (), classes[p])
               for p in itertools.permutations(range(6))]
    else:
        out = []
        spot = corners[DBL]
        for triple in itertools.permutations(range(6), 3):
            base = sum(cost[i][k] for i, k in zip(spot, triple))
            rest = [k for k in range(6) if k not in triple]
            d, b, l = triple
            for u, r, f in itertools.permutations(rest):
                perm = (u, r, f, d, l, b)     # URFDLB
                out.append((base, perm, spot, classes[perm]))
    out.sort(key=operator.itemgetter(0))
    return out


def position_costs(cost, positions):
    """Per position, the cost of every tuple of classes on its facelets: a flat
    list indexed by sum(class_k * 6 ** (width - 1 - k)). Computed once per cost
    matrix, so that each labelling's candidates are look-ups."""
    out = []
    for spot in positions:
        table = [0.0]
        for i in spot:
            row = cost[i]
            table = [t + c for t in table for c in row]
        out.append(table)
    return out


def _keys(names, label, turns):
    """(index into a position_costs table, piece, orientation) of every candidate."""
    keys = []
    for q, name in enumerate(names):
        piece = [label[c] for c in name]
        for o, turn in enumerate(turns):
            index = 0
            for t in turn:
                index = index * 6 + piece[t]
            keys.append((index, q, o))
    return keys


def _candidates(table, keys):
    """One position's (cost, piece, orientation) candidates, cheapest first.

    table: its position_costs table; keys: _keys of this labelling.
    """
    cands = [(table[index], q, o) for index, q, o in keys]
    cands.sort()
    return cands


def _corner_turn(k, o, size):
    return (k - o) % size


def _edge_turn(k, o, size):
    return (k + o) % size


_CORNER_TURNS = [[_corner_turn(k, o, 3) for k in range(3)] for o in range(3)]
_EDGE_TURNS = [[_edge_turn(k, o, 2) for k in range(2)] for o in range(2)]


class Level(object):
    """One position of the search: its candidates and what constrains them.

    The candidates (`cands`) are sorted when the search first reaches the
    level (PieceSearch._push); until then only the cheapest (`low`) is known,
    which is all the bound needs: a labelling whose bound is out of reach
    costs no sort.
    """

    __slots__ = ("cands", "table", "keys", "low", "bit0", "last_corner", "last_edge", "corner")

    def __init__(self, table, keys, bit0, corner, low):
        self.cands = None
        self.table, self.keys = table, keys
        self.low = low
        self.bit0, self.corner = bit0, corner
        self.last_corner = self.last_edge = False


# Made on first use, then kept (see rotation_classes).
_ROTATION_CLASSES = {}
_CLASS_GETTERS = []
_CLASS_KEYS = []


def rotation_classes():
    """{classes of URFDLB: id}, one id (0..29) shared by exactly the labellings that
    differ by a whole-cube turn.

    Such labellings give every corner and edge position the same candidate
    class tuples (only the pieces' names differ), so the same cheapest
    candidate (`position_lows`). Two labellings are in one class when they
    make the same corner class triples, each written from its smallest class.
    """
    if not _ROTATION_CLASSES:
        ids = {}
        for perm in itertools.permutations(range(6)):
            label = dict(zip(FACES, perm))
            triples = []
            for name in CORNER_NAMES:
                triple = [label[c] for c in name]
                k = triple.index(min(triple))
                triples.append(tuple(triple[k:] + triple[:k]))
            key = tuple(sorted(triples))
            if key not in ids:
                ids[key] = len(ids)
                keys = tuple(tuple(index for index, _, _ in _keys(names, label, turns))
                             for names, turns in ((CORNER_NAMES, _CORNER_TURNS),
                                                  (EDGE_NAMES, _EDGE_TURNS)))
                _CLASS_KEYS.append(keys)
                _CLASS_GETTERS.append(tuple(operator.itemgetter(*k) for k in keys))
            _ROTATION_CLASSES[perm] = ids[key]
    return _ROTATION_CLASSES


def class_keys():
    """Per rotation class id: (corner table indices, edge table indices), the candidates'
    indices into position_costs tables under the labellings of that class."""
    rotation_classes()
    return _CLASS_KEYS


def position_lows(tables, group):
    """(corner lows, edge lows): each position's cheapest candidate under every
    labelling of rotation class `group`."""
    rotation_classes()
    corner_getter, edge_getter = _CLASS_GETTERS[group]
    corners, edges = tables
    return ([min(corner_getter(table)) for table in corners],
            [min(edge_getter(table)) for table in edges])


def build_levels(tables, label, fix_dbl, lows):
    """The search levels for one labelling: corners, then edges.

    tables: (corner tables, edge tables), position_costs of the corner and
    edge positions (no edge positions on even cubes); lows: its position_lows.
    """
    corners, edges = tables
    corner_lows, edge_lows = lows
    ckeys = _keys(CORNER_NAMES, label, _CORNER_TURNS)
    levels = [Level(table, ckeys, _CORNER_BITS, True, low)
              for table, low in zip(corners, corner_lows)]
    if fix_dbl:
        own = [k for k in ckeys if k[1] == DBL and k[2] == 0]
        levels[DBL] = Level(corners[DBL], own, _CORNER_BITS, True, corners[DBL][own[0][0]])
    levels[-1].last_corner = True
    if edges:
        ekeys = _keys(EDGE_NAMES, label, _EDGE_TURNS)
        levels.extend(Level(table, ekeys, _EDGE_BITS, False, low)
                      for table, low in zip(edges, edge_lows))
        levels[-1].last_edge = True
    return levels


class PieceSearch(object):
    """Best-first search over labellings and piece placements (see module doc).

    One heap holds every labelling and every partial placement, so the
    cheapest valid cubes come out first whatever labelling they use, and a
    labelling that fits no valid cube (a mirrored one) costs no effort.
    """

    def __init__(self, margin, max_nodes, check_parity):
        self.margin = margin
        self.max_nodes = max_nodes
        self.check_parity = check_parity
        self.nodes = 0
        self.found = []          # (cost, label, placements), cheapest first
        self.exhausted = False   # True when max_nodes ran out

    def limit(self):
        """Solutions dearer than this are of no interest."""
        if len(self.found) >= 2:
            return min(self.found[1][0], self.found[0][0] + self.margin)
        if self.found:
            return self.found[0][0] + self.margin
        return float("inf")

    def run(self, entries, make_levels):
        """Search every labelling; keep the two cheapest valid cubes in self.found.

        entries: (lower bound, base cost, classes of URFDLB, rotation class
        id) per labelling, the bound at most the cost of any of its cubes;
        make_levels(classes, rotation class id) gives its label ({letter:
        class}) and search levels (build_levels) when the labelling comes up.
        """
        heap = []
        counter = itertools.count()
        for bound, base, classes, group in entries:
            heap.append((bound, next(counter), base, None, -1, 0, (classes, group)))
        heapq.heapify(heap)
        while heap:
            f, _, g, state, d, j, ctx = heapq.heappop(heap)
            if f > self.limit():
                return
            if d < 0:
                label, levels = make_levels(*ctx)
                self._push(heap, counter, (label, levels, _tails(levels)), g, _ROOT, 0, 0)
                continue
            self.nodes += 1
            if self.nodes > self.max_nodes:
                self.exhausted = True
                return
            label, levels, tail = ctx
            self._push(heap, counter, ctx, g, state, d, j + 1)
            level = levels[d]
            c, q, o = level.cands[j]   # sorted by _push, which queued it
            placements, used, twist, flip = state
            child = ((d, q, o, placements), used | (1 << (level.bit0 + q)),
                     twist + o if level.corner else twist,
                     flip if level.corner else flip + o)
            if d + 1 == len(levels):
                self._solution(g + c, label, child[0])
            else:
                self._push(heap, counter, ctx, g + c, child, d + 1, 0)

    def _push(self, heap, counter, ctx, g, state, d, j):
        """Push the first valid candidate >= j at level d, if any."""
        _, levels, tail = ctx
        level = levels[d]
        cands = level.cands
        if cands is None:
            cands = level.cands = _candidates(level.table, level.keys)
        _, used, twist, flip = state
        while j < len(cands):
            c, q, o = cands[j]
            if not used >> (level.bit0 + q) & 1:
                if level.last_corner and (twist + o) % 3:
                    pass
                elif level.last_edge and (flip + o) % 2:
                    pass
                else:
                    f = g + c + tail[d + 1]
                    if f <= self.limit():
                        heapq.heappush(heap, (f, next(counter), g, state, d, j, ctx))
                    return
            j += 1

    def _solution(self, cost, label, placements):
        chosen = []
        while placements is not None:
            d, q, o, placements = placements
            chosen.append((d, q, o))
        chosen.reverse()
        if self.check_parity:
            cp = [q for d, q, o in chosen[:len(CORNER_NAMES)]]
            ep = [q for d, q, o in chosen[len(CORNER_NAMES):]]
            if parity(cp) != parity(ep):
                return
        self.found.append((cost, label, chosen))
        self.found.sort(key=lambda item: item[0])
        del self.found[2:]


# A search node before any placement: (placements, used bits, twist, flip).
_ROOT = (None, 0, 0, 0)


def _tails(levels):
    """tail[d]: the cheapest candidates of levels d.. summed (every level has some: a
    labelling names every real piece, position_lows)."""
    tail = [0.0] * (len(levels) + 1)
    for d in range(len(levels) - 1, -1, -1):
        tail[d] = tail[d + 1] + levels[d].low
    return tail


def fill(letters, placements, corners, edges):
    """Write the letters of chosen corners and edges into `letters` (a list)."""
    for d, q, o in placements:
        if d < len(corners):
            spot, name, k_of = corners[d], CORNER_NAMES[q], _corner_turn
        else:
            spot, name, k_of = edges[d - len(corners)], EDGE_NAMES[q], _edge_turn
        for k, i in enumerate(spot):
            letters[i] = name[k_of(k, o, len(name))]
