"""The 5x5x5 seen by the reduction solver: piece slots and the move sets.

A 5x5x5 has fixed centres, so the solver never turns the middle layer: its
moves are outer turns and two-layer wide turns (Rw = R and the slice next to
it), which keep every fixed centre in place. Each counts one move (OBTM).

Facelet sets (indices into the 150-character state, face*25 + row*5 + col):
  X_CENTRES  the 24 X-centre facelets (rows and columns 1 and 3)
  T_CENTRES  the 24 T-centre facelets (row or column 2, next to the centre)
  WINGS      the 24 wing slots, each a pair (facelet, facelet), the first on
             the U/D face or on F/B for the middle-layer edges; slot 2e and
             2e+1 belong to edge e (cubies.EDGE_NAMES order)
  MIDGES     the 12 midge slots, (facelet, facelet) in the same order
  MIDGE_OF   MIDGE_OF[s]: for wing slot s, the midge facelets on the faces of
             its two facelets (the colours a paired wing there must show)

Move sets:
  ALL_MOVES     outer and wide turns of every face (6 x 2 x 3 = 36)
  STAGED_MOVES  the ones that keep every centre colour on its axis: outer
                turns and wide half turns (18 + 6 = 24)
"""

from cubebot.solver.cubies import edge_facelets, edge_wings
from cubebot.solver.facelets import FACES, face_index
from cubebot.solver.moves import Move, permutation

N = 5
TURNS = (1, 2, 3)
HALF = 2

ALL_MOVES = tuple(Move(f, 1, d, t) for f in FACES for d in (1, 2) for t in TURNS)
STAGED_MOVES = tuple(m for m in ALL_MOVES if m.last == 1 or m.turns == HALF)


def _centres(spots):
    return tuple(face_index(f, r, c, N) for f in FACES for r, c in spots)


X_CENTRES = _centres(((1, 1), (1, 3), (3, 1), (3, 3)))
T_CENTRES = _centres(((1, 2), (2, 1), (2, 3), (3, 2)))
N_SLOTS = 24
assert len(X_CENTRES) == len(T_CENTRES) == N_SLOTS


MIDGES = tuple(edge_facelets(N))
WINGS = tuple(pair for edge in edge_wings(N) for pair in edge)
MIDGE_OF = tuple(MIDGES[s // 2] for s in range(len(WINGS)))
N_WINGS = len(WINGS)


def slot_perm(move, slots):
    """The move as a permutation of centre slots: new[k] = old[p[k]]."""
    perm = permutation(move, N)
    where = dict((f, k) for k, f in enumerate(slots))
    return tuple(where[perm[f]] for f in slots)


def x_perm(move):
    """The move as a permutation of the X-centre slots (masks.MaskMover's perm_of)."""
    return slot_perm(move, X_CENTRES)


def t_perm(move):
    """The move as a permutation of the T-centre slots."""
    return slot_perm(move, T_CENTRES)


def wing_map(move):
    """The move as a map of wing slots: the piece at slot s goes to slot m[s]."""
    perm = permutation(move, N)
    first = dict((pair[0], s) for s, pair in enumerate(WINGS))
    second = dict((pair[1], s) for s, pair in enumerate(WINGS))
    result = []
    for a, _ in WINGS:
        target = perm.index(a)
        result.append(first.get(target, second.get(target)))
    return tuple(result)


def colours(state, slots):
    """The symbols of a state at these facelets, as a string."""
    return "".join(state[f] for f in slots)
