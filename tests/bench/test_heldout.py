"""The held-out runner (bench/heldout.py): real `cubebot solve --batch -` subprocesses,
answers checked by the independent model, a wrong answer caught, forked memory counted."""

import sys

from bench import cube3d, heldout


def test_states_are_seeded_scrambles_of_the_requested_size():
    a = heldout.heldout_states(4, 3, 11)
    assert a == heldout.heldout_states(4, 3, 11)
    assert a != heldout.heldout_states(4, 3, 12)
    for state, tokens in a:
        assert len(state) == 96 and len(tokens) == heldout.scramble_length(4)
        assert not cube3d.Cube.from_facelets(state).is_solved()
        assert sorted(state) == sorted("URFDLB" * 16)


def test_real_3x3x3_batch_solved_and_checked():
    res = heldout.run(3, 3, 5)
    assert res["failures"] == [] and res["exit"] == 0
    assert len(res["lengths"]) == 3 and len(res["walls"]) == 3
    assert all(1 <= k <= 30 for k in res["lengths"]) and res["lengths"] == res["reported"]
    assert res["peak_mb"] > 5                  # a Python process with the solver loaded


LIAR = r"""
import json, sys
for line in sys.stdin:
    state = line.strip()
    solved = all(len(set(state[k * 9:k * 9 + 9])) == 1 for k in range(6))
    moves = [] if solved else ["R"]
    print(json.dumps({"state": state, "moves": moves, "length": len(moves)}), flush=True)
"""


def test_a_wrong_answer_is_caught():
    res = heldout.run(3, 2, 5, argv=[sys.executable, "-c", LIAR])
    assert len(res["failures"]) == 2 and res["lengths"] == []
    assert all("do not solve" in why for _, why in res["failures"])


HOG = r"""
import os, sys, time
for line in sys.stdin:
    pid = os.fork()
    if pid == 0:
        block = bytearray(80 * 1024 * 1024)      # touched: 80 MB resident in the child
        for i in range(0, len(block), 4096):
            block[i] = 1
        time.sleep(1.0)
        os._exit(0)
    os.waitpid(pid, 0)
    print('{"state": "%s", "moves": ["R"], "length": 1}' % line.strip(), flush=True)
"""


def test_forked_children_are_counted():
    res = heldout.run(3, 1, 5, argv=[sys.executable, "-c", HOG])
    assert res["peak_mb"] > 80
