"""Robot-frame orientation bookkeeping agrees with the solver's whole-cube moves."""

import random

from cubebot.robot.machine import orientation as O
from cubebot.solver import facelets as F
from cubebot.solver import moves as M


def centres(state, n=3):
    return "".join(state[k * n * n + (n * n) // 2] for k in range(6))


def test_24_distinct_orientations():
    all_ = O.all_orientations()
    assert len(all_) == 24 == len(set(all_))
    assert all_[0] == O.IDENTITY


def test_rotations_match_solver_moves():
    rng = random.Random(7)
    state, where = F.solved(3), O.IDENTITY
    for _ in range(60):
        axis, q = rng.choice("xyz"), rng.randint(1, 3)
        state = M.apply(state, axis + {1: "", 2: "2", 3: "'"}[q])
        where = O.rotate(where, axis, q)
        assert centres(state) == where


def test_flip_brings_back_face_to_bottom():
    where = O.rotate(O.IDENTITY, "x")
    assert O.face_at(where, "D") == "B"
    assert O.position_of(where, "U") == "B"
