"""The two wing orbits of the slice and pairs stages and the moves of the wings stage and after.

Orbit moves (PHASE3_MOVES, 20; the name is historical): U, D, F, B (any
turn), R2, L2 and the six wide half turns, the moves of the slice stage.
They split the 24 wing slots into two orbits of 12,
ORBIT_A and ORBIT_B, with one slot of each edge in each (computed here, and
checked): a wing in an A slot stays in A slots. So an edge can be paired by
the slice and pairs stages only if one of its wings is in an A slot and the other in a B slot;
the wings stage brings the cube there ("wing orientation"). Every orbit move
is an even permutation of the wings, so the wings stage also makes the wing
permutation even (no OLL parity).

Pairs-stage moves (PAIR_MOVES, 16): the orbit moves less the quarter
turns of F and B. They also keep the E-slice wing slots (of the edges FR,
FL, BL, BR: SLICE_EDGES) among themselves: E_A and E_B are the indices in
ORBIT_A / ORBIT_B of those slots, UD_A the other eight A indices.

A cube in the orbit group (PHASE3_MOVES) is followed as an orbit state:
(centre masks, a, b, corner parity) with a[e] / b[e] the index in ORBIT_A /
ORBIT_B of the slot of edge e's A / B wing (its wing in that orbit).
"""

from cubebot.solver.cubies import EDGE_NAMES
from cubebot.solver.errors import UnsolvableCube
from cubebot.solver.moves import Move
from cubebot.solver.solve4.masks import MaskMover
from cubebot.solver.solve4.model import EDGE_MOVES, N_WINGS, wing_map

HALF = 2
QUARTER_TURNS = (1, 2, 3)
PHASE3_MOVES = tuple([Move(f, 1, 1, t) for f in "UDFB" for t in QUARTER_TURNS] +
                     [Move(f, 1, 1, HALF) for f in "RL"] +
                     [m for m in EDGE_MOVES if m.last == 2])
PAIR_MOVES = tuple(m for m in PHASE3_MOVES if not (m.face in "FB" and m.last == 1 and m.turns != HALF))
SLICE_EDGES = tuple(EDGE_NAMES.index(name) for name in ("FR", "FL", "BL", "BR"))


def wing_perm(move):
    """The move as a permutation of wing slots: new[k] = old[p[k]] (masks.MaskMover)."""
    mapping = wing_map(move)
    perm = [0] * N_WINGS
    for s, t in enumerate(mapping):
        perm[t] = s
    return tuple(perm)


def _orbits(moves):
    maps = [wing_map(m) for m in moves]
    orbit = [None] * N_WINGS
    count = 0
    for s in range(N_WINGS):
        if orbit[s] is not None:
            continue
        orbit[s] = count
        stack = [s]
        while stack:
            x = stack.pop()
            for m in maps:
                if orbit[m[x]] is None:
                    orbit[m[x]] = count
                    stack.append(m[x])
        count += 1
    return orbit


def _split():
    orbit = _orbits(PHASE3_MOVES)
    a = tuple(s for s in range(N_WINGS) if orbit[s] == 0)
    b = tuple(s for s in range(N_WINGS) if orbit[s] == 1)
    # Two orbits with one slot of each edge (slots 2e, 2e+1) in each.
    assert len(a) + len(b) == N_WINGS and len(set(x >> 1 for x in a)) == len(a)
    return a, b


ORBIT_A, ORBIT_B = _split()
N_ORBIT = len(ORBIT_A)
E_A = tuple(i for i, s in enumerate(ORBIT_A) if s >> 1 in SLICE_EDGES)
E_B = tuple(i for i, s in enumerate(ORBIT_B) if s >> 1 in SLICE_EDGES)
UD_A = tuple(i for i in range(N_ORBIT) if i not in E_A)


def orbit_maps(moves):
    """Per move, (map of A-slot indices, map of B-slot indices): index i goes to m[i]."""
    where_a = dict((s, i) for i, s in enumerate(ORBIT_A))
    where_b = dict((s, i) for i, s in enumerate(ORBIT_B))
    result = []
    for m in moves:
        w = wing_map(m)
        result.append((tuple(where_a[w[s]] for s in ORBIT_A), tuple(where_b[w[s]] for s in ORBIT_B)))
    return result


def partner():
    """partner[i] = index in ORBIT_B of the other slot of ORBIT_A[i]'s edge."""
    where_b = dict((s, i) for i, s in enumerate(ORBIT_B))
    return tuple(where_b[s ^ 1] for s in ORBIT_A)


def corner_flips(moves):
    """1 for each move that is an odd permutation of the corners (an outer quarter turn)."""
    return [1 if m.first == 1 and m.last == 1 and m.turns != HALF else 0 for m in moves]


class OrbitMover(object):
    """Follows a cube in the orbit group (PHASE3_MOVES) as an orbit state (see the module docstring)."""

    def __init__(self, moves=PHASE3_MOVES):
        self.moves = list(moves)
        self.mover = MaskMover(self.moves)
        self.maps = orbit_maps(self.moves)
        self.flips = corner_flips(self.moves)

    @staticmethod
    def start(masks, pos, corner_parity):
        """The orbit state from centre masks, wing positions (pos[w] = slot of wing w) and
        the corner parity; UnsolvableCube if an edge has both wings in one orbit."""
        where_a = dict((s, i) for i, s in enumerate(ORBIT_A))
        where_b = dict((s, i) for i, s in enumerate(ORBIT_B))
        a, b = [], []
        for e in range(N_ORBIT):
            first, second = pos[2 * e], pos[2 * e + 1]
            if first not in where_a:
                first, second = second, first
            if first not in where_a or second not in where_b:
                raise UnsolvableCube("edge {} has both wings in one orbit: the wing stage did not "
                                     "orient the wings".format(EDGE_NAMES[e]))
            a.append(where_a[first])
            b.append(where_b[second])
        return (masks, tuple(a), tuple(b), corner_parity)

    def apply(self, state, i):
        masks, a, b, cp = state
        ma, mb = self.maps[i]
        return (self.mover.apply3(masks, i),
                tuple([ma[x] for x in a]), tuple([mb[x] for x in b]), cp ^ self.flips[i])

    def follow(self, state, solution):
        """The state after a list of Moves (each one of self.moves)."""
        for move in solution:
            state = self.apply(state, self.moves.index(move))
        return state
