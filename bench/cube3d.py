"""An independent NxNxN cube model, for checking the solver's answers from outside.

Written apart from `solver/` and importing nothing from it, with another
representation: the cube is a list of stickers, each an integer cubie position
(x, y, z) in 0..N-1 (x from L to R, y from D to U, z from B to F) with an
outward unit normal; a move rotates the stickers of the layers it turns by an
integer rotation matrix. Only the facelet string convention (URFDLB faces, each
row-major as drawn in the net of docs/architecture.md) and the move notation
are shared with the project, because they are the interface being checked.

Notation: U R F D L B (outer face, clockwise seen from that face), ' and 2
suffixes; Xw and lower-case x = the 2 outer layers; kXw = the k outer layers;
kX = the k-th layer alone; x y z = the whole cube turned like R, U, F.
"""

import re

FACE_ORDER = "URFDLB"
NORMAL = {"U": (0, 1, 0), "D": (0, -1, 0), "R": (1, 0, 0), "L": (-1, 0, 0),
          "F": (0, 0, 1), "B": (0, 0, -1)}
ROTATION_AS = {"x": "R", "y": "U", "z": "F"}

_TOKEN = re.compile(r"^(\d*)([URFDLBurfdlbxyz])(w?)(2'|'2|2|'|)$")


class NotationError(ValueError):
    """A move token this model cannot read."""


def _sticker_place(face, row, col, n):
    """The cubie (x, y, z) in 0..n-1 under facelet `row`, `col` of `face` as drawn in the net."""
    top, m = n - 1, n - 1 - row               # m: height on a side face (row 0 at the top)
    if face == "U":
        return (col, top, row)                # row 0 at the back
    if face == "D":
        return (col, 0, top - row)            # row 0 at the front
    if face == "F":
        return (col, m, top)
    if face == "B":
        return (top - col, m, 0)              # col 0 at the right
    if face == "R":
        return (top, m, top - col)            # col 0 at the front
    return (0, m, col)                        # L: col 0 at the back


def _quarter_matrix(axis_normal):
    """The integer matrix of a clockwise quarter turn seen from the tip of `axis_normal`."""
    # rows of R for a turn by -90 degrees about a unit axis a: v -> a(a.v) - a x v
    a = axis_normal
    columns = []
    for e in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
        dot = a[0] * e[0] + a[1] * e[1] + a[2] * e[2]
        cross = (a[1] * e[2] - a[2] * e[1], a[2] * e[0] - a[0] * e[2], a[0] * e[1] - a[1] * e[0])
        columns.append(tuple(a[i] * dot - cross[i] for i in range(3)))
    return tuple(tuple(columns[j][i] for j in range(3)) for i in range(3))


def _times(matrix, v):
    return tuple(matrix[i][0] * v[0] + matrix[i][1] * v[1] + matrix[i][2] * v[2] for i in range(3))


_QUARTER = dict((face, _quarter_matrix(normal)) for face, normal in NORMAL.items())


class Move(object):
    """Layers `first`..`last` (1 = the face's own layer) counted from `face`, turned `quarters`
    clockwise quarter turns; last None = every layer (a whole-cube rotation)."""

    __slots__ = ("face", "first", "last", "quarters", "token")

    def __init__(self, face, first, last, quarters, token):
        self.face, self.first, self.last, self.quarters, self.token = face, first, last, quarters, token


def parse_move(token):
    """One Move from a token such as R, Uw', 3Fw2, 2R, r, x'."""
    m = _TOKEN.match(token)
    if not m:
        raise NotationError("not a move: {!r}".format(token))
    digits, letter, wide, suffix = m.groups()
    quarters = {"": 1, "'": 3, "2": 2, "2'": 2, "'2": 2}[suffix]
    layers = int(digits) if digits else None
    if letter in ROTATION_AS:
        if digits or wide:
            raise NotationError("a rotation takes no layer count: {!r}".format(token))
        return Move(ROTATION_AS[letter], 1, None, quarters, token)
    if letter.islower():
        if digits or wide:
            raise NotationError("write {}w, not {!r}".format(letter.upper(), token))
        return Move(letter.upper(), 1, 2, quarters, token)
    if layers is not None and layers < 1:
        raise NotationError("layer count below 1: {!r}".format(token))
    if wide:
        return Move(letter, 1, 2 if layers is None else layers, quarters, token)
    if layers is None:
        return Move(letter, 1, 1, quarters, token)
    return Move(letter, layers, layers, quarters, token)


