"""The centre stages of phase 2: T-centres and fixed centres onto their target faces.

T-pairs. The two T-centres opposite each other across a fixed centre (rows 1
and 3 of column 2, or columns 1 and 3 of row 2) lie on the same middle slice
and the same face: every outer turn and middle slice moves them together.
So under phase 2's moves the 24 T-centres are 12 pairs (PAIRS; pair 2f is
face f's column pair, 2f + 1 its row pair), and phase 2 can solve them only
if each pair shows one colour (middle.pairs_one_colour). A pair state is
then the target face of each pair, two pairs per face.

Two stages over pair states, each with the fixed centres' rotation (24, only
middle slices turn them); a slice costs 2 (two written turns):
  AXES   all 27 moves. Goal: every pair and fixed centre on its own axis.
         Coordinate: which 4 of the 12 pairs hold U/D, N_P_UD = C(12, 4) =
         495; which 4 of the other 8 hold R/L, N_P_RL = C(8, 4) = 70; the
         rotation, 24: N_AXES = 495 x 70 x 24 = 831,600. Table 5x5-middle-axes.
  PAIRS  outer turns and the half slices 3U2 3R2 3F2 (21), which keep every
         axis. Goal: every pair and fixed centre home. Coordinate: per axis,
         which 2 of its 4 pairs hold its first face, N_P_SOLVE = C(4, 2) ** 3
         = 216; the rotations the half slices reach, 4: N_PAIRS = 864.
         Table 5x5-middle-pairs.
Both tables are exact costs to the goal in written turns (a slice 2, an
outer turn 1; the shared BFS builder with move costs), 4 bits an entry
(unreached or >= 15: 15). So the IDA* bound is exact below 15, and each
stage also has a descent fallback that always finishes.
"""

from array import array
from itertools import combinations

from cubebot.solver.coords import binomial
from cubebot.solver.facelets import FACES
from cubebot.solver.solve4.masks import N_BITS, MaskMover, mask_of
from .slices import CENTRE, FACE_AREA, HALF, MIDDLE, MOVES, OUTER, cost
from .model import T_CENTRES, slot_perm

PER_FACE = 4                   # T-centres on a face
PAIRS_PER_FACE = 2
N_PAIRS_ALL = len(FACES) * PAIRS_PER_FACE           # 12 T-pairs
PER_AXIS = 2 * PAIRS_PER_FACE                       # 4 pairs on an axis' two faces
AXES = (("U", "D"), ("R", "L"), ("F", "B"))
N_FACES = len(FACES)
FIXED = tuple(f * FACE_AREA + CENTRE for f in range(N_FACES))
FACE = dict((f, i) for i, f in enumerate(FACES))
AXIS_OF = tuple(next(a for a, pair in enumerate(AXES) if f in pair) for f in FACES)
COLUMN, ROW = (0, 3), (1, 2)   # T_CENTRES order within a face: (1,2) (2,1) (2,3) (3,2)
PAIRS = tuple((PER_FACE * f + a, PER_FACE * f + b) for f in range(N_FACES) for a, b in (COLUMN, ROW))

N_ROTATIONS = 24               # the rotations of the six fixed centres
N_HALF = 4                     # those the half slices reach: 1, and x2, y2, z2 of the middle
N_P_UD = binomial(N_PAIRS_ALL, PER_AXIS)
N_P_RL = binomial(N_PAIRS_ALL - PER_AXIS, PER_AXIS)
N_AXES = N_P_UD * N_P_RL * N_ROTATIONS
N_P_SOLVE = binomial(PER_AXIS, PAIRS_PER_FACE) ** len(AXES)
N_PAIRS = N_P_SOLVE * N_HALF
MASKS = 1 << N_PAIRS_ALL


def pair_targets(t):
    """The target face of each pair from the T slots' target faces (pairs one colour)."""
    return tuple(t[a] for a, _ in PAIRS)


def pair_perm(move):
    """The move as a permutation of the 12 pairs: new[p] = old[perm[p]]."""
    perm = slot_perm(move, T_CENTRES)
    of = dict((k, p) for p, pair in enumerate(PAIRS) for k in pair)
    return tuple(of[perm[a]] for a, _ in PAIRS)


def fixed_perm(move):
    return slot_perm(move, FIXED)


