"""Move notation for NxNxN cubes: parse, format, invert, simplify, apply.

Notation (WCA/SiGN):
  U R F D L B        outer face, clockwise as seen looking at that face
  X' X2              anticlockwise, half turn
  Xw, 2Xw, kXw       the k outer layers together (Xw = 2Xw); lower case x is Xw
  kX                 the k-th layer alone (an inner slice), e.g. 2R on a 4x4x4
  x y z              the whole cube, turned like R, U, F

A Move is (face, first, last, turns): the layers first..last counted from
`face` (1 = the outer layer; last = None means all layers, a rotation) turned
`turns` quarter turns clockwise (1, 2 or 3).
"""

import re
from collections import namedtuple

from cubebot.solver.errors import InvalidCube
from cubebot.solver.facelets import FACES, NORMALS, face_index, geometry, size_from_length, solved

Move = namedtuple("Move", ["face", "first", "last", "turns"])

ROTATION_FACE = {"x": "R", "y": "U", "z": "F"}
FACE_ROTATION = dict((v, k) for k, v in ROTATION_FACE.items())
AXIS_OF = {"U": "y", "D": "y", "R": "x", "L": "x", "F": "z", "B": "z"}
SUFFIX = {1: "", 2: "2", 3: "'"}
METRICS = ("htm", "qtm", "obtm")

MAX_LAYER_DIGITS = 3          # a layer count of a 7x7x7 has one digit; more is not a move
_TOKEN = re.compile(r"^([0-9]{0,%d})([URFDLBurfdlbxyz])(w?)(2'|'2|2|'|)$" % MAX_LAYER_DIGITS)


def parse_move(token):
    """One Move from a token such as "R", "Uw'", "3Fw2", "x"."""
    m = _TOKEN.match(token)
    if not m:
        raise InvalidCube("cannot read move {}: expected e.g. R, U', F2, Rw, 3Rw', x".format(
            repr(token) if len(token) <= 20 else repr(token[:17]) + "..."))
    digits, letter, wide, suffix = m.groups()
    turns = {"": 1, "'": 3, "2": 2, "2'": 2, "'2": 2}[suffix]
    if letter in ROTATION_FACE:
        if digits or wide:
            raise InvalidCube("cannot read move {!r}: a rotation takes no layer count".format(token))
        return Move(ROTATION_FACE[letter], 1, None, turns)
    if letter.islower():
        if digits or wide:
            raise InvalidCube("cannot read move {!r}: write {}w instead".format(token, letter.upper()))
        return Move(letter.upper(), 1, 2, turns)
    depth = int(digits) if digits else None
    if depth is not None and depth < 1:
        raise InvalidCube("cannot read move {!r}: layer count must be at least 1".format(token))
    if wide:
        return Move(letter, 1, depth if depth is not None else 2, turns)
    if depth is None:
        return Move(letter, 1, 1, turns)
    return Move(letter, depth, depth, turns)


def parse(text):
    """A list of Moves from a whitespace-separated string (or a list of tokens)."""
    tokens = text.split() if isinstance(text, str) else list(text)
    return [parse_move(t) for t in tokens]


def format_move(move):
    """The token for one Move."""
    face, first, last, turns = move
    suffix = SUFFIX[turns]
    if last is None:
        return FACE_ROTATION[face] + suffix
    if first == 1 and last == 1:
        return face + suffix
    if first == 1:
        return ("" if last == 2 else str(last)) + face + "w" + suffix
    if first == last:
        return str(first) + face + suffix
    raise InvalidCube("move on layers {}..{} of {} has no notation".format(first, last, face))


def format_moves(moves):
    """The space-separated text of a move list."""
    return " ".join(format_move(m) for m in moves)


def invert(moves):
    """The inverse sequence: reversed, each move turned back."""
    return [Move(m.face, m.first, m.last, 4 - m.turns) for m in reversed(moves)]


def simplify(moves):
    """Merge and cancel moves that act on the same axis next to each other.

    Moves about one axis commute, so within a run of such moves equal layer
    ranges are merged (U U -> U2, U U' -> nothing, U D U -> U2 D). The result
    acts on the cube exactly as the input does.
    """
    moves = list(moves)
    while True:
        groups = []                   # [(axis, [[face, first, last, turns], ...]), ...]
        for m in moves:
            axis = AXIS_OF[m.face]
            if not groups or groups[-1][0] != axis:
                groups.append((axis, []))
            entries = groups[-1][1]
            for entry in entries:
                if entry[:3] == [m.face, m.first, m.last]:
                    entry[3] = (entry[3] + m.turns) % 4
                    break
            else:
                entries.append([m.face, m.first, m.last, m.turns])
        result = [Move(f, a, b, t) for _, entries in groups for f, a, b, t in entries if t]
        if len(result) == len(moves):
            return result
        moves = result


