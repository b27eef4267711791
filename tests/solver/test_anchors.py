"""The cube model checked against facts from outside the project.

Each test takes a published fact (a group identity, a published algorithm and
what it is known to do, a published distance distribution, kociemba's facelet
numbering) and checks our move model against it, never the reverse: the
expected results here are written down from the sources, not computed by the
code under test.

Sources:
- [wiki-superflip] https://en.wikipedia.org/wiki/Superflip: the 20-move (HTM)
  sequence of M. Reid and the 24-quarter-turn sequence, both starting from
  solved.
- [cube-lovers] Cube-Lovers archive, "superflip in 20f" (M. Reid, 1995),
  http://www.math.rwth-aachen.de/~Martin.Schoenert/Cube-Lovers/: Dik Winter's
  20f sequence.
- [ssw-parity] speedsolving.com wiki, "4x4x4 parity algorithms"
  (https://www.speedsolving.com/wiki/index.php/4x4x4_Parity_Algorithms):
  OLL parity "r2 B2 U2 l U2 r' U2 r U2 F2 r F2 l' B2 r2" flips the UF dedge;
  PLL parity "r2 U2 r2 Uw2 r2 u2" swaps the UF and UB dedges (r, l, u there
  are single inner slices: 2R, 2L, 2U in our notation).
- [kociemba] kociemba's facelet numbering of the corners and edges (his
  cornerFacelet / edgeFacelet tables), with the facelet string convention in
  docs/references.md ("Cube numbers").
- [facts] docs/references.md, "Cube numbers" (Wikipedia, "Pocket Cube"): the
  2x2x2 distance distributions in HTM and QTM (one corner fixed, 3,674,160
  positions).
- Group identities: (R U R' U') has order 6 and (R U) has order 105
  (e.g. Joyner, "Adventures in Group Theory", and the speedsolving wiki
  "Sexy move" page).
"""

from collections import Counter

import pytest

from cubebot.solver.solve2 import cube as cube2, build as solve2_build
from cubebot.solver import store
from cubebot.solver import facelets as F
from cubebot.solver import moves as M
from cubebot.solver.tables import HEADER, MOD3, pack_dense


def labelled(n):
    """A state whose every facelet carries its own symbol (its index)."""
    return "".join(chr(0x100 + i) for i in range(6 * n * n))


def order(sequence, n=3):
    """The number of repetitions of `sequence` that bring every facelet home."""
    start = labelled(n)
    state, k = M.apply(start, sequence, n), 1
    while state != start:
        state, k = M.apply(state, sequence, n), k + 1
        assert k <= 1260, "order above the largest element order of the cube group"
    return k


def at(face, number, n=3):
    """The string index of facelet `face` `number` (1-based, row-major as in the net)."""
    return "URFDLB".index(face) * n * n + number - 1


# [kociemba]: each corner's facelets, each edge's facelets, as (face, number).
CORNERS = [("U9", "R1", "F3"), ("U7", "F1", "L3"), ("U1", "L1", "B3"), ("U3", "B1", "R3"),
           ("D3", "F9", "R7"), ("D1", "L9", "F7"), ("D7", "B9", "L7"), ("D9", "R9", "B7")]
EDGES = [("U6", "R2"), ("U8", "F2"), ("U4", "L2"), ("U2", "B2"), ("D6", "R8"), ("D2", "F8"),
         ("D4", "L8"), ("D8", "B8"), ("F6", "R4"), ("F4", "L6"), ("B6", "L4"), ("B4", "R6")]


def idx(name, n=3):
    return at(name[0], int(name[1:]), n)


def test_kociemba_numbering_covers_every_facelet_once():
    names = [f for piece in CORNERS + EDGES for f in piece] + [face + "5" for face in "URFDLB"]
    assert sorted(idx(f) for f in names) == list(range(54))


def test_sexy_move_has_order_6():
    assert order(M.parse("R U R' U'")) == 6


def test_r_u_has_order_105():
    assert order(M.parse("R U")) == 105


@pytest.mark.parametrize("sequence", [
    "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2",                        # [wiki-superflip], 20f
    "R' U2 B L' F U' B D F U D' L D2 F' R B' D F' U' B' U D'",                  # [wiki-superflip], 24q
    "F B U2 R F2 R2 B2 U' D F U2 R' L' U B2 D R2 U B2 U",                       # [cube-lovers], 20f
])
def test_published_superflip_flips_every_edge_in_place(sequence):
    solved = F.solved(3)
    state = M.apply(solved, sequence)
    for a, b in EDGES:                            # each edge in its own slot, its two colours swapped
        assert (state[idx(a)], state[idx(b)]) == (solved[idx(b)], solved[idx(a)]), (a, b)
    for corner in CORNERS:                        # corners and centres untouched
        assert [state[idx(f)] for f in corner] == [solved[idx(f)] for f in corner], corner
    for face in "URFDLB":
        assert state[at(face, 5)] == face
    # the superflip is its own inverse and is central: it commutes with every face turn
    assert M.apply(state, sequence) == solved
    for turn in "URFDLB":
        assert M.apply(state, turn) == M.apply(M.apply(solved, turn), sequence)


