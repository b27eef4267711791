"""A two-phase 3x3x3 search (Kociemba's algorithm) over several cubes at once.

Layers: facelets -> cubies (cubebot.solver.cubies) -> coordinates (below, ranked by
cubebot.solver.coords) -> tables (3x3-* in cubebot.solver.catalog) -> search.

Phase 1 takes a cube into the group G1 = <U, D, R2, F2, L2, B2>: every corner
untwisted (twist, N_TWIST = 3**7), every edge unflipped (flip, N_FLIP = 2**11) and the
four E-slice edges in the E slice (slice, N_SLICE = C(12, 4)). Phase 2 solves it with
G1's ten moves: the corner permutation (cperm, 8!), the U/D edges' permutation
(udedge, 8!) and the slice edges' permutation (sliceperm, 4!).

Tables (docs/solver4.md, stage 6):
  3x3-moves                 move tables, words: twist, flip and slice under the 18
                            moves; cperm, udedge and sliceperm under the ten phase-2
                            moves, one after the other (MOVE_LAYOUT)
  3x3-twist-slice           distances (4 bits) of twist x slice to G1
  3x3-flip-slice            the same for flip x slice
  3x3-twist-flip            the same for twist x flip
  3x3-cperm-sliceperm       distances within G1 of cperm x sliceperm to solved
  3x3-udedge-sliceperm      the same for udedge x sliceperm
Phase 1's bound is the max of its three tables, phase 2's the max of its two.

The search (`search`) runs over a list of starts (cubes, each with an offset: moves
already spent before it): for each phase-1 depth d = 0, 1, ..., every start in turn
gets a depth-d phase-1 search (IDA*); each phase-1 solution whose last move leaves
G1's moves is continued by a phase-2 IDA* bounded so that the total beats the best
found so far. Each improvement is kept. Nodes are counted; once a solution exists
and `budget` nodes are spent the search stops (the same answer on any machine), and
it stops at `max_nodes` with or without one. The compiled module
(cubebot.solver._finish3, solver/_finish3.c) runs the same search node for node;
`search` chooses it where it is built (not with CUBEBOT_PURE_PYTHON=1).
"""

from array import array
from itertools import permutations

from cubebot.solver import store
from cubebot.solver.coords import binomial, comb_rank, comb_unrank, ori_rank, ori_unrank, perm_rank
from cubebot.solver.cubies import N_CORNERS, N_EDGES, CubieCube, from_facelets
from cubebot.solver.errors import TableError
from cubebot.solver.facelets import FACES, solved
from cubebot.solver.moves import apply, parse_move
from cubebot.solver.search import compiled_module, successors, timed

SIZE = 3
TURNS = 3                                      # quarter, half, anticlockwise quarter per face
N_MOVES = len(FACES) * TURNS                   # 18: move m is face m // 3 turned m % 3 + 1 times
N_SLICE_EDGES = 4                              # FR FL BL BR, edge pieces 8..11
FIRST_SLICE_EDGE = N_EDGES - N_SLICE_EDGES
N_TWIST = 3 ** (N_CORNERS - 1)                 # 2187
N_FLIP = 2 ** (N_EDGES - 1)                    # 2048
N_SLICE = binomial(N_EDGES, N_SLICE_EDGES)     # 495
N_CPERM = 40320                                # 8!
N_UDEDGE = 40320                               # 8! (the U/D edges within G1)
N_SLICEPERM = 24                               # 4!
# the ten moves of G1 (indices into the 18): U U2 U' R2 F2 D D2 D' L2 B2
PHASE2_MOVES = (0, 1, 2, 4, 7, 9, 10, 11, 13, 16)
N_PHASE2 = len(PHASE2_MOVES)
SOLVED_SLICE = N_SLICE - 1                     # the slice edges at positions 8..11

MOVE_TABLE = "3x3-moves"
TWIST_SLICE = "3x3-twist-slice"
FLIP_SLICE = "3x3-flip-slice"
TWIST_FLIP = "3x3-twist-flip"
CPERM_SLICEPERM = "3x3-cperm-sliceperm"
UDEDGE_SLICEPERM = "3x3-udedge-sliceperm"
DISTANCE_TABLES = (TWIST_SLICE, FLIP_SLICE, TWIST_FLIP, CPERM_SLICEPERM, UDEDGE_SLICEPERM)
DISTANCE_COUNTS = (N_TWIST * N_SLICE, N_FLIP * N_SLICE, N_TWIST * N_FLIP, N_CPERM * N_SLICEPERM,
                   N_UDEDGE * N_SLICEPERM)