def face_pairs(faces):
    """The mask of the pairs on these faces."""
    return mask_of([p // PAIRS_PER_FACE for p in range(N_PAIRS_ALL)], [FACE[f] for f in faces])


HALF_BITS = N_PAIRS_ALL // 2   # AxesStage ranks a pair mask a 6-bit half at a time
HALF_VALUES = 1 << HALF_BITS


def pair_mover(moves):
    """A MaskMover of pair masks (the 12 pairs as the low bits of its 24-bit masks)."""
    rest = tuple(range(N_PAIRS_ALL, N_BITS))
    return MaskMover(moves, lambda m: pair_perm(m) + rest)


class Rotations(object):
    """The 24 rotations of the fixed centres (tuples of 6 target faces) and their moves."""

    def __init__(self, moves):
        perms = [fixed_perm(m) for m in MOVES]
        start = tuple(range(N_FACES))
        self.items = [start]
        index = {start: 0}
        for rot in self.items:
            for p in perms:
                nxt = tuple(rot[k] for k in p)
                if nxt not in index:
                    index[nxt] = len(self.items)
                    self.items.append(nxt)
        assert len(self.items) == N_ROTATIONS
        self.index = index
        use = [fixed_perm(m) for m in moves]
        self.move = [[index[tuple(rot[k] for k in p)] for p in use] for rot in self.items]

    def on_axes(self, r):
        """True if rotation r has every fixed centre on its own axis."""
        return all(AXIS_OF[f] == AXIS_OF[t] for f, t in enumerate(self.items[r]))


def _comb_ranks(n, k):
    """(rank of each n-bit mask with k bits set, or -1; the masks by rank), colex order."""
    rank = array("i", [-1]) * (1 << n)
    masks = []
    for combo in combinations(range(n), k):
        mask = 0
        for s in combo:
            mask |= 1 << s
        masks.append(mask)
    masks.sort(key=lambda m: [m >> (n - 1 - b) & 1 for b in range(n)])
    for r, mask in enumerate(masks):
        rank[mask] = r
    return rank, masks


def squeeze(mask, free):
    """The bits of `mask` at the positions listed in `free`, packed (bit j = free[j])."""
    out = 0
    for j, s in enumerate(free):
        if mask >> s & 1:
            out |= 1 << j
    return out


def spread(packed, free):
    out = 0
    for j, s in enumerate(free):
        if packed >> j & 1:
            out |= 1 << s
    return out


class Stage(object):
    """A pair stage: moves, costs, apply and neighbours over ranks (for the BFS builder)."""

    table = None

    def __init__(self, moves):
        self.moves = list(moves)
        self.index = dict((m, i) for i, m in enumerate(self.moves))
        self.costs = [cost(m) for m in self.moves]
        self.mover = pair_mover(self.moves)
        self.rot = Rotations(self.moves)

    def neighbours(self, rank):
        state = self.unrank(rank)
        return [self.rank(self.apply(state, i)) for i in range(len(self.moves))]


class AxesStage(Stage):
    """Stage AXES: state (U/D pair mask, R/L pair mask, rotation index)."""

    table = "5x5-middle-axes"
    size = N_AXES

    def __init__(self):
        Stage.__init__(self, MOVES)
        self.ud_rank, self.ud_masks = _comb_ranks(N_PAIRS_ALL, PER_AXIS)
        self.rl_rank, self.rl_masks = _comb_ranks(N_PAIRS_ALL - PER_AXIS, PER_AXIS)
        self.free = [[s for s in range(N_PAIRS_ALL) if not m >> s & 1] for m in self.ud_masks]
        # the R/L mask packed onto the 8 pairs the U/D mask leaves free, a 6-bit half at a
        # time: PACK[u << 6 | r] = r's bits at the 0 bits of u, packed; FREE[u] = their count
        self.pack = array("B", [0]) * (HALF_VALUES * HALF_VALUES)
        self.count = array("B", [0]) * HALF_VALUES
        for u in range(HALF_VALUES):
            free = [b for b in range(HALF_BITS) if not u >> b & 1]
            self.count[u] = len(free)
            for r in range(HALF_VALUES):
                self.pack[u << HALF_BITS | r] = squeeze(r, free)

    def start(self, pairs, fixed):
        return (mask_of(pairs, (FACE["U"], FACE["D"])), mask_of(pairs, (FACE["R"], FACE["L"])),
                self.rot.index[fixed])

    def apply(self, state, i):
        move = self.mover.apply
        return (move(state[0], i), move(state[1], i), self.rot.move[state[2]][i])

    def rank(self, state):
        ud, rl = state[0], state[1]
        low = HALF_VALUES - 1
        packed = self.pack[(ud & low) << HALF_BITS | (rl & low)] | \
            self.pack[(ud >> HALF_BITS) << HALF_BITS | (rl >> HALF_BITS)] << self.count[ud & low]
        return (self.ud_rank[ud] * N_P_RL + self.rl_rank[packed]) * N_ROTATIONS + state[2]

    def unrank(self, rank):
        rest, r = divmod(rank, N_ROTATIONS)
        ud, rl = divmod(rest, N_P_RL)
        return (self.ud_masks[ud], spread(self.rl_masks[rl], self.free[ud]), r)

    def goals(self):
        base = (face_pairs("UD"), face_pairs("RL"))
        return sorted(self.rank(base + (r,)) for r in range(N_ROTATIONS) if self.rot.on_axes(r))


class PairsStage(Stage):
    """Stage PAIRS: state (U pair mask, R pair mask, F pair mask, rotation index)."""

    table = "5x5-middle-pairs"
    size = N_PAIRS

    def __init__(self):
        Stage.__init__(self, list(OUTER) + [m for m in MOVES if m.first == MIDDLE and m.turns == HALF])
        self.axis_masks = [face_pairs(pair) for pair in AXES]
        self.rank2, self.masks2 = _comb_ranks(PER_AXIS, PAIRS_PER_FACE)
        self.free = [[s for s in range(N_PAIRS_ALL) if m >> s & 1] for m in self.axis_masks]
        # per axis: 12-bit mask -> its rank among the axis' C(4, 2) masks, or -1 (off the axis)
        self.ranks = []
        for k in range(len(AXES)):
            ranks = array("b", [-1]) * MASKS
            for r, packed in enumerate(self.masks2):
                ranks[spread(packed, self.free[k])] = r
            self.ranks.append(ranks)
        self.base = len(self.masks2)
        reach, frontier = set([0]), [0]
        while frontier:
            r = frontier.pop()
            for nxt in self.rot.move[r]:
                if nxt not in reach:
                    reach.add(nxt)
                    frontier.append(nxt)
        self.halves = sorted(reach)
        assert len(self.halves) == N_HALF
        self.half_of = dict((r, k) for k, r in enumerate(self.halves))

    def start(self, pairs, fixed):
        return tuple(mask_of(pairs, (FACE[pair[0]],)) for pair in AXES) + (self.rot.index[fixed],)

    def apply(self, state, i):
        move = self.mover.apply
        return (move(state[0], i), move(state[1], i), move(state[2], i), self.rot.move[state[3]][i])

    def rank(self, state):
        """The rank, or None off the stage's group (a mask off its axis, a rotation off the four)."""
        t = 0
        for k in range(len(AXES)):
            r = self.ranks[k][state[k]]
            if r < 0:
                return None
            t = t * self.base + r
        half = self.half_of.get(state[3])
        if half is None:
            return None
        return t * N_HALF + half

    def unrank(self, rank):
        rest, half = divmod(rank, N_HALF)
        masks = []
        for k in reversed(range(len(AXES))):
            rest, r = divmod(rest, self.base)
            masks.append(spread(self.masks2[r], self.free[k]))
        masks.reverse()
        return tuple(masks) + (self.halves[half],)

    def goals(self):
        return [self.rank(tuple(face_pairs(pair[0]) for pair in AXES) + (0,))]


STAGES = (AxesStage, PairsStage)


def _build(stage, path, progress):
    from cubebot.solver.tables import PLAIN, bfs, write_dense

    def report(depth, count):
        if progress:
            progress("depth {}: {} states".format(depth, count))

    dist = bfs(stage.goals(), stage.neighbours, n_states=stage.size, progress=report,
               costs=stage.costs)
    write_dense(path, dist, bits=4, encoding=PLAIN)


def build_axes(path, progress=None):
    """5x5-middle-axes: stage AXES' distances (N_AXES = C(12, 4) x C(8, 4) x 24 entries)."""
    _build(AxesStage(), path, progress)


def build_pairs(path, progress=None):
    """5x5-middle-pairs: stage PAIRS' distances (N_PAIRS = C(4, 2)^3 x 4 entries)."""
    _build(PairsStage(), path, progress)