def test_checkerboard_pattern():
    """R2 L2 U2 D2 F2 B2 from solved: on every face the centre and corners keep
    the face's colour and the four edge facelets show the opposite face's."""
    opposite = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}
    state = M.apply(F.solved(3), "R2 L2 U2 D2 F2 B2")
    for face in "URFDLB":
        shown = "".join(state[at(face, k)] for k in range(1, 10))
        o = opposite[face]
        assert shown == face + o + face + o + face + o + face + o + face, face
    assert M.apply(state, "R2 L2 U2 D2 F2 B2") == F.solved(3)     # order 2


def dedge(u_numbers, face, face_numbers, n=4):
    """Facelet indices of a 4x4x4 dedge: (U wing facelets, other face's wing facelets)."""
    return [at("U", k, n) for k in u_numbers], [at(face, k, n) for k in face_numbers]


def changed(a, b):
    return sorted(i for i in range(len(a)) if a[i] != b[i])


def test_published_4x4_oll_parity_flips_exactly_one_dedge():
    """[ssw-parity] OLL parity: the UF dedge flipped in place, nothing else changed."""
    solved = F.solved(4)
    state = M.apply(solved, "2R2 B2 U2 2L U2 2R' U2 2R U2 F2 2R F2 2L' B2 2R2")
    u_side, f_side = dedge((14, 15), "F", (2, 3))           # U row 4 and F row 1, middle columns
    assert changed(solved, state) == sorted(u_side + f_side)
    assert all(state[i] == "F" for i in u_side) and all(state[i] == "U" for i in f_side)
    # the same with every facelet labelled: the UF wings trade places, each flipped
    start = labelled(4)
    moved = M.apply(start, "2R2 B2 U2 2L U2 2R' U2 2R U2 F2 2R F2 2L' B2 2R2")
    for u, f in zip(u_side, reversed(f_side)):
        assert (moved[u], moved[f]) == (start[f], start[u])


@pytest.mark.parametrize("sequence", [
    "2R2 U2 2R2 Uw2 2R2 2U2",                 # [ssw-parity] r2 U2 r2 Uw2 r2 u2
    "2R2 U2 2R2 Uw2 2R2 Uw2 U2",              # [ssw-parity] r2 U2 r2 Uw2 r2 Uw2 (U2)
])
def test_published_4x4_pll_parity_swaps_exactly_two_dedges(sequence):
    """[ssw-parity] PLL parity: the UF and UB dedges trade places, nothing else changed
    (U facelets all look alike, so only the F and B sides of the two dedges show it)."""
    solved = F.solved(4)
    state = M.apply(solved, sequence)
    _, f_side = dedge((14, 15), "F", (2, 3))
    _, b_side = dedge((2, 3), "B", (2, 3))
    assert changed(solved, state) == sorted(f_side + b_side)
    assert all(state[i] == "B" for i in f_side) and all(state[i] == "F" for i in b_side)
    # labelled: the wings on the U side of UF now hold the wings of UB (and back)
    start, uf_u, ub_u = labelled(4), [at("U", k, 4) for k in (14, 15)], [at("U", k, 4) for k in (2, 3)]
    moved = M.apply(start, sequence)
    assert set(moved[i] for i in uf_u) == set(start[i] for i in ub_u)
    assert set(moved[i] for i in ub_u) == set(start[i] for i in uf_u)


def grid(state, face, n):
    """The n x n facelets of `face` as rows."""
    base = "URFDLB".index(face) * n * n
    return [list(state[base + r * n: base + r * n + n]) for r in range(n)]


def cw(rows):
    """A face's grid turned a quarter turn clockwise (as seen looking at it)."""
    n = len(rows)
    return [[rows[n - 1 - c][r] for c in range(n)] for r in range(n)]


def ccw(rows):
    return cw(cw(cw(rows)))


# What a whole-cube rotation does to the net (docs/references.md): which face's stickers
# land on each face, and how they turn on the way. x turns the cube like R: F
# comes up to U as it is, U goes to the back upside down, ...
ROTATIONS = {
    "x": {"U": ("F", 0), "F": ("D", 0), "D": ("B", 2), "B": ("U", 2), "R": ("R", 1), "L": ("L", 3)},
    "y": {"F": ("R", 0), "R": ("B", 0), "B": ("L", 0), "L": ("F", 0), "U": ("U", 1), "D": ("D", 3)},
    "z": {"R": ("U", 1), "D": ("R", 1), "L": ("D", 1), "U": ("L", 1), "F": ("F", 1), "B": ("B", 3)},
}


