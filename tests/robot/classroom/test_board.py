"""The classroom board: the robot's events folded into whole snapshots (no server, no robot)."""

import random

from cubebot.solver.facelets import is_solved, solved
from cubebot.solver.moves import apply, format_move, invert, parse

from cubebot.robot.ui.classroom.board import LINK_DOWN, LINK_UP, Board


class Clock(object):
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def _board(history=None):
    clock = Clock()
    ended = []
    board = Board("the test robot", clock=clock, history=history, on_run_end=ended.append)
    board.link(LINK_UP)
    board.hello({"sizes": [2, 3], "software": "x", "status": {"state": "idle", "running": False, "size": 3}})
    return board, clock, ended


def _scrambled(seed):
    rng = random.Random(seed)
    scramble = " ".join(rng.choice("URFDLB") + rng.choice(["", "'", "2"]) for _ in range(15))
    state = apply(solved(3), scramble)
    solution = [format_move(m) for m in invert(parse(scramble))]
    return state, solution


def test_a_whole_run_reads_as_the_banner_says_and_ends_in_the_log():
    board, clock, ended = _board()
    assert board.snapshot()["banner"]["text"] == "Ready"
    state, moves = _scrambled(3)
    board.event("state", {"state": "scanning"})
    for k in range(54):
        face = k // 9 + 1
        clock.t += 1.0
        board.event("scan_progress", {"done": k + 1, "total": 54, "readings": {str(k): [k, 2 * k, 3]},
                                      "index": k, "face": face, "faces": 6, "rescan": 0})
        if k == 20:
            snap = board.snapshot()
            assert snap["banner"]["text"] == "Scanning face 3 of 6"
            assert snap["run"]["scan"]["raw"]["20"] == [20, 40, 3]
            assert snap["run"]["left_s"] > 0
    board.event("state", {"state": "solving"})
    assert board.snapshot()["banner"]["text"] == "Thinking"
    clock.t += 4.0
    board.event("solution", {"moves": moves, "state": state})
    board.event("state", {"state": "turning"})
    for k in range(len(moves)):
        snap = board.snapshot()
        assert snap["banner"]["text"] == "Turning move {} of {}".format(k + 1, len(moves))
        clock.t += 2.0
        board.event("move_progress", {"done": k + 1, "total": len(moves)})
        assert board.snapshot()["run"]["cube"] == apply(state, " ".join(moves[:k + 1]))
    assert is_solved(board.snapshot()["run"]["cube"])
    board.event("finished", {"solved": True, "moves": moves, "state": state, "scan_seconds": 50.0})
    board.event("state", {"state": "idle"})
    snap = board.snapshot()
    assert snap["banner"]["text"].startswith("Solved: ") and snap["banner"]["tone"] == "ok"
    assert snap["run"]["phases"] == {"scanning": 54.0, "solving": 4.0, "turning": 2.0 * len(moves)}
    assert len(ended) == 1 and ended[0]["solved"] and ended[0]["moves"] == len(moves)
    assert ended[0]["phase_seconds"]["turning"] == 2.0 * len(moves)


def test_dropped_move_events_still_give_the_right_cube():
    board, clock, _ = _board()
    state, moves = _scrambled(5)
    board.event("state", {"state": "solving"})
    board.event("solution", {"moves": moves, "state": state})
    board.event("state", {"state": "turning"})
    board.event("move_progress", {"done": 4, "total": len(moves)})
    assert board.snapshot()["run"]["cube"] == apply(state, " ".join(moves[:4]))


def test_unknown_states_and_events_are_shown_by_name_and_checking_in_words():
    board, clock, ended = _board()
    board.event("state", {"state": "scanning"})
    board.event("state", {"state": "checking"})
    assert board.snapshot()["banner"]["text"] == "Checking the cube"
    board.event("check", {"ok": True})
    board.event("state", {"state": "warming_up"})
    snap = board.snapshot()
    assert snap["banner"]["text"] == "Warming up"
    assert snap["run"]["extra"]["check"] == {"ok": True}
    board.event("state", {"state": "idle"})
    assert len(ended) == 1


