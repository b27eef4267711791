"""Runs of turns about one axis rewritten with the fewest turns (solve5.axisruns)."""

import random

from cubebot.solver import moves
from cubebot.solver.solve5 import axisruns

N = 5
TAGGED = "".join(chr(0x100 + i) for i in range(6 * N * N))
FACES_OF = {"x": "RL", "y": "UD", "z": "FB"}


def _random_run(rng, axis, length):
    return [moves.Move(rng.choice(FACES_OF[axis]), 1, rng.randint(1, 4), rng.randint(1, 3))
            for _ in range(length)]


def test_a_slice_next_to_a_wide_turn_of_the_other_face_is_one_turn():
    # the middle slice as phase 2 writes it (3Rw Rw'), then Lw' from the next stage
    before = moves.parse("3Rw Rw' Lw'")
    after = axisruns.shortest(before)
    assert moves.format_moves(after) == "3Lw'"
    assert moves.apply(TAGGED, after, N) == moves.apply(TAGGED, before, N)


def test_rewritten_runs_act_the_same_and_are_never_longer():
    rng = random.Random(2417)
    shorter = 0
    for _ in range(300):
        axis = rng.choice("xyz")
        seq = _random_run(rng, axis, rng.randint(1, 6)) + _random_run(rng, rng.choice("xyz"), 3)
        after = axisruns.shortest(seq)
        assert moves.apply(TAGGED, after, N) == moves.apply(TAGGED, seq, N)
        assert len(after) <= len(moves.simplify(seq))
        assert all(m.first == 1 and 1 <= m.last <= 4 for m in after)   # outer and wide turns only
        shorter += len(after) < len(moves.simplify(seq))
    assert shorter > 0


def test_every_profile_has_a_shortest_writing_of_at_most_five_turns():
    for axis in "xyz":
        table = axisruns._table(axis)
        assert len(table) == axisruns.N_PROFILES and all(t is not None for t in table)
        assert max(len(t) for t in table) <= 5
        assert table[0] == []


def test_rotations_are_kept():
    seq = moves.parse("R 3Rw' x Lw U")
    after = axisruns.shortest(seq)
    assert [m for m in after if m.last is None] == [m for m in seq if m.last is None]
    assert moves.apply(TAGGED, after, N) == moves.apply(TAGGED, seq, N)