@pytest.mark.parametrize("n", range(2, 8))
@pytest.mark.parametrize("axis", "xyz")
def test_rotation_moves_faces_as_the_net_says(n, axis):
    start = labelled(n)
    state = M.apply(start, axis, n)
    for face, (source, quarter_turns) in ROTATIONS[axis].items():
        expected = grid(start, source, n)
        for _ in range(quarter_turns):
            expected = cw(expected)
        assert grid(state, face, n) == expected, (axis, face)


@pytest.mark.parametrize("n", range(2, 8))
@pytest.mark.parametrize("axis", "xyz")
def test_rotation_equals_face_and_slice_turns_from_both_sides(n, axis):
    """x = R, the inner slices turned like R, and the far half turned as L'
    (layer k from L anticlockwise is layer n+1-k from R clockwise)."""
    near = M.ROTATION_FACE[axis]
    far = F.OPPOSITE[near]
    half = (n + 1) // 2
    turns = [M.Move(near, k, k, 1) for k in range(1, half + 1)]
    turns += [M.Move(far, k, k, 3) for k in range(1, n - half + 1)]
    start = labelled(n)
    assert M.apply(start, turns, n) == M.apply(start, axis, n)


def test_rotation_against_slice_notation_on_3x3():
    """x = R M' L', y = U E' D', z = F S B' (M follows L, E follows D, S follows F)."""
    start = labelled(3)
    assert M.apply(start, "x") == M.apply(start, "R 2L' L'")
    assert M.apply(start, "y") == M.apply(start, "U 2D' D'")
    assert M.apply(start, "z") == M.apply(start, "F 2F B'")


# [facts]: optimal distance distributions of the 2x2x2 (one corner fixed).
DISTRIBUTION = {
    "htm": [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644],
    "qtm": [1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536,
            90280, 276],
}
MOVE_SETS = {"htm": cube2.HTM_MOVES, "qtm": cube2.QTM_MOVES}


def test_the_distributions_are_the_ones_docs_references_cites():
    """docs/references.md, "Cube numbers", and this test cite the same published figures."""
    import os
    import re
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        "docs", "references.md")
    cited = {}
    for line in open(path):
        found = re.match(r"\| 2x2x2 optimal distances, (HTM|QTM), depth 0\.\.\d+ \| ([\d, ]+) \(mean ([\d.]+)\)", line)
        if found:
            cited[found.group(1).lower()] = ([int(x) for x in found.group(2).split(",")], float(found.group(3)))
    assert set(cited) == set(DISTRIBUTION)
    for metric, (counts, mean) in cited.items():
        assert counts == DISTRIBUTION[metric]
        assert round(sum(d * c for d, c in enumerate(counts)) / float(sum(counts)), 3) == mean


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_2x2x2_tables_hold_the_published_distance_distribution(tables_dir, metric):
    published = DISTRIBUTION[metric]
    assert sum(published) == cube2.N_STATES_2 == 3674160
    # the built table's values (distance mod 3) counted per class
    table = store.open_dense("2x2-" + metric, tables_dir)
    try:
        payload = table.mm[HEADER.size:]
        assert (table.bits, table.encoding) == (2, MOD3)
    finally:
        table.close()
    per_byte = Counter(payload)
    classes = [0, 0, 0, 0]
    for byte, times in per_byte.items():
        for slot in range(4):
            classes[(byte >> (2 * slot)) & 3] += times
    classes[0] -= 4 * len(payload) - cube2.N_STATES_2             # padding entries are 0
    assert classes[3] == 0                                          # every state reached
    assert classes[:3] == [sum(published[d::3]) for d in range(3)]
    # the exact distances, by a breadth-first search with our moves, give the
    # published distribution, and the built table is exactly those mod 3
    dist = solve2_build.distances(MOVE_SETS[metric])
    counts = Counter(dist)
    assert [counts[d] for d in range(len(published))] == published
    assert sum(counts.values()) == sum(published)
    assert pack_dense(dist, 2, MOD3) == bytes(payload)


def column(rows, c):
    return [row[c] for row in rows]


@pytest.mark.parametrize("n", range(3, 8))
def test_inner_slice_turns_the_layer_the_net_says(n):
    """kR turns the k-th layer counted from R like R: F's column n-k (0-based,
    counted from the left) comes up to U's column n-k and nothing else on F
    moves; kL turns column k-1 like L: F's column goes down to D; kU turns row
    k-1 like U: F's row goes to L (clockwise seen from above)."""
    start = labelled(n)
    for k in range(2, n):
        state = M.apply(start, "{}R".format(k), n)
        c = n - k
        assert column(grid(state, "U", n), c) == column(grid(start, "F", n), c)
        for other in range(n):
            if other != c:
                assert column(grid(state, "F", n), other) == column(grid(start, "F", n), other)
        state = M.apply(start, "{}L".format(k), n)
        assert column(grid(state, "D", n), k - 1) == column(grid(start, "F", n), k - 1)
        state = M.apply(start, "{}U".format(k), n)
        assert grid(state, "L", n)[k - 1] == grid(start, "F", n)[k - 1]
        assert grid(state, "F", n)[k - 1] == grid(start, "R", n)[k - 1]
