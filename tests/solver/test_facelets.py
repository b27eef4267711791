"""The facelet model: sizes, geometry, counts, centres."""

import pytest

from cubebot.solver import facelets as F
from cubebot.solver import moves as M
from cubebot.solver.errors import InvalidCube


@pytest.mark.parametrize("n", range(2, 8))
def test_geometry_is_a_bijection(n):
    geo = F.geometry(n)
    assert len(set(geo.positions)) == 6 * n * n
    assert F.size_from_length(6 * n * n) == n


@pytest.mark.parametrize("n", range(2, 8))
def test_every_layer_move_has_order_four(n):
    s = F.solved(n)
    for face in F.FACES:
        for depth in range(1, n + 1):
            m = M.Move(face, depth, depth, 1)
            assert M.apply(s, [m] * 4, n) == s
            assert M.apply(s, [m], n) != s          # every layer turn moves colours of a solved cube


def test_kociemba_example_is_solved_by_its_published_solution():
    state = "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD"
    sol = "D2 R' D' F2 B D R2 D2 R' F2 D' F2 U' B2 L2 U2 D R2 U"
    assert M.apply(state, sol) == F.solved(3)


@pytest.mark.parametrize("bad, words", [
    ("U" * 53, "53 facelets"),
    (F.solved(3)[:-1] + "X", "7 distinct symbols"),
    (F.solved(3)[:-2] + "UU", "appears 7 times"),
])
def test_count_errors_name_the_problem(bad, words):
    with pytest.raises(InvalidCube) as err:
        F.check_counts(bad)
    assert words in str(err.value)


def test_centre_labels_and_duplicate_centres():
    state = F.relabel(F.solved(3), dict(zip("URFDLB", "WROYGB")))
    assert F.centre_labels(state, 3) == dict(zip("WROYGB", "URFDLB"))
    dup = list(F.solved(3))
    dup[13] = "U"
    with pytest.raises(InvalidCube, match="centres of U and R"):
        F.centre_labels("".join(dup), 3)


def test_edge_wings_are_the_wing_cubies_of_every_size():
    from cubebot.solver.cubies import EDGE_NAMES, cubie_of, edge_wings
    for n in range(4, 8):
        geo = F.geometry(n)
        pairs = [pair for edge in edge_wings(n) for pair in edge]
        assert len(pairs) == 12 * (n - 2 - n % 2)
        assert len(set(i for pair in pairs for i in pair)) == 2 * len(pairs)
        for edge, name in zip(edge_wings(n), EDGE_NAMES):
            for a, b in edge:
                assert cubie_of(geo.positions[a], n) == cubie_of(geo.positions[b], n)
                assert (F.FACES[a // (n * n)], F.FACES[b // (n * n)]) == (name[0], name[1])


def test_edge_wings_of_the_4x4x4_by_hand():
    """The 4x4x4 wing pairs written out from the net (row, column on each face)."""
    from cubebot.solver.cubies import edge_wings
    last = 3
    spots = [
        [(("U", r, last), ("R", 0, last - r)) for r in (1, 2)],
        [(("U", last, c), ("F", 0, c)) for c in (1, 2)],
        [(("U", r, 0), ("L", 0, r)) for r in (1, 2)],
        [(("U", 0, c), ("B", 0, last - c)) for c in (1, 2)],
        [(("D", r, last), ("R", last, r)) for r in (1, 2)],
        [(("D", 0, c), ("F", last, c)) for c in (1, 2)],
        [(("D", r, 0), ("L", last, last - r)) for r in (1, 2)],
        [(("D", last, c), ("B", last, last - c)) for c in (1, 2)],
        [(("F", r, last), ("R", r, 0)) for r in (1, 2)],
        [(("F", r, 0), ("L", r, last)) for r in (1, 2)],
        [(("B", r, last), ("L", r, 0)) for r in (1, 2)],
        [(("B", r, 0), ("R", r, last)) for r in (1, 2)],
    ]
    want = [[(F.face_index(a[0], a[1], a[2], 4), F.face_index(b[0], b[1], b[2], 4)) for a, b in edge]
            for edge in spots]
    assert edge_wings(4) == want