def simplified_length(moves):
    """len(simplify(moves)) without building the result, for the searches that only
    compare lengths. `moves`: Moves, or (face, first, last, turns) tuples. The runs
    about one axis are merged on a stack, so that a run that cancels out lets its
    neighbours meet at once; the count is that of the reduced form simplify reaches."""
    groups = []                        # [(axis, {(face, first, last): quarter turns})]
    for face, first, last, turns in moves:
        axis = AXIS_OF[face]
        if groups and groups[-1][0] == axis:
            entries = groups[-1][1]
            key = (face, first, last)
            turns = (entries.get(key, 0) + turns) % 4
            if turns:
                entries[key] = turns
            else:
                entries.pop(key, None)
                if not entries:
                    groups.pop()
        else:
            groups.append((axis, {(face, first, last): turns}))
    return sum(len(entries) for _, entries in groups)


def is_simplified(moves):
    """Whether simplify(moves) == moves: no run of moves about one axis turns the same
    layers twice (a Move turns 1-3 quarters, so none is dropped). Cheaper than simplify."""
    axis, seen = None, ()
    for m in moves:
        if AXIS_OF[m.face] != axis:
            axis, seen = AXIS_OF[m.face], []
        key = (m.face, m.first, m.last)
        if key in seen:
            return False
        seen.append(key)
    return True


def count(moves, metric="htm"):
    """Length of a move list: htm/obtm count every turn 1, qtm counts a half turn 2.

    Rotations cost nothing.
    """
    if metric not in METRICS:
        raise InvalidCube("unknown metric {!r}: use one of {}".format(metric, ", ".join(METRICS)))
    total = 0
    for m in moves:
        if m.last is None:
            continue
        total += 2 if (metric == "qtm" and m.turns == 2) else 1
    return total


def _turn_point(point, normal):
    """Rotate `point` a clockwise quarter turn about the outward `normal`."""
    x, y, z = point
    a, b, c = normal
    dot = a * x + b * y + c * z
    cross = (b * z - c * y, c * x - a * z, a * y - b * x)
    return (a * dot - cross[0], b * dot - cross[1], c * dot - cross[2])


def _layer(point, normal, n):
    """Which layer (1 = outer) counted from the face with `normal` holds point."""
    depth = normal[0] * point[0] + normal[1] * point[1] + normal[2] * point[2]
    if depth == n:
        return 1
    if depth == -n:
        return n
    return (n + 1 - depth) // 2


_PERMS = {}


def permutation(move, n):
    """The facelet permutation p of `move` on an NxNxN cube: new[i] = old[p[i]]."""
    key = (n, move)
    perm = _PERMS.get(key)
    if perm is not None:
        return perm
    face, first, last, turns = move
    last_layer = n if last is None else last
    if not 1 <= first <= last_layer <= n:
        raise InvalidCube("move {} needs layers {}..{}: a {}x{}x{} cube has {}".format(
            format_move(move), first, last_layer, n, n, n, n))
    geo = geometry(n)
    normal = NORMALS[face]
    perm = list(range(len(geo.positions)))
    for i, pos in enumerate(geo.positions):
        if first <= _layer(pos, normal, n) <= last_layer:
            target = pos
            for _ in range(turns):
                target = _turn_point(target, normal)
            perm[geo.index_of[target]] = i
    perm = tuple(perm)
    _PERMS[key] = perm
    return perm


def apply(state, moves, n=None):
    """The state after `moves` (a list of Moves or a move string)."""
    if isinstance(moves, str):
        moves = parse(moves)
    if n is None:
        n = size_from_length(len(state))
    for m in moves:
        perm = permutation(m, n)
        state = "".join([state[p] for p in perm])
    return state


def rotated_faces(rotation):
    """face -> face g with (rotation, face) == (g, rotation) on any cube.

    A move found for the cube turned by `rotation` (a string such as "x y")
    turns face g there, which is face rotated_faces(rotation)[g] of the cube as
    it was, the same way and on the same layers: the face whose centre the
    rotation brought to g.
    """
    turned = apply(solved(3), rotation, 3)
    return dict((g, turned[face_index(g, 1, 1, 3)]) for g in FACES)


def face_turns(n=3, wide=True):
    """All outer face turns (and wide turns up to half the cube) for size N."""
    result = []
    for face in FACES:
        for depth in range(1, (n // 2 if wide else 1) + 1):
            for turns in (1, 2, 3):
                result.append(Move(face, 1, depth, turns))
    return result
