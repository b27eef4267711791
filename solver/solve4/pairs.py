"""The pairs stage (Tsai's step 4): centres solved, every edge paired, no PLL parity.

Runs after the slice stage with orbits.PAIR_MOVES (16: U and D any turn, F2, B2, R2, L2 and
the six wide half turns), which keep each wing in its orbit and the E-slice slots among
themselves. The edges are then:
  rho   the pairing permutation of the A indices (rho[i] = j when the A wing at A index i
        has its B wing at partner[j]); every edge is paired when rho is the identity. Its U/D
        part is ranked 0 .. 8! - 1, its E part 0 .. 23.
  bit   edge permutation parity xor corner permutation parity: 0 = no PLL parity.

Tables (IDA* takes the max of the three distance tables; all are 0 at the goal, together only
there):
  4x4-pairs-moves    words: UD rank * 16 + move -> UD rank (N_UD * 16 = 645,120)
  4x4-pairs          4 bits, (UD rank, E rank, bit): N_PAIRS = 8! * 4! * 2 = 1,935,360
  4x4-pairs-centres  4 bits, (PairCentres rank, E rank, bit): N_PAIRS_CENTRES = 10,080 * 4! * 2
                     = 483,840
  4x4-pairs-ud       4 bits, (U/D centre mask, UD rank, bit): N_PAIRS_UD = 70 * 8! * 2 =
                     5,644,800; the wide half turns move U/D centres and wings together

PairCentres ranks the 10,080 centre configurations the pairs moves reach: 70 U/D masks x 12
R/L masks x 12 F/B masks.
"""

from math import factorial

from cubebot.solver.coords import binomial, perm_rank, perm_unrank
from cubebot.solver.errors import TableError
from cubebot.solver.search import CoordModel, DistanceTable, Rows
from cubebot.solver.tables import HEADER, WORD_BYTES, write_words
from cubebot.solver.solve4.centres import FACE_SLOTS, PER_AXIS, PER_FACE, CentreStage
from cubebot.solver.solve4.masks import MaskMover, mask_of_slots
from cubebot.solver.solve4.model import permutation_parity
from cubebot.solver.solve4.orbits import E_A, ORBIT_A, PAIR_MOVES, UD_A, corner_flips, orbit_maps, partner

PAIR_MOVE_TABLE = "4x4-pairs-moves"
N_MOVES = len(PAIR_MOVES)                      # 16
N_UD = factorial(len(UD_A))                    # 8! = 40,320
N_E = factorial(len(E_A))                      # 4! = 24
N_BIT = 2
N_PAIRS = N_UD * N_E * N_BIT                   # 1,935,360
N_UD_MASKS = binomial(PER_AXIS, PER_FACE)      # 70 U/D centre masks, all reached
N_SIDE_MASKS = 12                              # R/L (and F/B) masks the pairs moves reach
N_PAIR_CENTRES = N_UD_MASKS * N_SIDE_MASKS * N_SIDE_MASKS     # 10,080
N_PAIRS_CENTRES = N_PAIR_CENTRES * N_E * N_BIT                 # 483,840
N_PAIRS_UD = N_UD_MASKS * N_UD * N_BIT                         # 5,644,800


def _move_parts():
    """Per pairs move: (ma, mbA, bit flip) as maps of A indices."""
    p = partner()
    back = dict((b, a) for a, b in enumerate(p))
    flips = corner_flips(PAIR_MOVES)
    parts = []
    for (ma, mb), flip in zip(orbit_maps(PAIR_MOVES), flips):
        mba = tuple(back[mb[p[i]]] for i in range(len(ma)))
        parts.append((ma, mba, permutation_parity(ma) ^ flip))
    return parts


def _moved(rho, part):
    ma, mba, _ = part
    new = [0] * len(rho)
    for i, j in enumerate(rho):
        new[ma[i]] = mba[j]
    return new


def _sub_rank(rho, indices):
    where = dict((s, k) for k, s in enumerate(indices))
    return perm_rank([where[rho[s]] for s in indices])


def _with_sub(rho, indices, rank):
    for s, k in zip(indices, perm_unrank(rank, len(indices))):
        rho[s] = indices[k]
    return rho


def _identity():
    return list(range(len(ORBIT_A)))


def ud_moves(parts):
    """The UD move table: entry rank * N_MOVES + move (a list of N_UD * N_MOVES ranks)."""
    table = []
    for r in range(N_UD):
        rho = _with_sub(_identity(), UD_A, r)
        table.extend(_sub_rank(_moved(rho, part), UD_A) for part in parts)
    return table


def e_moves(parts):
    """e_moves[move][E rank] -> E rank after the move (small; made when needed)."""
    return [[_sub_rank(_moved(_with_sub(_identity(), E_A, r), part), E_A) for r in range(N_E)]
            for part in parts]


def build_moves(path, progress=None):
    """Write 4x4-pairs-moves."""
    if progress:
        progress("{} U/D ranks x {} moves".format(N_UD, N_MOVES))
    write_words(path, ud_moves(_move_parts()))