# (coordinate, size, moves per entry) of each part of 3x3-moves, in file order
MOVE_LAYOUT = (("twist", N_TWIST, N_MOVES), ("flip", N_FLIP, N_MOVES), ("slice", N_SLICE, N_MOVES),
               ("cperm", N_CPERM, N_PHASE2), ("udedge", N_UDEDGE, N_PHASE2),
               ("sliceperm", N_SLICEPERM, N_PHASE2))
DIST_BITS = 4
MAX_PHASE1 = 20               # phase-1 depths tried (any cube reaches G1 in 12)
MAX_PHASE2 = 12               # longest phase 2 tried after a phase-1 solution
G1_REENTRY = 5                # a phase-1 path in G1 with fewer moves left than this ends there
NO_LIMIT = -1
START_WIDTH = 4 + N_CORNERS + N_EDGES          # offset, twist, flip, slice, cp[8], ep[12]
_MODULE = []                  # the outcome of importing the compiled module, once
_ROWS = []                    # [the words of 3x3-moves], made by the first table build


# ---------------------------------------------------------------- cubies and coordinates

def move_name(m):
    return FACES[m // TURNS] + ("", "2", "'")[m % TURNS]


def cubie_moves():
    """The 18 moves as cubie permutations (cp, co, ep, eo), read off the facelet model."""
    return [from_facelets(apply(solved(SIZE), [parse_move(move_name(m))], SIZE), SIZE)
            for m in range(N_MOVES)]


def multiply(cube, move):
    """The cubie state (cp, co, ep, eo) after `move` (a cubie_moves entry)."""
    cp, co, ep, eo = cube
    mcp, mco, mep, meo = move
    return CubieCube(tuple(cp[j] for j in mcp),
                     tuple((co[j] + mco[i]) % 3 for i, j in enumerate(mcp)),
                     tuple(ep[j] for j in mep),
                     tuple((eo[j] + meo[i]) % 2 for i, j in enumerate(mep)))


def slice_coord(ep):
    return comb_rank([e >= FIRST_SLICE_EDGE for e in ep], N_EDGES)


def phase1_coords(cube):
    """(twist, flip, slice) of a cubie state."""
    return ori_rank(cube[1], 3), ori_rank(cube[3], 2), slice_coord(cube[2])


def phase2_coords(cp, ep):
    """(cperm, udedge, sliceperm) of a permutation in G1's edge classes; TableError if the
    U/D edges are not in the U/D layers (a phase-1 solution read through bad tables)."""
    if any(e >= FIRST_SLICE_EDGE for e in ep[:FIRST_SLICE_EDGE]):
        raise TableError("a phase-1 solution of the 3x3x3 search left a slice edge out of "
                         "the E slice: run `cubebot tables build`")
    return (perm_rank(cp), perm_rank(ep[:FIRST_SLICE_EDGE]),
            perm_rank([e - FIRST_SLICE_EDGE for e in ep[FIRST_SLICE_EDGE:]]))


def start_of(cube, offset=0):
    """A search start: (offset, twist, flip, slice, cp..., ep...)."""
    return (offset,) + phase1_coords(cube) + tuple(cube[0]) + tuple(cube[2])


# ---------------------------------------------------------------- tables

def _move_rows(progress):
    """The values of 3x3-moves, part by part (MOVE_LAYOUT), as 16-bit words (1.78 MB, made
    once a process: every table build reads them)."""
    if _ROWS:
        return _ROWS[0]
    moves = cubie_moves()
    rows = array("H")
    for t in range(N_TWIST):
        co = ori_unrank(t, N_CORNERS, 3)
        rows.extend(ori_rank([(co[j] + mv.co[i]) % 3 for i, j in enumerate(mv.cp)], 3) for mv in moves)
    for f in range(N_FLIP):
        eo = ori_unrank(f, N_EDGES, 2)
        rows.extend(ori_rank([(eo[j] + mv.eo[i]) % 2 for i, j in enumerate(mv.ep)], 2) for mv in moves)
    for s in range(N_SLICE):
        occupied = comb_unrank(s, N_EDGES, N_SLICE_EDGES)
        rows.extend(comb_rank([occupied[j] for j in mv.ep], N_EDGES) for mv in moves)
    if progress:
        progress("phase 1 move tables")
    g1 = [moves[m] for m in PHASE2_MOVES]
    for pieces, of_move in ((N_CORNERS, lambda mv: mv.cp),
                            (FIRST_SLICE_EDGE, lambda mv: mv.ep[:FIRST_SLICE_EDGE]),
                            (N_SLICE_EDGES, lambda mv: [e - FIRST_SLICE_EDGE
                                                        for e in mv.ep[FIRST_SLICE_EDGE:]])):
        perms = list(permutations(range(pieces)))          # lexicographic: index = perm_rank
        rank = dict((p, i) for i, p in enumerate(perms))
        maps = [tuple(of_move(mv)) for mv in g1]
        for p in perms:
            get = p.__getitem__
            rows.extend(rank[tuple(map(get, mp))] for mp in maps)
    if progress:
        progress("phase 2 move tables")
    _ROWS.append(rows)
    return rows


def build_moves(path, progress=None):
    """3x3-moves: the move tables of both phases (MOVE_LAYOUT, 891,780 words)."""
    from cubebot.solver.tables import write_words
    write_words(path, _move_rows(progress))


def _parts(rows):
    parts, at = {}, 0
    for name, size, n in MOVE_LAYOUT:
        parts[name] = rows[at:at + size * n]
        at += size * n
    return parts


def _build_distances(path, progress, first, second, moves, goal):
    from cubebot.solver.search import CoordModel, DistanceTable, Rows, coord_bfs
    from cubebot.solver.tables import PLAIN, UNREACHED, write_dense
    parts = _parts(_move_rows(None))
    n_states = first[1] * second[1]
    # the model's bound is not read by the BFS: an all-zero 4-bit table stands in for it
    zeros = DistanceTable(bytes((n_states + 1) // 2), 0, DIST_BITS,
                          ((0, second[1], None), (1, 1, None)))
    model = CoordModel([parse_move(move_name(m)) for m in moves],
                       [Rows.of(parts[first[0]], first[1]), Rows.of(parts[second[0]], second[1])],
                       [zeros])

    def report(depth, count):
        if progress:
            progress("depth {}: {} states".format(depth, count))
    dist = coord_bfs(model, [goal], progress=report)
    if dist.find(UNREACHED) != -1:
        raise TableError("a 3x3x3 distance table left states unreached: the move model is broken")
    write_dense(path, dist, bits=DIST_BITS, encoding=PLAIN)


def build_twist_slice(path, progress=None):
    """3x3-twist-slice: phase 1, twist x slice (2187 x 495 entries)."""
    _build_distances(path, progress, ("twist", N_TWIST), ("slice", N_SLICE), range(N_MOVES),
                     SOLVED_SLICE)


def build_flip_slice(path, progress=None):
    """3x3-flip-slice: phase 1, flip x slice (2048 x 495 entries)."""
    _build_distances(path, progress, ("flip", N_FLIP), ("slice", N_SLICE), range(N_MOVES),
                     SOLVED_SLICE)


def build_twist_flip(path, progress=None):
    """3x3-twist-flip: phase 1, twist x flip (2187 x 2048 entries)."""
    _build_distances(path, progress, ("twist", N_TWIST), ("flip", N_FLIP), range(N_MOVES), 0)


def build_cperm_sliceperm(path, progress=None):
    """3x3-cperm-sliceperm: phase 2, cperm x sliceperm (8! x 4! entries)."""
    _build_distances(path, progress, ("cperm", N_CPERM), ("sliceperm", N_SLICEPERM),
                     PHASE2_MOVES, 0)


def build_udedge_sliceperm(path, progress=None):
    """3x3-udedge-sliceperm: phase 2, udedge x sliceperm (8! x 4! entries)."""
    _build_distances(path, progress, ("udedge", N_UDEDGE), ("sliceperm", N_SLICEPERM),
                     PHASE2_MOVES, 0)


class Tables(object):
    """The five 3x3-* tables, mapped (never read whole), checked for size."""

    def __init__(self, directory=None):
        self.opened = []
        try:
            self.moves = self._keep(store.open_words(MOVE_TABLE, directory))
            want = sum(size * n for _, size, n in MOVE_LAYOUT)
            if len(self.moves) != want:
                raise TableError("table {} has {} words, expected {}: run `cubebot tables "
                                 "build`".format(MOVE_TABLE, len(self.moves), want))
            self.dist = []
            for name, count in zip(DISTANCE_TABLES, DISTANCE_COUNTS):
                table = self._keep(store.open_dense(name, directory))
                if len(table) != count or table.bits != DIST_BITS:
                    raise TableError("table {} has {} {}-bit entries, expected {} of {}: run "
                                     "`cubebot tables build`".format(name, len(table), table.bits,
                                                                     count, DIST_BITS))
                self.dist.append(table)
        except BaseException:
            self.close()
            raise

    def _keep(self, table):
        self.opened.append(table)
        return table

    def spec(self):
        """What the compiled search reads: (move buffer, offset, ((buffer, offset), ...) of
        DISTANCE_TABLES)."""
        from cubebot.solver.tables import HEADER
        return (self.moves.mm, HEADER.size, tuple(t.nibbles() for t in self.dist))

    def close(self):
        for table in self.opened:
            table.close()
        self.opened = []


# ---------------------------------------------------------------- the search

def compiled():
    """The compiled search module, or None (not built, or CUBEBOT_PURE_PYTHON=1)."""
    return compiled_module("_finish3", _MODULE)


def path_name():
    """Which path `search` takes here: "compiled" or "python"."""
    return "compiled" if compiled() is not None else "python"


def check_start(start):
    """ValueError unless `start` is a well-formed search start."""
    if len(start) != START_WIDTH:
        raise ValueError("a 3x3x3 search start has {} values, expected {}".format(len(start),
                                                                                 START_WIDTH))
    offset, tw, fl, sl = start[:4]
    cp, ep = start[4:4 + N_CORNERS], start[4 + N_CORNERS:]
    if not (0 <= offset and 0 <= tw < N_TWIST and 0 <= fl < N_FLIP and 0 <= sl < N_SLICE
            and sorted(cp) == list(range(N_CORNERS)) and sorted(ep) == list(range(N_EDGES))):
        raise ValueError("a 3x3x3 search start is out of range: {}".format(tuple(start)))


def search(tables, starts, budget, max_nodes=NO_LIMIT, max_phase1=MAX_PHASE1,
           max_phase2=MAX_PHASE2, python=False, max_length=NO_LIMIT):
    """([(start index, [move indices])], nodes): each solution found shorter (with its
    start's offset) than every one before it, the best last. With max_length (a total,
    offset included): every solution found within it instead, in the order found, the
    bound never lowered (many solutions to choose from; each phase-1 path gives at most
    one, so they are all distinct). python=True: the reference path even where the module
    is built."""
    starts = [tuple(s) for s in starts]
    for start in starts:
        check_start(start)
    lib = None if python else compiled()
    if lib is not None:
        cubies = tuple((tuple(mv.cp), tuple(mv.ep)) for mv in cubie_moves())
        found, nodes = timed(lib.search)(tables.spec(), cubies, tuple(starts), budget, max_nodes,
                                         max_phase1, max_phase2, max_length)
        return [(s, list(path)) for s, path in found], nodes
    return _Search(tables, starts, budget, max_nodes, max_phase2, max_length).run(max_phase1)


class _Stop(Exception):
    pass


class _Search(object):
    """The reference search (the compiled one follows it node for node)."""

    def __init__(self, tables, starts, budget, max_nodes, max_phase2, max_length=NO_LIMIT):
        self.words = tables.moves.words()
        self.dist = [t.nibbles() for t in tables.dist]
        self.starts, self.budget, self.max_nodes = starts, budget, max_nodes
        self.max_phase2 = max_phase2
        self.cubies = [(mv.cp, mv.ep) for mv in cubie_moves()]
        at, self.base = 0, {}
        for name, size, n in MOVE_LAYOUT:
            self.base[name] = at
            at += size * n
        self.found, self.nodes, self.best = [], 0, None
        self.fixed = max_length >= 0             # every solution within max_length is kept
        if self.fixed:
            self.best = max_length + 1
        self.after = successors([parse_move(move_name(m)) for m in range(N_MOVES)])

    def run(self, max_phase1):
        try:
            for depth in range(max_phase1 + 1):
                live = False
                for s, start in enumerate(self.starts):
                    if self.best is not None and start[0] + depth >= self.best:
                        continue
                    live = True
                    tw, fl, sl = start[1:4]
                    if self._h1(tw, fl, sl) > depth:
                        continue
                    self.path = []
                    self._phase1(s, tw, fl, sl, depth, N_MOVES)
                if not live:
                    break
        except _Stop:
            pass
        return self.found, self.nodes

    def _count(self):
        self.nodes += 1
        if self.nodes > self.max_nodes >= 0 or (self.found and self.nodes > self.budget >= 0):
            raise _Stop()

    def _next(self, name, size, n, coord, k):
        value = self.words[self.base[name] + coord * n + k]
        if value >= size:
            raise TableError("table {}: {} {} after move {} is {}, out of range: run `cubebot "
                             "tables build`".format(MOVE_TABLE, name, coord, k, value))
        return value

    def _read(self, k, rank):
        buffer, at = self.dist[k]
        return (buffer[at + (rank >> 1)] >> ((rank & 1) << 2)) & 15

    def _h1(self, tw, fl, sl):
        return max(self._read(0, tw * N_SLICE + sl), self._read(1, fl * N_SLICE + sl),
                   self._read(2, tw * N_FLIP + fl))

    def _h2(self, cp, ud, sp):
        return max(self._read(3, cp * N_SLICEPERM + sp), self._read(4, ud * N_SLICEPERM + sp))

    def _phase1(self, s, tw, fl, sl, left, last):
        self._count()
        if left == 0:
            if tw == 0 and fl == 0 and sl == SOLVED_SLICE and (
                    not self.path or self.path[-1] not in PHASE2_MOVES):
                self._phase2(s)
            return
        if tw == 0 and fl == 0 and sl == SOLVED_SLICE and left < G1_REENTRY:
            return                       # in G1 already: a path out and back in is not tried
        for m in self.after[last if last < N_MOVES else -1]:
            if left == 1 and m in PHASE2_MOVES:
                continue                 # a phase-1 solution ends on a move G1 does not have
            # twist and slice first: their table prunes most moves before flip is read
            tw2 = self._next("twist", N_TWIST, N_MOVES, tw, m)
            sl2 = self._next("slice", N_SLICE, N_MOVES, sl, m)
            if self._read(0, tw2 * N_SLICE + sl2) >= left:
                continue
            fl2 = self._next("flip", N_FLIP, N_MOVES, fl, m)
            if self._read(1, fl2 * N_SLICE + sl2) >= left or self._read(2, tw2 * N_FLIP + fl2) >= left:
                continue
            self.path.append(m)
            self._phase1(s, tw2, fl2, sl2, left - 1, m)
            self.path.pop()

    def _phase2(self, s):
        start = self.starts[s]
        d1 = len(self.path)
        cap = self.max_phase2
        if self.best is not None:
            cap = min(cap, self.best - 1 - start[0] - d1)
        if cap < 0:
            return
        cp, ep = start[4:4 + N_CORNERS], start[4 + N_CORNERS:]
        for m in self.path:
            mcp, mep = self.cubies[m]
            cp, ep = [cp[j] for j in mcp], [ep[j] for j in mep]
        c, u, p = phase2_coords(cp, ep)
        last = self.path[-1] if self.path else N_MOVES
        for depth in range(self._h2(c, u, p), cap + 1):
            tail = []
            if self._dfs2(c, u, p, depth, last, tail):
                self.found.append((s, self.path + tail))
                if not self.fixed:
                    self.best = start[0] + d1 + depth
                return

    def _dfs2(self, c, u, p, left, last, tail):
        self._count()
        if left == 0:
            return c == 0 and u == 0 and p == 0
        allowed = self.after[last if last < N_MOVES else -1]
        for k, m in enumerate(PHASE2_MOVES):
            if m not in allowed:
                continue
            c2 = self._next("cperm", N_CPERM, N_PHASE2, c, k)
            u2 = self._next("udedge", N_UDEDGE, N_PHASE2, u, k)
            p2 = self._next("sliceperm", N_SLICEPERM, N_PHASE2, p, k)
            if self._h2(c2, u2, p2) >= left:
                continue
            tail.append(m)
            if self._dfs2(c2, u2, p2, left - 1, m, tail):
                return True
            tail.pop()
        return False
