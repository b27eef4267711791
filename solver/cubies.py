"""Cubie level: corners and edges, converted from and to facelets.

Corner positions, in kociemba's order: URF UFL ULB UBR DFR DLF DBL DRB.
Edge positions (3x3x3 and the middle edges of odd cubes): UR UF UL UB DR DF
DL DB FR FL BL BR.

A CubieCube is four tuples:
  cp[i]  which corner sits at corner position i
  co[i]  its twist: 0, 1 or 2 = which of its facelets holds the U/D colour
  ep[i]  which edge sits at edge position i
  eo[i]  its flip: 0 or 1

`from_facelets` checks every piece and raises InvalidCube with a message
such as "corner at URF has colours U,R,U: no such piece". The state must
already use the face letters URFDLB as its symbols (see solver.orient).
"""

from collections import namedtuple

from cubebot.solver.errors import InvalidCube
from cubebot.solver.facelets import FACES, face_index, geometry

CORNER_NAMES = ("URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB")
EDGE_NAMES = ("UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR")
N_CORNERS = len(CORNER_NAMES)
N_EDGES = len(EDGE_NAMES)

# Facelets of each corner position, clockwise, the U/D facelet first, as
# (face, row, col) with "L" meaning the last row/column, "M" the middle.
_CORNER_SPOTS = (
    (("U", "L", "L"), ("R", 0, 0), ("F", 0, "L")),
    (("U", "L", 0), ("F", 0, 0), ("L", 0, "L")),
    (("U", 0, 0), ("L", 0, 0), ("B", 0, "L")),
    (("U", 0, "L"), ("B", 0, 0), ("R", 0, "L")),
    (("D", 0, "L"), ("F", "L", "L"), ("R", "L", 0)),
    (("D", 0, 0), ("L", "L", "L"), ("F", "L", 0)),
    (("D", "L", 0), ("B", "L", "L"), ("L", "L", 0)),
    (("D", "L", "L"), ("R", "L", "L"), ("B", "L", 0)),
)
_EDGE_SPOTS = (
    (("U", "M", "L"), ("R", 0, "M")),
    (("U", "L", "M"), ("F", 0, "M")),
    (("U", "M", 0), ("L", 0, "M")),
    (("U", 0, "M"), ("B", 0, "M")),
    (("D", "M", "L"), ("R", "L", "M")),
    (("D", 0, "M"), ("F", "L", "M")),
    (("D", "M", 0), ("L", "L", "M")),
    (("D", "L", "M"), ("B", "L", "M")),
    (("F", "M", "L"), ("R", "M", 0)),
    (("F", "M", 0), ("L", "M", "L")),
    (("B", "M", "L"), ("L", "M", 0)),
    (("B", "M", 0), ("R", "M", "L")),
)

CubieCube = namedtuple("CubieCube", ["cp", "co", "ep", "eo"])


