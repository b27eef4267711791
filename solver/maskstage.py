"""Centre staging over orbit masks: the shared toolkit of the table-staged centres.

A centre orbit is 24 facelets, four on each face (face-major: slots 4f..4f+3 are
on face FACES[f]). Staging asks only which slots hold one of two opposite
colours: a 24-bit **mask** with 8 bits set, ranked among the C(24, 8) = 735,471
such masks (`rank`, colex order). A move sends the content of slot s to slot
dest[s] (`slot_maps`).

A `MaskStage` is a staging search: its moves, its orbits, a distance table
(4-bit, by rank; built by `build_table`) for some of them, and **paired**
orbits (two orbits whose masks must become equal: obliques paired into bars).
Its bound is the largest table distance and the unpaired count divided by
`divisor` (a guess, not a lower bound: the pairing has no table). The search is
the IDA* of the compiled module cubebot.solver._stage where it is built, the
same search in Python otherwise (the same paths in the same order).
"""

from cubebot.solver.facelets import FACES, face_index
from cubebot.solver.moves import permutation
from cubebot.solver.search import compiled_module, ida_star, successors

N_SLOTS = 24                   # facelets of a centre orbit
N_PIECES = 8                   # of them of the two colours staged
N_RANKS = (24 * 23 * 22 * 21 * 20 * 19 * 18 * 17) // (8 * 7 * 6 * 5 * 4 * 3 * 2)
                               # C(N_SLOTS, N_PIECES) = 735,471: the masks
UNREACHED = 255                # distance of a mask a table build did not reach
NO_LIMIT = -1                  # no node limit
ANY_PARITY = -1                # a MaskStage whose paths may end with either parity
_MODULE = []


def compiled():
    """The compiled staging module, or None (not built, or CUBEBOT_PURE_PYTHON=1)."""
    return compiled_module("_stage", _MODULE)


def _binomials():
    table = [[0] * (N_PIECES + 1) for _ in range(N_SLOTS + 1)]
    for n in range(N_SLOTS + 1):
        table[n][0] = 1
        for k in range(1, min(n, N_PIECES) + 1):
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k]
    return table


BINOMIAL = _binomials()


def rank(mask):
    """The colex rank of an 8-of-24 mask: the k-th set bit (k = 1..8) at p adds C(p, k)."""
    r, k, p = 0, 0, 0
    while mask:
        if mask & 1:
            k += 1
            r += BINOMIAL[p][k]
        mask >>= 1
        p += 1
    return r


def unrank(r):
    """The mask of rank r."""
    mask = 0
    for k in range(N_PIECES, 0, -1):
        p = k - 1
        while p + 1 < N_SLOTS and BINOMIAL[p + 1][k] <= r:
            p += 1
        r -= BINOMIAL[p][k]
        mask |= 1 << p
    return mask


def orbit_facelets(i, j, n):
    """The 24 facelet indices of the centre orbit (i, j) of an NxNxN, face-major, each
    face's four as (i, j) and its rotations (j, N-1-i), (N-1-i, N-1-j), (N-1-j, i)."""
    spots = ((i, j), (j, n - 1 - i), (n - 1 - i, n - 1 - j), (n - 1 - j, i))
    return tuple(face_index(f, r, c, n) for f in FACES for r, c in spots)


def face_mask(faces):
    """The mask of every slot on `faces` (a string of face letters)."""
    mask = 0
    for f in faces:
        mask |= 0xF << (4 * FACES.index(f))
    return mask


def slot_map(move, facelets, n):
    """dest[s]: the slot the content of slot s goes to under `move`."""
    perm = permutation(move, n)
    where = dict((x, s) for s, x in enumerate(facelets))
    dest = [None] * N_SLOTS
    for t, x in enumerate(facelets):
        source = where.get(perm[x])
        if source is None:
            raise ValueError("move {} takes a facelet out of its orbit".format(move))
        dest[source] = t
    return dest


def slot_maps(moves, orbits, n):
    """bytes: dest of move m and orbit o at (m * len(orbits) + o) * 24."""
    out = bytearray()
    for m in moves:
        for facelets in orbits:
            out += bytearray(slot_map(m, facelets, n))
    return bytes(out)


def apply_mask(mask, dest):
    out, s = 0, 0
    while mask:
        if mask & 1:
            out |= 1 << dest[s]
        mask >>= 1
        s += 1
    return out


def mask_of(cube, facelets, colours):
    """The mask of the slots of `facelets` that show one of `colours`."""
    mask = 0
    for s, x in enumerate(facelets):
        if cube[x] in colours:
            mask |= 1 << s
    return mask


def build_distances(moves, facelets, n, goal):
    """bytearray of N_RANKS: each mask's distance (in `moves`) from the mask `goal`,
    UNREACHED where none: the compiled BFS when built, else in Python."""
    dests = slot_maps(moves, [facelets], n)
    lib = compiled()
    if lib is not None:
        return lib.bfs(dests, len(moves), goal)
    lookups = [_byte_lookups(dests[k * N_SLOTS:(k + 1) * N_SLOTS]) for k in range(len(moves))]
    ranks = _rank_lookups()
    dist = bytearray([UNREACHED]) * N_RANKS
    dist[rank(goal)] = 0
    frontier, depth = [goal], 0
    while frontier:
        nxt = []
        for mask in frontier:
            v0, v1, v2 = mask & 255, (mask >> 8) & 255, mask >> 16
            for t0, t1, t2 in lookups:
                after = t0[v0] | t1[v1] | t2[v2]
                r = _rank_by_bytes(after, ranks)
                if dist[r] == UNREACHED:
                    dist[r] = depth + 1
                    nxt.append(after)
        frontier, depth = nxt, depth + 1
    return dist