class PairCentres(object):
    """Rank 0 .. N_PAIR_CENTRES - 1 of the centre configurations the pairs moves reach.

    rank(masks) is None for any other configuration; unrank(rank) -> masks.
    """

    def __init__(self, centre_stage=None, mover=None):
        self.cs = centre_stage or CentreStage()
        self.mover = mover or MaskMover(PAIR_MOVES)
        goals = [self.cs.unrank(g) for g in self.cs.goals()]
        self.side = []                     # per side axis: CombCoord rank -> 0..11 or None
        self.side_masks = []               # per side axis: the 12 masks in rank order
        for axis in (1, 2):
            masks = self._reached(set(g[axis] for g in goals))
            if len(masks) != N_SIDE_MASKS:
                raise TableError("the pairs moves reach {} centre masks on axis {}, expected {}: "
                                 "the move model is broken".format(len(masks), axis, N_SIDE_MASKS))
            coord = self.cs.coords[axis]
            index = [None] * coord.size
            for k, mask in enumerate(masks):
                index[coord.rank(mask)] = k
            self.side.append(index)
            self.side_masks.append(masks)

    def _reached(self, masks):
        seen, frontier = set(masks), list(masks)
        while frontier:
            frontier = [t for m in frontier for t in
                        (self.mover.apply(m, i) for i in range(N_MOVES)) if t not in seen]
            seen.update(frontier)
            frontier = sorted(set(frontier))
        return sorted(seen)

    def rank(self, masks):
        r = self.side[0][self.cs.coords[1].rank(masks[1])]
        f = self.side[1][self.cs.coords[2].rank(masks[2])]
        if r is None or f is None:
            return None
        return (self.cs.coords[0].rank(masks[0]) * N_SIDE_MASKS + r) * N_SIDE_MASKS + f

    def unrank(self, rank):
        rest, f = divmod(rank, N_SIDE_MASKS)
        u, r = divmod(rest, N_SIDE_MASKS)
        return (self.cs.coords[0].unrank(u), self.side_masks[0][r], self.side_masks[1][f])


class PairsTable(object):
    """Table spec of 4x4-pairs: (UD rank, E rank, bit) to the identity with bit 0."""

    table = "4x4-pairs"
    size = N_PAIRS

    def __init__(self):
        parts = _move_parts()
        self.ud = ud_moves(parts)
        self.e = e_moves(parts)
        self.flips = [part[2] for part in parts]

    @staticmethod
    def goals():
        return [0]

    def neighbours(self, index):
        ud, rest = divmod(index, N_E * N_BIT)
        e, bit = divmod(rest, N_BIT)
        row = ud * N_MOVES
        return [(self.ud[row + i] * N_E + self.e[i][e]) * N_BIT + (bit ^ self.flips[i])
                for i in range(N_MOVES)]


class PairsCentresTable(object):
    """Table spec of 4x4-pairs-centres: (centres, E rank, bit) to solved centres, E, bit 0."""

    table = "4x4-pairs-centres"
    size = N_PAIRS_CENTRES

    def __init__(self):
        self.mover = MaskMover(PAIR_MOVES)
        self.pc = PairCentres(mover=self.mover)
        parts = _move_parts()
        self.e = e_moves(parts)
        self.flips = [part[2] for part in parts]

    def goals(self):
        cs = self.pc.cs
        return sorted(self.pc.rank(cs.unrank(g)) * N_E * N_BIT for g in cs.goals())

    def neighbours(self, index):
        c, rest = divmod(index, N_E * N_BIT)
        e, bit = divmod(rest, N_BIT)
        x, y, z = self.pc.unrank(c)
        move, rank = self.mover.apply, self.pc.rank
        return [(rank((move(x, i), move(y, i), move(z, i))) * N_E + self.e[i][e]) * N_BIT +
                (bit ^ self.flips[i]) for i in range(N_MOVES)]


class PairsUDTable(object):
    """Table spec of 4x4-pairs-ud: (U/D centre mask, UD rank, bit) to U/D centres solved,
    rho_UD the identity and bit 0."""

    table = "4x4-pairs-ud"
    size = N_PAIRS_UD

    def __init__(self):
        parts = _move_parts()
        self.ud = ud_moves(parts)
        self.flips = [part[2] for part in parts]
        self.coord = CentreStage().coords[0]
        mover = MaskMover(PAIR_MOVES)
        coord = self.coord
        self.mask_moves = [[coord.rank(mover.apply(coord.unrank(r), i)) for r in range(N_UD_MASKS)]
                           for i in range(N_MOVES)]

    def goals(self):
        return sorted(set(self.coord.rank(mask_of_slots(FACE_SLOTS[face])) * N_UD * N_BIT
                          for face in "UD"))

    def neighbours(self, index):
        u, rest = divmod(index, N_UD * N_BIT)
        r, bit = divmod(rest, N_BIT)
        row, ud, masks = r * N_MOVES, self.ud, self.mask_moves
        return [(masks[i][u] * N_UD + ud[row + i]) * N_BIT + (bit ^ self.flips[i])
                for i in range(N_MOVES)]


