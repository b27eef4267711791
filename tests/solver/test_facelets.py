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
            assert M.apply(s, [m], n) != s or depth not in (1, n)


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
