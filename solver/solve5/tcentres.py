"""The centre stages of phase 2: T-centres and fixed centres onto their target faces.

States are read relative to the X-centres (middle.targets): a T-centre slot
holds a target face, the fixed centres a rotation of the six target faces.
Three stages, each a narrower move set (outer turns always; slices cost 2):

  UD      all 27 moves (18 outer, 9 middle slices). Goal: the U/D T-centres
          on U and D, the U/D fixed centres on the U/D axis.
          Coordinate: which 8 of the 24 T slots hold U/D, N_T_UD = C(24, 8)
          = 735,471, times the axis of the U/D fixed centres (3):
          N_UD = 2,206,413. Table 5x5-middle-ud.
  LR      outer turns, 3U (E) quarter turns, 3R2 and 3F2 (23). Goal: the L/R
          T-centres on L and R, and every fixed centre on its own axis.
          Coordinate: which 8 of the 16 non-U/D slots hold L/R, N_T_LR =
          C(16, 8) = 12,870, times the fixed-centre rotation (24):
          N_LR = 308,880 (only 8 rotations keep U/D on its axis: the rest
          are unreached). Table 5x5-middle-lr.
  SOLVE   outer turns and the half slices 3R2 3U2 3F2 (21). Goal: every
          T-centre and fixed centre home. Coordinate: per axis, which 4 of
          its 8 T slots hold the axis' first face, N_T_SOLVE = C(8, 4) ** 3 =
          343,000, times the fixed rotations the half slices reach (4):
          N_SOLVE = 1,372,000. Table 5x5-middle-centres.

Every table is the exact distance in moves (a slice counting one: the shared
BFS builder is unit-cost), 4 bits an entry, read through mmap: an admissible
bound for the costed IDA* and a path for the descent fallback.
"""

from cubebot.solver.coords import binomial
from cubebot.solver.facelets import FACES
from cubebot.solver.solve4.masks import CombCoord, MaskMover, mask_of_slots
from .middle import CENTRE, FACE_AREA, HALF, MIDDLE, MOVES, OUTER, cost
from .model import T_CENTRES, slot_perm

PER_FACE = 4
PER_AXIS = 2 * PER_FACE
AXES = (("U", "D"), ("R", "L"), ("F", "B"))
N_FACES = len(FACES)
FIXED = tuple(f * FACE_AREA + CENTRE for f in range(N_FACES))
FACE = dict((f, i) for i, f in enumerate(FACES))
AXIS_OF = tuple(next(a for a, pair in enumerate(AXES) if f in pair) for f in FACES)

N_T_UD = binomial(len(T_CENTRES), PER_AXIS)
N_AXES = len(AXES)
N_UD = N_T_UD * N_AXES
N_T_LR = binomial(len(T_CENTRES) - PER_AXIS, PER_AXIS)
N_ROTATIONS = 24               # the rotations of the six fixed centres
N_LR = N_T_LR * N_ROTATIONS
N_T_SOLVE = binomial(PER_AXIS, PER_FACE) ** N_AXES
N_HALF = 4                     # fixed-centre rotations reached by half slices: 1, x2, y2, z2
N_SOLVE = N_T_SOLVE * N_HALF


def face_slots(faces):
    """The T slots on these faces (T_CENTRES holds four per face, in FACES order)."""
    return tuple(sorted(PER_FACE * FACE[f] + k for f in faces for k in range(PER_FACE)))


def t_perm(move):
    return slot_perm(move, T_CENTRES)


def fixed_perm(move):
    return slot_perm(move, FIXED)


def t_mask(t, faces):
    """Mask of the T slots whose target face is one of `faces` (face indices)."""
    mask = 0
    for k, f in enumerate(t):
        if f in faces:
            mask |= 1 << k
    return mask


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


class Stage(object):
    """A centre stage: moves, costs, apply, rank, goals and neighbours over (masks..., rotation)."""

    table = None

    def __init__(self, moves):
        self.moves = list(moves)
        self.costs = [cost(m) for m in self.moves]
        self.mover = MaskMover(self.moves, t_perm)
        self.rot = Rotations(self.moves)

    def neighbours(self, rank):
        state = self.unrank(rank)
        return [self.rank(self.apply(state, i)) for i in range(len(self.moves))]


