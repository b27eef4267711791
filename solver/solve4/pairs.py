"""The pairs stage (Tsai's step 4): centres solved, every edge paired, no PLL parity.

Runs after the slice stage with orbits.PAIR_MOVES (16): U and D (any turn),
F2, B2, R2, L2 and the six wide half turns. They keep each wing in its orbit
and the E-slice slots among themselves, so the edges are described by:

  rho   the pairing permutation of the A indices: rho[i] = j when the A wing
        at A index i has its B wing at partner[j] (the B slot of the edge
        whose A slot is j). Every edge is paired when rho is the identity.
        rho maps the eight U/D-layer A indices (orbits.UD_A) among
        themselves, rank 0 .. 8! - 1 = 40,319, and the four E-slice ones
        (orbits.E_A), rank 0 .. 23.
  bit   the parity of the edge permutation (read from the A wings) xor the
        parity of the corner permutation: 0 = no PLL parity once reduced.

Moves change rho by rho' = mbA o rho o ma^-1 (ma the move on A indices,
mbA the move on B indices seen through partner) and flip bit by the parity
of ma xor the corner flip.

Tables:
  4x4-pairs-moves    words: UD rank * 16 + move -> UD rank after the move
                     (N_UD * 16 = 645,120 words)
  4x4-pairs          4 bits: (UD rank, E rank, bit), N_PAIRS = 8! * 4! * 2 =
                     1,935,360 ranks; the distance to (identity, 0). The
                     moves reach 161,280 of them (rho even on U/D, rho in V4
                     on E), at most 11 moves.
  4x4-pairs-centres  4 bits: (centres.CentreStage rank, E rank, bit),
                     N_PAIRS_CENTRES = 70^3 * 4! * 2 = 16,464,000 ranks, the
                     distance to solved centres (or turned x2/y2/z2) with
                     rho_E the identity and bit 0. 80,640 are reached (the
                     pairs moves solve 10,080 centre configurations), at
                     most 11 moves.
The search is IDA* with the max of the two distance tables; both are 0
exactly at the goal.
"""

from math import factorial

from ..coords import binomial, perm_rank, perm_unrank
from ..errors import TableError
from ..tables import write_words
from .centres import AXES, PER_AXIS, PER_FACE, CentreStage
from .masks import MaskMover
from .model import permutation_parity
from .orbits import E_A, ORBIT_A, PAIR_MOVES, UD_A, corner_flips, orbit_maps, partner

N_MOVES = len(PAIR_MOVES)                      # 16
N_UD = factorial(len(UD_A))                    # 8! = 40,320
N_E = factorial(len(E_A))                      # 4! = 24
N_BIT = 2
N_PAIRS = N_UD * N_E * N_BIT                   # 1,935,360
N_CENTRE_CONFIGS = binomial(PER_AXIS, PER_FACE) ** len(AXES)   # 70^3 = 343,000
N_PAIRS_CENTRES = N_CENTRE_CONFIGS * N_E * N_BIT               # 16,464,000


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


def ud_moves():
    """The UD move table: entry rank * N_MOVES + move (a list of N_UD * N_MOVES ranks)."""
    parts = _move_parts()
    table = []
    for r in range(N_UD):
        rho = _with_sub(_identity(), UD_A, r)
        table.extend(_sub_rank(_moved(rho, part), UD_A) for part in parts)
    return table


def e_moves():
    """e_moves[move][E rank] -> E rank after the move (small; made when needed)."""
    parts = _move_parts()
    return [[_sub_rank(_moved(_with_sub(_identity(), E_A, r), part), E_A) for r in range(N_E)]
            for part in parts]


def build_moves(path, progress=None):
    """Write 4x4-pairs-moves."""
    if progress:
        progress("{} U/D ranks x {} moves".format(N_UD, N_MOVES))
    write_words(path, ud_moves())


class PairsTable(object):
    """Table spec of 4x4-pairs: (UD rank, E rank, bit) to the identity with bit 0."""

    table = "4x4-pairs"
    size = N_PAIRS

    def __init__(self):
        self.ud = ud_moves()
        self.e = e_moves()
        self.flips = [part[2] for part in _move_parts()]

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

    def __init__(self):
        self.cs = CentreStage()
        self.size = N_PAIRS_CENTRES
        assert self.cs.size == N_CENTRE_CONFIGS
        self.mover = MaskMover(PAIR_MOVES)
        self.e = e_moves()
        self.flips = [part[2] for part in _move_parts()]

    def goals(self):
        return [g * N_E * N_BIT for g in self.cs.goals()]

    def neighbours(self, index):
        c, rest = divmod(index, N_E * N_BIT)
        e, bit = divmod(rest, N_BIT)
        x, y, z = self.cs.unrank(c)
        move, rank = self.mover.apply, self.cs.rank
        return [(rank((move(x, i), move(y, i), move(z, i))) * N_E + self.e[i][e]) * N_BIT +
                (bit ^ self.flips[i]) for i in range(N_MOVES)]


class PairsSearch(object):
    """The stage's search: state (centre masks, UD rank, E rank, bit); tables t[rank]."""

    def __init__(self, move_table, pairs_table, centres_table):
        self.ud = move_table.words()
        self.pt = pairs_table
        self.ct = centres_table
        self.cs = CentreStage()
        self.moves = list(PAIR_MOVES)
        self.mover = MaskMover(self.moves)
        self.e = e_moves()
        self.flips = [part[2] for part in _move_parts()]
        self.edge_at = [s >> 1 for s in ORBIT_A]
        self.back = dict((b, a) for a, b in enumerate(partner()))

    def start(self, orbit_state):
        """The search state of an orbits.OrbitMover state."""
        masks, a, b, corner_parity = orbit_state
        rho = _identity()
        for e in range(len(a)):
            rho[a[e]] = self.back[b[e]]
        bit = permutation_parity([self.edge_at[x] for x in a]) ^ corner_parity
        state = (masks, _sub_rank(rho, UD_A), _sub_rank(rho, E_A), bit)
        if self.heuristic(state) >= self.pt.unreached:
            raise TableError("the slice stage left a cube the pairs moves cannot finish "
                             "(tables {} / {}): run `cubebot tables build`".format(
                                 PairsTable.table, PairsCentresTable.table))
        return state

    def apply(self, state, i):
        masks, ud, e, bit = state
        move = self.mover.apply
        return ((move(masks[0], i), move(masks[1], i), move(masks[2], i)),
                self.ud[ud * N_MOVES + i], self.e[i][e], bit ^ self.flips[i])

    def heuristic(self, state):
        masks, ud, e, bit = state
        x = self.pt[(ud * N_E + e) * N_BIT + bit]
        y = self.ct[(self.cs.rank(masks) * N_E + e) * N_BIT + bit]
        return x if x > y else y