class PairsSearch(object):
    """The stage's search: state (centre masks, UD rank, E rank, bit); tables t[rank]."""

    def __init__(self, move_table, pairs_table, centres_table, ud_table, centre_stage=None):
        self.ud = move_table.words()
        self.pt = pairs_table
        self.ct = centres_table
        self.ut = ud_table
        self.nibbles = pairs_table.nibbles() + centres_table.nibbles() + ud_table.nibbles()
        self.moves = list(PAIR_MOVES)
        self.mover = MaskMover(self.moves)
        self.pc = PairCentres(centre_stage, self.mover)
        self.ud_mask, self.r_coord, self.f_coord = self.pc.cs.coords
        parts = _move_parts()
        self.e = e_moves(parts)
        self.flips = [part[2] for part in parts]
        self.edge_at = [s >> 1 for s in ORBIT_A]
        self.back = dict((b, a) for a, b in enumerate(partner()))
        self.model = self._model(move_table, pairs_table, centres_table, ud_table)

    def _model(self, move_table, pairs_table, centres_table, ud_table):
        """The stage as a search.CoordModel over (U/D mask, R/L mask, F/B mask, UD rank,
        E rank, bit) (coords()): the same moves and the same bound as apply and heuristic."""
        def mask_rows(coord):
            return Rows.of([coord.rank(self.mover.apply(coord.unrank(r), i))
                            for r in range(coord.size) for i in range(N_MOVES)], coord.size)

        e_rows = Rows.of([self.e[i][r] for r in range(N_E) for i in range(N_MOVES)], N_E)
        bit_rows = Rows.of([b ^ self.flips[i] for b in range(N_BIT) for i in range(N_MOVES)], N_BIT)
        rows = [mask_rows(self.ud_mask), mask_rows(self.r_coord), mask_rows(self.f_coord),
                Rows(move_table.mm, HEADER.size, WORD_BYTES, N_UD, self.ud), e_rows, bit_rows]
        u, r, f, ud, e, bit = range(len(rows))
        per_c = N_E * N_BIT
        tables = [DistanceTable(pairs_table.mm, HEADER.size, 4,
                                ((ud, per_c, None), (e, N_BIT, None), (bit, 1, None))),
                  DistanceTable(centres_table.mm, HEADER.size, 4,
                                ((u, N_SIDE_MASKS * N_SIDE_MASKS * per_c, None),
                                 (r, N_SIDE_MASKS * per_c, self.pc.side[0]),
                                 (f, per_c, self.pc.side[1]), (e, N_BIT, None), (bit, 1, None))),
                  DistanceTable(ud_table.mm, HEADER.size, 4,
                                ((u, N_UD * N_BIT, None), (ud, N_BIT, None), (bit, 1, None)))]
        return CoordModel(self.moves, rows, tables)

    def coords(self, state):
        """The CoordModel state (model) of a search state."""
        masks, ud, e, bit = state
        return (self.ud_mask.rank(masks[0]), self.r_coord.rank(masks[1]),
                self.f_coord.rank(masks[2]), ud, e, bit)

    def start(self, orbit_state):
        """The search state of an orbits.OrbitMover state."""
        masks, a, b, corner_parity = orbit_state
        rho = _identity()
        for e in range(len(a)):
            rho[a[e]] = self.back[b[e]]
        bit = permutation_parity([self.edge_at[x] for x in a]) ^ corner_parity
        state = (masks, _sub_rank(rho, UD_A), _sub_rank(rho, E_A), bit)
        if self.pc.rank(masks) is None or self.heuristic(state) >= self.pt.unreached:
            raise TableError("the slice stage left a cube the pairs moves cannot finish "
                             "(tables {} / {} / {}): run `cubebot tables build`".format(
                                 PairsTable.table, PairsCentresTable.table, PairsUDTable.table))
        return state

    def apply(self, state, i):
        masks, ud, e, bit = state
        return (self.mover.apply3(masks, i),
                self.ud[ud * N_MOVES + i], self.e[i][e], bit ^ self.flips[i])

    def heuristic(self, state):
        """max of the three tables; the U/D mask is ranked once for both that use it
        (PairCentres.rank inlined: every state the pairs moves reach has a rank)."""
        masks, ud, e, bit = state
        pt, pt_at, ct, ct_at, ut, ut_at = self.nibbles        # the three tables read inline
        r = (ud * N_E + e) * N_BIT + bit
        x = (pt[pt_at + (r >> 1)] >> ((r & 1) << 2)) & 15
        u = self.ud_mask.rank(masks[0])
        pc = self.pc
        c = ((u * N_SIDE_MASKS + pc.side[0][self.r_coord.rank(masks[1])]) * N_SIDE_MASKS +
             pc.side[1][self.f_coord.rank(masks[2])])
        r = (c * N_E + e) * N_BIT + bit
        y = (ct[ct_at + (r >> 1)] >> ((r & 1) << 2)) & 15
        if y > x:
            x = y
        r = (u * N_UD + ud) * N_BIT + bit
        y = (ut[ut_at + (r >> 1)] >> ((r & 1) << 2)) & 15
        return x if x > y else y
