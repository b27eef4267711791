"""An NxNxN cube (N >= 6) seen as a smaller cube, and its pieces by orbit.

A view keeps the rows/columns `rows` of every face (a set symmetric under
i -> N-1-i): the facelets there form an M x M x M net (M = len(rows)). A
turn of the big cube's layers 1..L turns exactly the view's layers whose
rows are below L, so every big move is a small move on the view, and a
small wide turn of layers 1..l is the big wide turn of layers
1..rows[l-1]+1 (`lift`). Layers outside the view never touch it.

Orbits (the pieces that moves can exchange):
  centre orbit (i, j)   the 24 centre facelets at (i, j) of a face and its
                        rotations (j, N-1-i), ... on all six faces (1 <= i, j
                        <= N-2; the fixed centre of an odd cube excluded):
                        X-centres (i = j), T-centres (j = mid), obliques
  wing orbit k          the 24 wings at places k and N-1-k along the 12 edges
                        (1 <= k < N-1-k), each a pair of facelets
"""

from cubebot.solver.cubies import edge_wings
from cubebot.solver.facelets import FACES, OPPOSITE, face_index
from cubebot.solver.moves import Move, simplify

SMALL_EVEN = 4                 # an even cube is seen as a 4x4x4
SMALL_ODD = 5                  # an odd cube as a 5x5x5


def view_rows(n):
    """The rows/columns kept by the smaller-cube view of an NxNxN cube."""
    if n % 2:
        return (0, 1, n // 2, n - 2, n - 1)
    return (0, 1, n - 2, n - 1)


def view(state, n, rows=None):
    """The facelet string of the smaller cube seen through `rows`."""
    rows = view_rows(n) if rows is None else rows
    return "".join(state[face_index(f, r, c, n)] for f in FACES for r in rows for c in rows)


def lift(move, n, rows=None):
    """The big-cube Move that turns the view as `move` turns the small cube."""
    rows = view_rows(n) if rows is None else rows
    if move.last is None:
        return move
    first = 1 if move.first == 1 else rows[move.first - 1] + 1
    return Move(move.face, first, rows[move.last - 1] + 1, move.turns)


def _rotations(i, j, n):
    return ((i, j), (j, n - 1 - i), (n - 1 - i, n - 1 - j), (n - 1 - j, i))


def centre_orbits(n):
    """[(representative (i, j), 24 facelet indices)] of every centre orbit, in
    representative order (the fixed centre of an odd cube left out)."""
    seen = set()
    result = []
    for i in range(1, n - 1):
        for j in range(1, n - 1):
            if (i, j) in seen or (n % 2 and i == j == n // 2):
                continue
            spots = _rotations(i, j, n)
            seen.update(spots)
            result.append(((i, j), tuple(face_index(f, r, c, n) for f in FACES for r, c in spots)))
    return result


def wing_orbits(n):
    """[(k, 24 (first, second) facelet pairs)] of every wing orbit (k < N-1-k)."""
    places = [k for k in range(1, n - 1) if not (n % 2 and k == n // 2)]
    edges = edge_wings(n)
    result = []
    for k in places:
        if k < n - 1 - k:
            a, b = places.index(k), places.index(n - 1 - k)
            result.append((k, tuple(p for pairs in edges for p in (pairs[a], pairs[b]))))
    return result


def in_view(orbit_rows, n):
    """True if every row/column index of an orbit lies in the view."""
    rows = view_rows(n)
    return all(r in rows for r in orbit_rows)


def slice_turns(face, layer, turns, n):
    """An inner slice (one layer, 2..N-1 from `face`) as two wide turns of at most
    (N+1)//2 layers, written from the nearer side."""
    if layer > (n + 1) // 2:
        face, layer, turns = OPPOSITE[face], n + 1 - layer, 4 - turns
    return [Move(face, 1, layer, turns), Move(face, 1, layer - 1, 4 - turns)]


def written(moves, n):
    """Outer and wide turns for a list that may hold inner slices (one layer, 2..N-1)."""
    result = []
    for m in moves:
        result += slice_turns(m.face, m.first, m.turns, n) if m.first > 1 else [m]
    return simplify(result)
