"""An NxNxN cube model written apart from cubebot.solver.moves, to check solutions.

The state is the URFDLB facelet string (each face row-major as drawn in the
usual net: U with B above it, D with F above it, R, F, L, B with U above
them). Each face is an n x n grid; a layer turn rotates the face it starts
from (and the far face for the deepest layer) and moves four strips of
stickers between the neighbouring grids. cubebot's own model works from 3D
coordinates instead; `check_against(apply, n)` compares the two.
"""

import random
import re

FACES = "URFDLB"
TOKEN = re.compile(r"^(\d*)([URFDLB])(w?)(2|'|)$")


def grids(state, n):
    size = n * n
    return {f: [list(state[k * size + r * n:k * size + r * n + n]) for r in range(n)]
            for k, f in enumerate(FACES)}


def text(g):
    return "".join("".join(row) for f in FACES for row in g[f])


def _clockwise(grid):
    n = len(grid)
    return [[grid[n - 1 - c][r] for c in range(n)] for r in range(n)]


def _line(face, kind, i, n, rev):
    """Sticker coordinates (face, row, col) of one row or column, in order."""
    js = range(n - 1, -1, -1) if rev else range(n)
    return [(face, i, j) if kind == "row" else (face, j, i) for j in js]


def _strips(face, k, n):
    """The four strips of layer k (0 = outer) of `face`, ordered so that a clockwise
    quarter turn moves sticker j of strip i to sticker j of strip i + 1."""
    m = n - 1 - k
    spec = {
        "U": [("F", "row", k, 0), ("L", "row", k, 0), ("B", "row", k, 0), ("R", "row", k, 0)],
        "D": [("F", "row", m, 0), ("R", "row", m, 0), ("B", "row", m, 0), ("L", "row", m, 0)],
        "R": [("F", "col", m, 0), ("U", "col", m, 0), ("B", "col", k, 1), ("D", "col", m, 0)],
        "L": [("F", "col", k, 0), ("D", "col", k, 0), ("B", "col", m, 1), ("U", "col", k, 0)],
        "F": [("U", "row", m, 0), ("R", "col", k, 0), ("D", "row", k, 1), ("L", "col", m, 1)],
        "B": [("U", "row", k, 0), ("L", "col", k, 1), ("D", "row", m, 1), ("R", "col", m, 0)],
    }[face]
    return [_line(f, kind, i, n, rev) for f, kind, i, rev in spec]


OPPOSITE = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}


def _quarter(g, face, k, n):
    strips = _strips(face, k, n)
    values = [[g[f][r][c] for f, r, c in strip] for strip in strips]
    for i in range(len(strips)):
        for (f, r, c), v in zip(strips[(i + 1) % 4], values[i]):
            g[f][r][c] = v
    if k == 0:
        g[face] = _clockwise(g[face])
    if k == n - 1:
        for _ in range(3):
            g[OPPOSITE[face]] = _clockwise(g[OPPOSITE[face]])


def turn(state, name, n):
    """The state after one move name (R, R', R2, Rw, 3Rw, 3R = third layer alone)."""
    m = TOKEN.match(name)
    if not m:
        raise ValueError("not a move: " + name)
    digits, face, wide, suffix = m.groups()
    if wide:
        layers = range(int(digits or 2))
    else:
        layers = [int(digits) - 1] if digits else [0]
    quarters = {"": 1, "2": 2, "'": 3}[suffix]
    g = grids(state, n)
    for _ in range(quarters):
        for k in layers:
            _quarter(g, face, k, n)
    return text(g)


def apply(state, names, n):
    for name in names:
        state = turn(state, name, n)
    return state


def is_solved(state, n):
    size = n * n
    return all(len(set(state[k * size:(k + 1) * size])) == 1 for k in range(6))


def check_against(other_apply, n, seed=1, count=300):
    """Compare with another model on every move name and a random sequence; a
    list of the names where they differ (empty if none)."""
    tagged = "".join(chr(0x100 + i) for i in range(6 * n * n))
    names = []
    for f in FACES:
        for depth in range(1, n):
            base = f if depth == 1 else (f + "w" if depth == 2 else "{}{}w".format(depth, f))
            names += [base + s for s in ("", "2", "'")]
        names += ["{}{}".format(n // 2 + 1, f) + s for s in ("", "2", "'")]   # a middle slice
    bad = [nm for nm in names if turn(tagged, nm, n) != other_apply(tagged, nm, n)]
    rng = random.Random(seed)
    seq = [rng.choice(names) for _ in range(count)]
    if apply(tagged, seq, n) != other_apply(tagged, " ".join(seq), n):
        bad.append("a random sequence of {}".format(count))
    return bad
