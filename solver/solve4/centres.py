"""The centre stages of the 4x4x4 reduction and the all-centres coordinate.

Stage 1 (fixed frame, all 27 generators): the eight L/R centre facelets onto
    the L and R faces. Coordinate: which 8 of the 24 centre slots hold L/R
    colours, C(24, 8) = 735,471. Table 4x4-centres-lr, 4 bits, exact.
Stage 2 (fixed frame, the 19 generators that keep L/R on their axis): the
    U/D centres onto U and D, and the wing permutation made even (so that no
    OLL parity can appear later). Coordinate: which 8 of the 16 non-L/R slots
    hold U/D colours, C(16, 8) = 12,870, times the wing parity: 25,740.
    Table 4x4-centres-ud, 4 bits, exact; 4x4-centres-ud-moves, its move table
    (words: rank x 19 + move -> rank after the move, 25,740 x 19 = 489,060),
    so that the stage's searches turn ranks only (RankedStage).
All centres (CentreStage, the coordinate of the later stages' centre
    tables): per axis, which 4 of its 8 slots hold the first colour of the
    axis, 70^3 = 343,000; the goals are the solved centres and their x2, y2,
    z2 turns (a whole-cube turn of a reduced cube is still reduced).

Every state here is a small tuple or int; `Stage` objects give the moves,
apply, rank and the goal ranks the shared builder and IDA* need.
"""

from cubebot.solver.facelets import FACES
from cubebot.solver.search import CoordModel, DistanceTable, MaskModel, Rows
from cubebot.solver.tables import BITS_PER_BYTE, HEADER, WORD_BYTES, write_words
from cubebot.solver.solve4.masks import CombCoord, MaskMover, MaskStage, mask_of, mask_of_slots
from cubebot.solver.solve4.model import CENTRES, EDGE_MOVES, GENERATORS, N, centre_perm, permutation_parity, wing_map

