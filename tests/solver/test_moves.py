import random

import pytest

from cubebot.solver import facelets, moves
from cubebot.solver.errors import InvalidCube


def test_parse_and_format_round_trip():
    text = "R U' F2 Rw 3Rw' 2R x y' z2 Uw2 D B' L"
    parsed = moves.parse(text)
    assert moves.format_moves(parsed) == text
    assert parsed[3] == moves.Move("R", 1, 2, 1)
    assert parsed[4] == moves.Move("R", 1, 3, 3)
    assert parsed[7] == moves.Move("U", 1, None, 3)


@pytest.mark.parametrize("token", ["Q", "R3", "0Rw", "2x", "rw"])
def test_bad_tokens_are_invalid(token):
    with pytest.raises(InvalidCube, match="cannot read move"):
        moves.parse_move(token)


def test_invert_undoes_a_sequence():
    rng = random.Random(3)
    for n in (2, 3, 4, 5):
        seq = [rng.choice(moves.face_turns(n)) for _ in range(25)]
        state = moves.apply(facelets.solved(n), seq, n)
        assert moves.apply(state, moves.invert(seq), n) == facelets.solved(n)


def test_simplify_merges_and_cancels():
    assert moves.format_moves(moves.simplify(moves.parse("U U'"))) == ""
    assert moves.format_moves(moves.simplify(moves.parse("U U"))) == "U2"
    assert moves.format_moves(moves.simplify(moves.parse("U D U"))) == "U2 D"
    assert moves.format_moves(moves.simplify(moves.parse("R U U' R'"))) == ""
    rng = random.Random(4)
    for _ in range(50):
        seq = [rng.choice(moves.face_turns(3)) for _ in range(12)]
        state = facelets.solved(3)
        assert moves.apply(state, moves.simplify(seq)) == moves.apply(state, seq)


def test_simplified_length_is_the_length_simplify_leaves():
    for text, n in (("U U'", 0), ("U D U", 2), ("R U U' R'", 0), ("R L U U' R' L'", 0),
                    ("R U D U' D' L", 2), ("Rw R' Rw' R", 0)):
        assert moves.simplified_length(moves.parse(text)) == n == len(moves.simplify(moves.parse(text)))
    rng = random.Random(5)
    pool = [m for m in moves.face_turns(5) if m.face in "UDR"]   # few axes: long cascades
    for k in range(200):
        seq = [rng.choice(pool) for _ in range(k % 30)]
        seq += moves.invert(seq)[:rng.randrange(len(seq) + 1)]
        assert moves.simplified_length(seq) == len(moves.simplify(seq))
        assert moves.simplified_length(tuple(m) for m in seq) == len(moves.simplify(seq))


def test_count_metrics():
    seq = moves.parse("R U2 x F'")
    assert moves.count(seq, "htm") == 3
    assert moves.count(seq, "qtm") == 4


def test_is_simplified_says_whether_simplify_would_change_a_list():
    # runs of one axis (where simplify merges) made likely: faces of two axes only
    rng = random.Random(11)
    pool = [moves.Move(f, a, b, t) for f in "URD" for a, b in ((1, 1), (1, 2), (2, 2)) for t in (1, 2, 3)]
    seen = set()
    for _ in range(3000):
        seq = [rng.choice(pool) for _ in range(rng.randrange(0, 7))]
        want = moves.simplify(seq) == seq
        assert moves.is_simplified(seq) == want
        seen.add(want)
    assert seen == {True, False}


@pytest.mark.parametrize("n", [3, 6, 7])
def test_rotated_faces_bring_a_move_found_on_a_turned_cube_back(n):
    # Turning the cube by `rotation` then m is turning it by the mapped m, then `rotation`:
    # the same layers of the face the rotation carried, the same way.
    rotations = [" ".join(t for t in (a, b) if t) for a in ("", "x", "x2", "x'", "z", "z'")
                 for b in ("", "y", "y2", "y'")]
    rng = random.Random(n)
    state = "".join(rng.choice("URFDLB") for _ in range(6 * n * n))
    turns = [moves.Move(f, a, b, t) for f in facelets.FACES for a in range(1, n + 1)
             for b in range(a, n + 1) for t in (1, 2, 3) if b < n]
    for rotation in rotations:
        faces = moves.rotated_faces(rotation)
        assert sorted(faces.values()) == sorted(facelets.FACES)
        for m in rng.sample(turns, 12):
            back = moves.Move(faces[m.face], m.first, m.last, m.turns)
            assert moves.apply(state, moves.parse(rotation) + [m], n) == \
                moves.apply(state, [back] + moves.parse(rotation), n)
    assert moves.rotated_faces("x") == {"U": "F", "F": "D", "D": "B", "B": "U", "R": "R", "L": "L"}
