"""An NxNxN cube (N >= 6) seen as a smaller cube, and its pieces by orbit.

A view keeps the rows/columns `rows` of every face (a set symmetric under
i -> N-1-i): the facelets there form an M x M x M net (M = len(rows)). A
turn of the big cube's layers 1..L turns exactly the view's layers whose
rows are below L, so every big move is a small move on the view. Layers
outside the view never touch it.

Grouping: each view row stands for a group of rows (`groups`: {0}, {1..},
{..N-2}, {N-1}, and {mid} of an odd N). The cube is "blown up" when every
facelet shows the colour of its group's view facelet (`representative`,
`joins`): it is then the smaller cube with every layer thickened. A small
turn of layers first..last is the big turn of their groups (`lift`: the
4x4x4's Rw is the 6x6x6's 3Rw), which turns the view alike and keeps a
blown-up cube blown up, so the smaller solver finishes a blown-up cube.

Orbits (the pieces that moves can exchange):
  centre orbit (i, j)   the 24 centre facelets at (i, j) of a face and its
                        rotations (j, N-1-i), ... on all six faces (1 <= i, j
                        <= N-2; the fixed centre of an odd cube excluded):
                        X-centres (i = j), T-centres (j = mid), obliques
  wing orbit k          the 24 wings at places k and N-1-k along the 12 edges
                        (1 <= k < N-1-k), each a pair of facelets
"""

from array import array
from operator import itemgetter

from cubebot.solver.cubies import edge_wings
from cubebot.solver.facelets import FACES, OPPOSITE, face_index
from cubebot.solver.moves import Move, permutation, simplify

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


def groups(n):
    """[(first row, last row)] of the groups of rows each view row stands for."""
    half = n // 2
    if n % 2:
        return [(0, 0), (1, half - 1), (half, half), (half + 1, n - 2), (n - 1, n - 1)]
    return [(0, 0), (1, half - 1), (half, n - 2), (n - 1, n - 1)]


def representative(r, n):
    """The view row standing for row r (the view row of r's group)."""
    rows = view_rows(n)
    for g, (first, last) in enumerate(groups(n)):
        if first <= r <= last:
            return rows[g]
    raise ValueError("row {} of a {}x{}x{}".format(r, n, n, n))


def joins(n):
    """(centre pairs, wing pairs): (facelet, its view facelet) for every facelet outside
    the view, by kind (a wing facelet: on an edge row or column)."""
    rows = view_rows(n)
    centres, wings = [], []
    for f in FACES:
        for r in range(n):
            for c in range(n):
                if r in rows and c in rows:
                    continue
                pair = (face_index(f, r, c, n), face_index(f, representative(r, n), representative(c, n), n))
                (wings if r in (0, n - 1) or c in (0, n - 1) else centres).append(pair)
    return centres, wings


def blown_up(cube, n):
    """The cube every facelet of which shows its view facelet's colour."""
    rep = [representative(r, n) for r in range(n)]
    return "".join(cube[face_index(f, rep[r], rep[c], n)] for f in FACES for r in range(n) for c in range(n))


def lift(move, n):
    """The big-cube Move that turns the grouped layers as `move` turns the small cube."""
    if move.last is None:
        return move
    spans = groups(n)
    return Move(move.face, spans[move.first - 1][0] + 1, spans[move.last - 1][1] + 1, move.turns)


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


def permutation_key(moves, n):
    """The facelet permutation of a move list as bytes, two a facelet: an exact
    dict key for telling step permutations apart. A tuple of 6N^2 ints, most of
    them int objects of their own (above 256), costs about 18 bytes a facelet."""
    return array("H", sequence_permutation(moves, n)).tobytes()


def sequence_permutation(moves, n, places=None):
    """The facelet permutation p of a move list on the NxNxN (new[i] = old[p[i]]), a tuple
    of the objects of `places` (default tuple(range(6 * n * n))): with one `places` shared,
    index lists made from it hold one int object per facelet, not one per list."""
    state = tuple(range(6 * n * n)) if places is None else places
    for m in moves:
        state = itemgetter(*permutation(m, n))(state)
    return state