class UDStage(Stage):
    """Stage UD: state (mask of U/D T-slots, fixed rotation index)."""

    table = "5x5-middle-ud"
    size = N_UD

    def __init__(self):
        Stage.__init__(self, MOVES)
        self.coord = CombCoord(range(len(T_CENTRES)), PER_AXIS)
        self.ud = (FACE["U"], FACE["D"])
        # the axis (0..2) holding the U/D fixed centres, per rotation
        self.axis = [AXIS_OF[rot.index(self.ud[0])] for rot in self.rot.items]

    def start(self, t, fixed):
        return (t_mask(t, self.ud), self.rot.index[fixed])

    def apply(self, state, i):
        return (self.mover.apply(state[0], i), self.rot.move[state[1]][i])

    def rank(self, state):
        return self.coord.rank(state[0]) * N_AXES + self.axis[state[1]]

    def unrank(self, rank):
        mask, axis = divmod(rank, N_AXES)
        # a rotation with the U/D fixed centres on that axis (the table needs only the axis)
        return (self.coord.unrank(mask), self.axis.index(axis))

    def goals(self):
        return [self.coord.rank(mask_of_slots(face_slots("UD"))) * N_AXES]


class LRStage(Stage):
    """Stage LR: state (mask of L/R T-slots among the 16 non-U/D slots, rotation index)."""

    table = "5x5-middle-lr"
    size = N_LR

    def __init__(self):
        keep = [m for m in MOVES if m.first != MIDDLE or m.face == "U" or m.turns == HALF]
        Stage.__init__(self, keep)
        self.coord = CombCoord(face_slots("RLFB"), PER_AXIS)
        self.lr = (FACE["R"], FACE["L"])

    def start(self, t, fixed):
        return (t_mask(t, self.lr), self.rot.index[fixed])

    def apply(self, state, i):
        return (self.mover.apply(state[0], i), self.rot.move[state[1]][i])

    def rank(self, state):
        return self.coord.rank(state[0]) * N_ROTATIONS + state[1]

    def unrank(self, rank):
        mask, r = divmod(rank, N_ROTATIONS)
        return (self.coord.unrank(mask), r)

    def goals(self):
        mask = self.coord.rank(mask_of_slots(face_slots("RL")))
        return [mask * N_ROTATIONS + r for r in range(N_ROTATIONS) if self.rot.on_axes(r)]


class SolveStage(Stage):
    """Stage SOLVE: state (U mask, R mask, F mask, fixed rotation index)."""

    table = "5x5-middle-centres"
    size = N_SOLVE

    def __init__(self):
        keep = list(OUTER) + [m for m in MOVES if m.first == MIDDLE and m.turns == HALF]
        Stage.__init__(self, keep)
        self.coords = tuple(CombCoord(face_slots(pair), PER_FACE) for pair in AXES)
        self.base = self.coords[0].size
        self.firsts = tuple((FACE[pair[0]],) for pair in AXES)
        halves = [r for r in range(N_ROTATIONS) if self.rot.on_axes(r)]
        reach = set([0])
        frontier = [0]
        while frontier:
            r = frontier.pop()
            for nxt in self.rot.move[r]:
                if nxt not in reach:
                    reach.add(nxt)
                    frontier.append(nxt)
        self.halves = sorted(reach)
        assert len(self.halves) == N_HALF and set(self.halves) <= set(halves)
        self.half_of = dict((r, k) for k, r in enumerate(self.halves))

    def start(self, t, fixed):
        return tuple(t_mask(t, first) for first in self.firsts) + (self.rot.index[fixed],)

    def apply(self, state, i):
        move = self.mover.apply
        return (move(state[0], i), move(state[1], i), move(state[2], i), self.rot.move[state[3]][i])

    def rank(self, state):
        cu, cr, cf = self.coords
        t = (cu.rank(state[0]) * self.base + cr.rank(state[1])) * self.base + cf.rank(state[2])
        half = self.half_of.get(state[3])
        if half is None:
            return None
        return t * N_HALF + half

    def unrank(self, rank):
        rest, half = divmod(rank, N_HALF)
        rest, f = divmod(rest, self.base)
        u, r = divmod(rest, self.base)
        cu, cr, cf = self.coords
        return (cu.unrank(u), cr.unrank(r), cf.unrank(f), self.halves[half])

    def goals(self):
        masks = tuple(mask_of_slots(face_slots(pair[0])) for pair in AXES)
        return [self.rank(masks + (0,))]


STAGES = (UDStage, LRStage, SolveStage)


def _build(stage, path, progress):
    from cubebot.solver.tables import PLAIN, bfs, write_dense

    def report(depth, count):
        if progress:
            progress("depth {}: {} states".format(depth, count))

    dist = bfs(stage.goals(), stage.neighbours, n_states=stage.size, progress=report)
    write_dense(path, dist, bits=4, encoding=PLAIN)


def build_ud(path, progress=None):
    """5x5-middle-ud: stage UD's distances (N_UD = C(24, 8) x 3 entries)."""
    _build(UDStage(), path, progress)


def build_lr(path, progress=None):
    """5x5-middle-lr: stage LR's distances (N_LR = C(16, 8) x 24 entries)."""
    _build(LRStage(), path, progress)


def build_solve(path, progress=None):
    """5x5-middle-centres: stage SOLVE's distances (N_SOLVE = C(8, 4)^3 x 4 entries)."""
    _build(SolveStage(), path, progress)