def _spot_index(spot, n):
    face, row, col = spot
    pick = {"L": n - 1, "M": n // 2}
    return face_index(face, pick.get(row, row), pick.get(col, col), n)


def corner_facelets(n):
    """Facelet indices of the 8 corners of an NxNxN cube, U/D facelet first."""
    return [tuple(_spot_index(s, n) for s in spots) for spots in _CORNER_SPOTS]


def edge_facelets(n):
    """Facelet indices of the 12 middle edges of an odd cube."""
    if n % 2 == 0:
        raise InvalidCube("a {}x{}x{} cube has no middle edges".format(n, n, n))
    return [tuple(_spot_index(s, n) for s in spots) for spots in _EDGE_SPOTS]


def cubie_of(position, n):
    """The doubled-unit position of the cubie that carries a facelet at `position`."""
    return tuple(c - 1 if c == n else (c + 1 if c == -n else c) for c in position)


def edge_wings(n):
    """The wing positions of an NxNxN cube (N >= 4): the one wing geometry.

    A list per edge (EDGE_NAMES order) of (first, second) facelet pairs, the
    first on the edge's first face (U/D, or F/B for the middle layer), ordered
    by that facelet's place along the edge (k = 1..N-2, the middle edge of an
    odd cube left out); the second is the facelet of the same cubie.
    """
    geo = geometry(n)
    cubie_facelets = {}
    for index, pos in enumerate(geo.positions):
        cubie_facelets.setdefault(cubie_of(pos, n), []).append(index)
    result = []
    for first, _ in _EDGE_SPOTS:
        pairs = []
        for k in range(1, n - 1):
            if n % 2 and k == n // 2:
                continue
            spot = tuple(k if v == "M" else v for v in first)
            a = _spot_index(spot, n)
            other = [i for i in cubie_facelets[cubie_of(geo.positions[a], n)] if i != a]
            pairs.append((a, other[0]))
        result.append(pairs)
    return result


def _solved_colours(names):
    return [tuple(name) for name in names]


def _read_pieces(state, spots, names, kind):
    """Identify the piece at each position: (piece numbers, orientations).

    `kind` is "corner" or "edge", for messages. Raises InvalidCube naming the
    position for a piece that cannot exist, a mirror piece, or a duplicate.
    """
    colours = _solved_colours(names)
    size = len(colours[0])
    perm, ori = [], []
    seen = {}
    for pos, facelets in enumerate(spots):
        got = tuple(state[i] for i in facelets)
        found = None
        for o in range(size):
            rotated = got[o:] + got[:o]
            if rotated in colours:
                found = (colours.index(rotated), o)
                break
        if found is None:
            desc = "{} at {} has colours {}".format(kind, names[pos], ",".join(got))
            if sorted(got) in [sorted(c) for c in colours]:
                raise InvalidCube(desc + ": a mirror-image piece (two stickers swapped)")
            raise InvalidCube(desc + ": no such piece")
        piece, o = found
        if piece in seen:
            raise InvalidCube("{} {} appears twice, at {} and {}".format(
                kind, names[piece], names[seen[piece]], names[pos]))
        seen[piece] = pos
        perm.append(piece)
        ori.append(o)
    return perm, ori


def parity(perm):
    """0 for an even permutation, 1 for an odd one."""
    perm = list(perm)
    odd = 0
    for i in range(len(perm)):
        while perm[i] != i:
            j = perm[i]
            perm[i], perm[j] = perm[j], perm[i]
            odd ^= 1
    return odd


def from_facelets(state, n):
    """The CubieCube of a URFDLB-lettered 2x2x2 or 3x3x3 state, fully checked.

    For the 2x2x2, ep and eo are empty. Raises InvalidCube for any piece that
    cannot exist, a twisted corner, a flipped edge or odd parity.
    """
    if n not in (2, 3):
        raise InvalidCube("piece checks cover the 2x2x2 and 3x3x3, not {}x{}x{}".format(n, n, n))
    cp, co = _read_pieces(state, corner_facelets(n), CORNER_NAMES, "corner")
    ep, eo = [], []
    if n == 3:
        ep, eo = _read_pieces(state, edge_facelets(n), EDGE_NAMES, "edge")
    twist = sum(co) % 3
    if twist:
        raise InvalidCube("corners are twisted: total twist is {}, must be 0 (mod 3); "
                          "one corner is turned in place".format(twist))
    flip = sum(eo) % 2
    if flip:
        raise InvalidCube("an edge is flipped: total flip is 1, must be 0 (mod 2)")
    if n == 3 and parity(cp) != parity(ep):
        raise InvalidCube("permutation parity is odd: two pieces are swapped "
                          "(corner parity {}, edge parity {})".format(parity(cp), parity(ep)))
    return CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo))


def to_facelets(cube, n):
    """The URFDLB state string of a CubieCube (centres solved on a 3x3x3)."""
    state = list("".join(face * (n * n) for face in FACES))
    for pos, facelets in enumerate(corner_facelets(n)):
        piece, o = cube.cp[pos], cube.co[pos]
        name = CORNER_NAMES[piece]
        for k, idx in enumerate(facelets):
            state[idx] = name[(k - o) % 3]
    if n == 3:
        for pos, facelets in enumerate(edge_facelets(n)):
            piece, o = cube.ep[pos], cube.eo[pos]
            name = EDGE_NAMES[piece]
            for k, idx in enumerate(facelets):
                state[idx] = name[(k + o) % 2]
    return "".join(state)