def _byte_lookups(dest):
    """Three lists of 256: the mask bits that byte b of a mask (value v) becomes under `dest`."""
    return tuple([apply_mask(v << (8 * b), dest) for v in range(256)] for b in range(3))


def _rank_lookups():
    """part[b][c][v]: what byte b of value v adds to the rank with c bits set below it; and
    the bit count of each byte."""
    counts = [bin(v).count("1") for v in range(256)]
    part = []
    for b in range(3):
        rows = []
        for c in range(N_PIECES + 1):
            row = []
            for v in range(256):
                r, k = 0, c
                for i in range(8):
                    if v >> i & 1:
                        k += 1
                        r += BINOMIAL[8 * b + i][k] if k <= N_PIECES else 0
                row.append(r)
            rows.append(row)
        part.append(rows)
    return part, counts


def _rank_by_bytes(mask, ranks):
    part, counts = ranks
    v0, v1, v2 = mask & 255, (mask >> 8) & 255, mask >> 16
    c0 = counts[v0]
    return part[0][0][v0] + part[1][c0][v1] + part[2][c0 + counts[v1]][v2]


class MaskStage(object):
    """One staging search (see the module docstring). tables: ((orbit index, (buffer,
    offset) of a 4-bit table by rank), ...); pairs: ((orbit a, orbit b), ...); weight: the
    tables' largest distance is taken times weight / 100, rounded up (above 100: a guess that
    finds longer paths sooner); flips: a predicate of the moves that flip a parity, and want
    the parity (0 or 1) a path must end with (ANY_PARITY: either)."""

    def __init__(self, moves, orbits, n, tables, pairs=(), divisor=1, weight=100, flips=None,
                 want=ANY_PARITY):
        self.moves = list(moves)
        self.n_orbits = len(orbits)
        self.dests = slot_maps(self.moves, orbits, n)
        self.tables = tuple((o, buf, at) for o, (buf, at) in tables)
        self.pairs = tuple(pairs)
        self.divisor = divisor
        self.weight = weight
        self.flips = bytes(bytearray(1 if flips and flips(m) else 0 for m in self.moves))
        self.want = want
        self.allowed = successors(self.moves)
        self.spec = (len(self.moves), self.n_orbits, self.dests, self.tables, self.pairs,
                     divisor, weight, self.allowed, self.flips, want)

    def heuristic(self, state):
        """The bound of a state (its masks, then its parity): 1 where every mask is staged
        but the parity is not the one asked."""
        masks, h = state[:-1], 0
        for o, buf, at in self.tables:
            r = rank(masks[o])
            h = max(h, (buf[at + (r >> 1)] >> ((r & 1) << 2)) & 15)
        h = -(-h * self.weight // 100)
        unpaired = sum(bin(masks[a] ^ masks[b]).count("1") for a, b in self.pairs)
        h = max(h, -(-unpaired // self.divisor))
        return 1 if h == 0 and self.want != ANY_PARITY and state[-1] != self.want else h

    def apply(self, state, i):
        base = i * self.n_orbits * N_SLOTS
        return tuple(apply_mask(mask, self.dests[base + o * N_SLOTS:base + (o + 1) * N_SLOTS])
                     for o, mask in enumerate(state[:-1])) + (state[-1] ^ self.flips[i],)

    def search(self, start, max_cost, max_solutions=1, max_nodes=None):
        """(paths, nodes): the paths (lists of Moves) of the first bound that has any,
        up to max_solutions, within max_nodes nodes (None: no limit)."""
        lib = compiled()
        if lib is not None:
            paths, nodes = lib.ida(self.spec, tuple(start), max_cost, max_solutions,
                                   NO_LIMIT if max_nodes is None else max_nodes)
            return [[self.moves[i] for i in p] for p in paths], nodes
        from cubebot.solver.search import Stats
        stats = Stats()
        stop = None if max_nodes is None else (lambda: stats.nodes >= max_nodes)
        h = self.heuristic
        found = list(ida_star(tuple(start) + (0,), self.moves, self.apply, h, lambda s: h(s) == 0,
                              max_cost=max_cost, max_solutions=max_solutions, stop=stop,
                              stats=stats, cheapest_only=True))
        return found, stats.nodes

    def beam(self, start, width, max_depth):
        """A path (list of Moves) to a state of bound 0 by the compiled beam (the `width`
        children of least bound, then fewest unpaired slots, kept each depth), or None if
        none is found within max_depth moves or the compiled module is not built."""
        lib = compiled()
        if lib is None:
            return None
        path, found = lib.beam(self.spec, tuple(start), width, max_depth)
        return [self.moves[i] for i in path] if found else None