def test_rescans_mark_doubtful_and_rescanned_facelets():
    board, clock, _ = _board()
    board.event("state", {"state": "scanning"})
    for k in range(54):
        board.event("scan_progress", {"done": k + 1, "total": 54, "readings": {str(k): [1, 2, 3]}})
    board.event("scan_progress", {"done": 55, "total": 54, "readings": {"7": [9, 9, 9]}, "index": 7,
                                  "face": 1, "faces": 2, "rescan": 1, "doubtful": [7, 30]})
    scan = board.snapshot()["run"]["scan"]
    assert scan["doubtful"] == [7, 30] and scan["rescanned"] == ["7"] and scan["raw"]["7"] == [9, 9, 9]
    assert board.snapshot()["banner"]["text"] == "Rescanning doubtful facelets: face 1 of 2"


def test_a_fault_a_stop_and_a_lost_link_are_said_in_words():
    board, clock, ended = _board()
    board.event("state", {"state": "scanning"})
    board.event("error", {"message": "table motor stopped at 30 cube degrees"})
    board.event("state", {"state": "error"})
    assert board.snapshot()["banner"] == {"text": "Fault: table motor stopped at 30 cube degrees",
                                          "tone": "fault", "detail": ""}
    assert ended[-1]["error"] == "table motor stopped at 30 cube degrees"
    board.event("state", {"state": "scanning"})
    board.event("error", {"message": "stopped on request while scanning"})
    board.event("state", {"state": "idle"})
    assert board.snapshot()["banner"]["text"] == "Stopped: the robot is safe"
    assert ended[-1]["stopped"] is True
    board.link(LINK_DOWN, "link to /dev/x lost: EIO")
    assert board.snapshot()["banner"]["text"] == "Link lost: reconnecting"


def test_the_status_ends_a_run_whose_end_the_link_missed():
    board, clock, ended = _board()
    board.event("state", {"state": "turning"})
    board.status({"state": "idle", "running": False, "size": 3})
    assert len(ended) == 1 and "missed" in ended[0]["error"]


def test_the_estimate_uses_the_lessons_earlier_runs():
    history = [{"solved": True, "moves": 10, "phase_seconds": {"solving": 7.0, "turning": 30.0}}]
    board, clock, _ = _board(history=lambda: history)
    state, moves = _scrambled(1)
    board.event("state", {"state": "solving"})
    board.event("solution", {"moves": moves, "state": state})
    board.event("state", {"state": "turning"})
    assert board.snapshot()["run"]["left_s"] == 3.0 * len(moves)


def test_wait_returns_when_the_board_changes():
    board, clock, _ = _board()
    seq = board.seq
    assert board.wait(seq, 0.01) == seq
    board.note("hello")
    assert board.wait(seq, 0.01) == seq + 1


def test_malformed_events_are_skipped_and_the_board_goes_on():
    board, clock, _ = _board()
    board.event("state", {"state": "scanning"})
    board.event("scan_progress", {"done": 1, "total": 54, "readings": ["not", "a", "dict"]})
    board.event("move_progress", {"done": "many"})
    board.event("solution", {"moves": 5, "state": None})
    board.event(7, None)
    snap = board.snapshot()
    assert "skipped" in snap["note"] and snap["banner"]["text"].startswith("Scanning")
    board.event("scan_progress", {"done": 2, "total": 54, "readings": {"3": [1, 2, 3]}})
    assert board.snapshot()["run"]["scan"]["raw"]["3"] == [1, 2, 3]


def test_a_link_that_never_came_up_is_still_connecting():
    board = Board("/dev/rfcomm0")
    board.link(LINK_DOWN, "cannot open /dev/rfcomm0: No such file or directory")
    snap = board.snapshot()
    assert snap["banner"]["text"] == "Connecting to the robot" and "No such file" in snap["banner"]["detail"]
    board.link(LINK_UP)
    board.link(LINK_DOWN, "EIO")
    assert board.snapshot()["banner"]["text"] == "Link lost: reconnecting"


def test_a_snapshot_carries_only_the_newest_runs_and_an_unchanged_status_is_no_news():
    from cubebot.robot.ui.classroom.board import RUNS_IN_SNAPSHOT
    history = [{"solved": True, "moves": k} for k in range(3 * RUNS_IN_SNAPSHOT)]
    board, clock, _ = _board(history=lambda: history)
    snap = board.snapshot()
    assert snap["runs"] == history[-RUNS_IN_SNAPSHOT:] and snap["runs_total"] == len(history)
    seq = board.seq
    board.status({"state": "idle", "running": False, "size": 3})
    assert board.seq == seq
    board.status({"state": "idle", "running": False, "size": 3, "battery_v": 7.5})
    assert board.seq == seq + 1 and board.snapshot()["robot"]["battery_v"] == 7.5