def parse(text):
    """The Moves of a whitespace-separated move string (or a list of tokens)."""
    tokens = text.split() if isinstance(text, str) else list(text)
    return [parse_move(t) for t in tokens]


class Cube(object):
    """An NxNxN cube: stickers[k] = [x, y, z, normal, colour]."""

    def __init__(self, n, stickers):
        self.n = n
        self.stickers = stickers

    @classmethod
    def from_facelets(cls, text):
        """A cube from a URFDLB facelet string (any six symbols)."""
        n = 0
        while 6 * n * n < len(text):
            n += 1
        if n < 1 or 6 * n * n != len(text):
            raise ValueError("{} facelets is not 6*N*N".format(len(text)))
        stickers, k = [], 0
        for face in FACE_ORDER:
            for row in range(n):
                for col in range(n):
                    x, y, z = _sticker_place(face, row, col, n)
                    stickers.append([x, y, z, NORMAL[face], text[k]])
                    k += 1
        return cls(n, stickers)

    @classmethod
    def solved(cls, n):
        return cls.from_facelets("".join(face * n * n for face in FACE_ORDER))

    def facelets(self):
        """The URFDLB facelet string of the cube as it stands."""
        n = self.n
        where = {}
        for x, y, z, normal, colour in self.stickers:
            where[(x, y, z, normal)] = colour
        out = []
        for face in FACE_ORDER:
            for row in range(n):
                for col in range(n):
                    out.append(where[_sticker_place(face, row, col, n) + (NORMAL[face],)])
        return "".join(out)

    def _in_layers(self, sticker, move):
        """Is the sticker's cubie in the layers `move` turns?"""
        if move.last is None:
            return True
        a = NORMAL[move.face]
        axis = 0 if a[0] else (1 if a[1] else 2)
        coord = sticker[axis]
        layer = self.n - coord if a[axis] > 0 else coord + 1       # 1 = the face's own layer
        return move.first <= layer <= move.last

    def turn(self, move):
        """Apply one Move (or token) in place; ValueError if its layers are not on this cube."""
        if isinstance(move, str):
            move = parse_move(move)
        last = self.n if move.last is None else move.last
        if not 1 <= move.first <= last <= self.n:
            raise ValueError("{} turns layers {}..{} of a {}-layer cube".format(
                move.token, move.first, last, self.n))
        matrix = _QUARTER[move.face]
        twice = self.n - 1                                          # centre at twice/2
        for s in self.stickers:
            if not self._in_layers(s, move):
                continue
            p = (2 * s[0] - twice, 2 * s[1] - twice, 2 * s[2] - twice)
            normal = s[3]
            for _ in range(move.quarters):
                p, normal = _times(matrix, p), _times(matrix, normal)
            s[0], s[1], s[2] = (p[0] + twice) // 2, (p[1] + twice) // 2, (p[2] + twice) // 2
            s[3] = normal
        return self

    def apply(self, moves):
        """Apply a move string or a list of Moves/tokens in place; returns self."""
        for m in (parse(moves) if isinstance(moves, str) else moves):
            self.turn(m)
        return self

    def is_solved(self):
        """Every face shows one colour (in any orientation of the whole cube)."""
        faces = {}
        for sticker in self.stickers:
            faces.setdefault(sticker[3], set()).add(sticker[4])
        return all(len(c) == 1 for c in faces.values()) and len(
            set(next(iter(c)) for c in faces.values())) == 6


def apply(facelets, moves):
    """The facelet string after `moves` (a string or a token list)."""
    return Cube.from_facelets(facelets).apply(moves).facelets()


def solves(facelets, moves):
    """True if `moves` take the cube `facelets` to a solved cube."""
    return Cube.from_facelets(facelets).apply(moves).is_solved()


def random_layer_turns(n, rng, length):
    """`length` random single-layer turns (every layer of every axis, inner slices and the
    middle slice included, any of 1-3 quarters), no two in a row on one axis, as tokens."""
    tokens, last_axis = [], None
    while len(tokens) < length:
        face = FACE_ORDER[rng.randrange(6)]
        axis = FACE_ORDER.index(face) % 3
        if axis == last_axis:
            continue
        layer = rng.randrange(1, n + 1)
        if 2 * layer > n + 1:                   # count from the nearer face
            face = "DLBURF"[FACE_ORDER.index(face)]
            layer = n + 1 - layer
        suffix = ("", "2", "'")[rng.randrange(3)]
        tokens.append(("" if layer == 1 else str(layer)) + face + suffix)
        last_axis = axis
    return tokens