FACE_SLOTS = dict((f, tuple(k for k, c in enumerate(CENTRES) if c // (N * N) == i))
                  for i, f in enumerate(FACES))
AXES = (("U", "D"), ("R", "L"), ("F", "B"))
PER_FACE = 4
PER_AXIS = 2 * PER_FACE
N_PARITY = 2


def _slots(faces):
    return tuple(sorted(s for f in faces for s in FACE_SLOTS[f]))


LR_SLOTS = _slots("RL")
UD_SLOTS = _slots("UD")
FB_SLOTS = _slots("FB")
NOT_LR_SLOTS = _slots("UDFB")


class LRStage(MaskStage):
    """Stage 1: state = mask of centre slots holding L/R colours."""

    table = "4x4-centres-lr"

    def __init__(self):
        MaskStage.__init__(self, GENERATORS, centre_perm, range(len(CENTRES)), PER_AXIS, LR_SLOTS)

    def start(self, symbols):
        """State from the 24 centre symbols (URFDLB letters)."""
        return mask_of(symbols, "LR")


class LRSearch(object):
    """Stage 1's searches over its table (a mapped tables.DenseTable of 4x4-centres-lr):
    the stage's moves and apply, its exact distance as the heuristic, and the stage
    as a search.MaskModel (search.stage_descend)."""

    def __init__(self, stage, table):
        self.table = stage.table
        self.moves, self.apply, self.rank = stage.moves, stage.apply, stage.rank
        buffer, offset = table.nibbles()
        self.mask_model = MaskModel(self.moves, [stage.mover.flat()], [0], [stage.coord.flat()],
                               [(buffer, offset, ((0, 0, 1, None),))])
        rank, get = stage.rank, table.__getitem__

        def heuristic(state):
            return get(rank(state))

        self.heuristic = heuristic

    def core_spec(self):
        return self.mask_model.spec

    @staticmethod
    def core_state(state):
        return (state,)


class UDStage(object):
    """Stage 2: state = (mask of slots holding U/D colours, wing parity)."""

    table = "4x4-centres-ud"

    def __init__(self):
        lr = mask_of_slots(LR_SLOTS)
        every = MaskMover(GENERATORS)
        keep = [i for i in range(len(GENERATORS)) if every.apply(lr, i) == lr]
        self.moves = [GENERATORS[i] for i in keep]
        self.index = dict((m, i) for i, m in enumerate(self.moves))
        self.mover = MaskMover(self.moves)
        # any of the 27 generators, for the state after a stage 1 solution (after())
        every_maps = [wing_map(m) for m in GENERATORS]
        self._every = every
        self._every_index = dict((m, i) for i, m in enumerate(GENERATORS))
        self._every_flips = [permutation_parity(w) for w in every_maps]
        # wing_maps[i][s]: where moves[i] takes the wing at slot s
        self.wing_maps = [every_maps[i] for i in keep]
        self.flips = [self._every_flips[i] for i in keep]
        self.coord = CombCoord(NOT_LR_SLOTS, PER_AXIS)
        self.size = self.coord.size * N_PARITY

    def start(self, symbols, parity):
        return (mask_of(symbols, "UD"), parity)

    def after(self, state, moves):
        """The state after `moves` (any generators; rank() needs the L/R centres on
        their axis then, as after a stage 1 solution)."""
        mask, parity = state
        index, apply, flips = self._every_index, self._every.apply, self._every_flips
        for move in moves:
            i = index[move]
            mask, parity = apply(mask, i), parity ^ flips[i]
        return mask, parity

    def apply(self, state, i):
        return (self.mover.apply(state[0], i), state[1] ^ self.flips[i])

    def rank(self, state):
        return self.coord.rank(state[0]) * N_PARITY + state[1]

    def goals(self):
        return [self.coord.rank(mask_of_slots(UD_SLOTS)) * N_PARITY]

    def neighbours(self, rank):
        mask, parity = divmod(rank, N_PARITY)
        state = (self.coord.unrank(mask), parity)
        return [self.rank(self.apply(state, i)) for i in range(len(self.moves))]


UD_MOVE_TABLE = "4x4-centres-ud-moves"


def build_ud_moves(path, progress=None):
    """Write 4x4-centres-ud-moves: UDStage's neighbours of every rank, in rank order."""
    stage = UDStage()
    if progress:
        progress("{} ranks x {} moves".format(stage.size, len(stage.moves)))
    write_words(path, [r for rank in range(stage.size) for r in stage.neighbours(rank)])


class RankedStage(object):
    """A stage whose states are its ranks, turned through its move table (words:
    rank x len(moves) + move -> rank): the same moves, and rank() is the identity.
    distance: its distance table, unpacked (bytes, distance[rank]). With move_table (the
    WordTable of `words`), model is the stage as a search.CoordModel of one coordinate,
    its rank, for search.coord_descend; else None."""

    def __init__(self, stage, words, distance, move_table=None):
        self.table = stage.table
        self.moves = stage.moves
        self.index = stage.index
        self.distance = distance
        width = len(stage.moves)
        self.model = None
        if move_table is not None:
            rows = Rows(move_table.mm, HEADER.size, WORD_BYTES, len(distance), words)
            self.model = CoordModel(self.moves, [rows],
                                    [DistanceTable(distance, 0, BITS_PER_BYTE, ((0, 1, None),))])

        def apply(state, i):         # a closure: one attribute lookup less at every node
            return words[state * width + i]

        self.apply = apply

    def rank(self, state):
        return state


class CentreStage(object):
    """Stage 3: state = (mask of U colour, mask of R colour, mask of F colour)."""

    def __init__(self):
        self.moves = list(EDGE_MOVES)
        self.mover = MaskMover(self.moves)
        self.coords = tuple(CombCoord(slots, PER_FACE) for slots in (UD_SLOTS, LR_SLOTS, FB_SLOTS))
        self.base = self.coords[0].size
        self.size = self.base ** len(AXES)

    def start(self, symbols):
        return tuple(mask_of(symbols, axis[0]) for axis in AXES)

    def apply(self, state, i):
        return self.mover.apply3(state, i)

    def rank(self, state):
        cu, cr, cf = self.coords
        return (cu.rank(state[0]) * self.base + cr.rank(state[1])) * self.base + cf.rank(state[2])

    def unrank(self, rank):
        rest, f = divmod(rank, self.base)
        u, r = divmod(rest, self.base)
        cu, cr, cf = self.coords
        return (cu.unrank(u), cr.unrank(r), cf.unrank(f))

    def goals(self):
        """Solved centres, and turned by x2, y2 or z2 (an even number of axes swapped)."""
        result = []
        for swap in ((0, 0, 0), (1, 1, 0), (1, 0, 1), (0, 1, 1)):
            masks = []
            for (first, second), flip in zip(AXES, swap):
                masks.append(mask_of_slots(FACE_SLOTS[second if flip else first]))
            result.append(self.rank(tuple(masks)))
        return sorted(result)

    def neighbours(self, rank):
        state = self.unrank(rank)
        return [self.rank(self.apply(state, i)) for i in range(len(self.moves))]
