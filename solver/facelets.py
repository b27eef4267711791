"""The NxNxN facelet model: the URFDLB net, facelet geometry and relabelling.

A state is a string of 6*N*N symbols: the faces in the order U, R, F, D, L, B,
each face row-major as drawn in the net of docs/architecture.md (kociemba's
convention, generalised to N). Facelet index i lies on face i // (N*N), at
row (i % (N*N)) // N and column i % N.

Geometry: each facelet has an integer position (x, y, z) in doubled units, so
that every coordinate is an integer. x points to R, y to U, z to F. A facelet
on face U has y = N; the facelets of a face lie at odd (N even) or even
(N odd) offsets -(N-1) .. N-1 in the other two axes.
"""

from collections import namedtuple

from cubebot.solver.errors import InvalidCube

FACES = "URFDLB"
OPPOSITE = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}
MIN_SIZE = 2
MAX_SIZE = 9                  # the 8x8x8 and 9x9x9 are solved by solver/big too (docs/solver-big.md)

# Outward normal of each face, in the (x, y, z) frame above.
NORMALS = {
    "U": (0, 1, 0), "D": (0, -1, 0),
    "R": (1, 0, 0), "L": (-1, 0, 0),
    "F": (0, 0, 1), "B": (0, 0, -1),
}

Geometry = namedtuple("Geometry", ["n", "positions", "index_of"])


def size_from_length(length):
    """The N of a state string of `length` symbols; InvalidCube if none fits."""
    for n in range(MIN_SIZE, MAX_SIZE + 1):
        if 6 * n * n == length:
            return n
    allowed = ", ".join(str(6 * n * n) for n in range(MIN_SIZE, MAX_SIZE + 1))
    raise InvalidCube(
        "state has {} facelets: a cube needs one of {}".format(length, allowed))


def solved(n):
    """The solved state of an NxNxN cube with the letters URFDLB."""
    return "".join(face * (n * n) for face in FACES)


def face_index(face, row, col, n):
    """Index into the state string of a facelet on `face` (a letter)."""
    return FACES.index(face) * n * n + row * n + col


def _position(face, row, col, n):
    """The doubled-unit (x, y, z) position of one facelet."""
    a = -(n - 1) + 2 * col       # left-to-right across the drawn face
    b = (n - 1) - 2 * row        # top-to-bottom down the drawn face
    if face == "U":
        return (a, n, -b)
    if face == "D":
        return (a, -n, b)
    if face == "F":
        return (a, b, n)
    if face == "B":
        return (-a, b, -n)
    if face == "R":
        return (n, b, -a)
    return (-n, b, a)            # L


def _build_geometry(n):
    positions = []
    for face in FACES:
        for row in range(n):
            for col in range(n):
                positions.append(_position(face, row, col, n))
    index_of = dict((p, i) for i, p in enumerate(positions))
    return Geometry(n, tuple(positions), index_of)


_GEOMETRIES = {}


def geometry(n):
    """The (cached) facelet positions of an NxNxN cube."""
    geo = _GEOMETRIES.get(n)
    if geo is None:
        check_size(n)
        geo = _GEOMETRIES[n] = _build_geometry(n)
    return geo


def check_size(n):
    """InvalidCube unless MIN_SIZE <= n <= MAX_SIZE."""
    if not isinstance(n, int) or not MIN_SIZE <= n <= MAX_SIZE:
        raise InvalidCube("cube size {!r} is not supported: use {} to {}".format(
            n, MIN_SIZE, MAX_SIZE))


def faces_of(state, n):
    """The six faces of `state` as strings of N*N symbols, in URFDLB order."""
    nn = n * n
    return [state[k * nn:(k + 1) * nn] for k in range(6)]


def check_counts(state, n=None):
    """Check length and symbol counts; return N.

    Raises InvalidCube naming the length, the symbol set or the first symbol
    whose count is not N*N.
    """
    if not isinstance(state, str):
        raise InvalidCube("state must be a string of facelet symbols, not {}".format(
            type(state).__name__))
    if n is None:
        n = size_from_length(len(state))
    elif len(state) != 6 * n * n:
        raise InvalidCube("state has {} facelets: a {}x{}x{} cube needs {}".format(
            len(state), n, n, n, 6 * n * n))
    symbols = sorted(set(state))
    if len(symbols) != 6:
        raise InvalidCube("state uses {} distinct symbols ({}): a cube needs exactly 6".format(
            len(symbols), "".join(symbols)))
    for sym in symbols:
        count = state.count(sym)
        if count != n * n:
            raise InvalidCube("symbol {!r} appears {} times: each colour must appear {} times".format(
                sym, count, n * n))
    return n


def relabel(state, mapping):
    """Replace every symbol of `state` by mapping[symbol]."""
    return "".join([mapping[s] for s in state])


def centre_labels(state, n):
    """For odd N: the mapping symbol -> face letter read off the centres.

    Raises InvalidCube if two centres show the same symbol.
    """
    if n % 2 == 0:
        raise InvalidCube("a {}x{}x{} cube has no fixed centres".format(n, n, n))
    mid = (n * n) // 2
    mapping = {}
    for k, face in enumerate(FACES):
        sym = state[k * n * n + mid]
        if sym in mapping:
            raise InvalidCube("centres of {} and {} are both {!r}: each centre must differ".format(
                mapping[sym], face, sym))
        mapping[sym] = face
    return mapping


def is_solved(state, n=None):
    """True if every face of `state` shows a single symbol (any orientation)."""
    if n is None:
        n = size_from_length(len(state))
    return all(len(set(f)) == 1 for f in faces_of(state, n))
