"""The 4x4x4 seen by the reduction solver: pieces, the fixed frame, move sets.

Fixed frame: a 4x4x4 has no fixed centres, so the solver keeps the DLB corner
still and turns only layer blocks that do not hold it. Its generators are
U, Uw, 3Uw, R, Rw, 3Rw, F, Fw, 3Fw, each a quarter, half or anti-quarter turn
(27 moves, each one block turn in OBTM). 3Uw leaves the D layer alone, so
turning it is, up to a whole-cube rotation, the outer turn D; `to_physical`
rewrites a fixed-frame sequence into outer and wide turns only.

Facelet sets (indices into the 96-character state, face*16 + row*4 + col):
  CENTRES  the 24 centre facelets, in index order; centre k is CENTRES[k]
  WINGS    the 24 wing slots, each a pair (facelet, facelet) with the first
           on the U/D face, or on F/B for the middle-layer edges
  PARTNER  PARTNER[s] is the other wing slot of the same edge as slot s
  EDGE_OF  EDGE_OF[s] the edge (0..11, cubies.EDGE_NAMES order) of slot s
"""

from cubebot.solver.cubies import corner_facelets, edge_wings
from cubebot.solver.facelets import FACES, OPPOSITE, face_index, relabel
from cubebot.solver.moves import Move, apply, parse, permutation, rotated_faces

N = 4
N_FACELETS = 6 * N * N
FRAME_FACES = "URF"
DEPTHS = (1, 2, 3)
TURNS = (1, 2, 3)

# The generators, in a fixed order: face-major, then depth, then turns.
GENERATORS = tuple(Move(f, 1, d, t) for f in FRAME_FACES for d in DEPTHS for t in TURNS)


def _centres():
    return tuple(face_index(f, r, c, N) for f in FACES for r in (1, 2) for c in (1, 2))


def _wings():
    slots, edge_of = [], []
    for e, pairs in enumerate(edge_wings(N)):
        for pair in pairs:
            slots.append(pair)
            edge_of.append(e)
    return tuple(slots), tuple(edge_of)


CENTRES = _centres()
WINGS, EDGE_OF = _wings()
PARTNER = tuple(s ^ 1 for s in range(len(WINGS)))
CORNERS = tuple(corner_facelets(N))
N_CENTRES = len(CENTRES)
N_WINGS = len(WINGS)


def centre_perm(move):
    """The move as a permutation of centre slots: new[k] = old[p[k]]."""
    perm = permutation(move, N)
    where = dict((f, k) for k, f in enumerate(CENTRES))
    return tuple(where[perm[f]] for f in CENTRES)


def wing_map(move):
    """The move as a map of wing slots: the piece at slot s goes to slot m[s]."""
    perm = permutation(move, N)
    first = dict((pair[0], s) for s, pair in enumerate(WINGS))
    second = dict((pair[1], s) for s, pair in enumerate(WINGS))
    result = [None] * N_WINGS
    for s, (a, _) in enumerate(WINGS):
        # perm[i] = j means the facelet at j moves to i.
        target = perm.index(a)
        result[s] = first.get(target, second.get(target))
    return tuple(result)


def centre_colours(state):
    """The 24 centre symbols of a state, in CENTRES order."""
    return "".join(state[f] for f in CENTRES)


def wing_colours(state):
    """The (first, second) symbol pair shown at each wing slot."""
    return [(state[a], state[b]) for a, b in WINGS]


# Whole-cube rotation bookkeeping for to_physical: a frame maps each fixed-
# frame face to the physical face it lies on.
_QUARTER = {
    "U": {"F": "L", "L": "B", "B": "R", "R": "F"},
    "R": {"U": "B", "B": "D", "D": "F", "F": "U"},
    "F": {"U": "R", "R": "D", "D": "L", "L": "U"},
}


def _rotate_frame(frame, axis_face, turns):
    """The frame after the whole cube turned `turns` quarters about axis_face."""
    if axis_face not in _QUARTER:
        axis_face, turns = OPPOSITE[axis_face], (4 - turns) % 4
    step = _QUARTER[axis_face]
    for _ in range(turns % 4):
        frame = dict((f, step.get(p, p)) for f, p in frame.items())
    return frame


def to_physical(moves):
    """Rewrite fixed-frame moves as outer/wide turns (no rotations, no 3-layer turns).

    The result, applied to the same cube, gives the same state up to a
    whole-cube rotation; returns (moves, frame) where frame maps each fixed-
    frame face to the physical face it ends on.
    """
    frame = dict((f, f) for f in FACES)
    result = []
    for m in moves:
        face = frame[m.face]
        if m.last == 3:
            # 3 layers of `face` = the opposite outer layer turned the same way
            # as seen from its own side, then the whole cube turned with face.
            result.append(Move(OPPOSITE[face], 1, 1, m.turns))
            frame = _rotate_frame(frame, face, 4 - m.turns)
        else:
            result.append(Move(face, m.first, m.last, m.turns))
    return result, frame


def permutation_parity(mapping):
    """0 if the map of slots (a permutation) is even, 1 if odd."""
    seen = [False] * len(mapping)
    odd = 0
    for start in range(len(mapping)):
        length = 0
        s = start
        while not seen[s]:
            seen[s] = True
            s = mapping[s]
            length += 1
        if length:
            odd ^= (length - 1) & 1
    return odd


# The moves of the edge stages (the "centre frame"): every outer turn and the
# wide half turns, which keep each centre colour on its axis.
EDGE_MOVES = tuple([Move(f, 1, 1, t) for f in FACES for t in TURNS] +
                   [Move(f, 1, 2, 2) for f in FACES])


class Turned(object):
    """A lettered cube seen after a whole-cube rotation, and moves brought back.

    seen(state) is the state turned by `rotation` with its colours renamed
    after the faces they now lie on, so that it is again a cube in the URFDLB
    lettering (a conjugate); a move found for it turns face g there, which is
    face back[g] of the original cube, the same way.
    """

    def __init__(self, rotation):
        self.rotation = parse(rotation)
        self.back = rotated_faces(rotation)
        # the colour now at the centre of face g (that of face back[g]) is renamed g
        self.rename = dict((c, g) for g, c in self.back.items())

    def seen(self, state):
        return relabel(apply(state, self.rotation, N), self.rename)

    def moves_back(self, moves):
        return [Move(self.back[m.face], m.first, m.last, m.turns) for m in moves]
