"""The watch view built from the events of a (fake) run."""

import threading

from cubebot.robot.link.protocol import event_message
from cubebot.robot.ui.watch import WatchView, describe, progress_bar
from cubebot.solver.facelets import is_solved

from .fake_service import FakeService


def run_events():
    service = FakeService()
    events = []
    lock = threading.Lock()

    def listen(name, payload):
        with lock:
            events.append(event_message(name, payload))
    service.subscribe(listen)
    service.start_run()
    service.wait(10)
    return events


def test_view_follows_a_run_and_shows_the_cube_being_solved():
    events = run_events()
    view = WatchView()
    first_scan = [i for i, e in enumerate(events) if e["event"] == "scan_progress"][0]
    for e in events[:first_scan + 10]:
        view.update(e)
    assert view.state == "scanning"
    screen = view.render()
    assert view.cube().count("#") == 10 and "10/54" in screen
    solution_at = [i for i, e in enumerate(events) if e["event"] == "solution"][0]
    for e in events[first_scan + 10:solution_at + 1]:
        view.update(e)
    assert view.cube() == events[solution_at]["data"]["state"] and not is_solved(view.cube())
    for e in events[solution_at + 1:]:
        view.update(e)
        if e["event"] == "move_progress":
            assert "{}/{}".format(e["data"]["done"], e["data"]["total"]) in view.render()
    assert is_solved(view.cube())
    screen = view.render(color=True)
    assert "\x1b[" in screen and "SOLVED" in screen


def test_describe_and_bar():
    assert progress_bar(5, 10, 10) == "[#####-----] 5/10"
    assert progress_bar(0, 0, 4) == "[----] 0/0"
    assert describe({"event": "state", "data": {"state": "turning"}}) == "state: turning"
    assert describe({"event": "move_progress", "data": {"done": 1, "total": 20}}) is None
    assert describe({"event": "error", "data": {"message": "stopped"}}) == "error: stopped"


def test_bigger_nets_for_a_projector():
    from cubebot.robot.ui.netview import render_net
    from cubebot.solver.facelets import solved
    small = render_net(solved(3)).splitlines()
    big = render_net(solved(3), color=True, scale=3).splitlines()
    assert len(small) == 9 and len(big) == 27
    assert big[0].count("\x1b[48;5;231m     \x1b[0m") == 3       # U's first row: three blank white blocks
    assert big[1].count("\x1b[48;5;231m  U  \x1b[0m") == 3       # ... with the letter in the middle line
    heights = []
    for scale in (1, 2):
        view = WatchView(scale=scale)
        view.update({"event": "solution", "data": {"moves": ["R"], "state": solved(3)}})
        heights.append(len(view.render(color=True).splitlines()))
    assert heights[1] == heights[0] + 9


def test_a_quiet_robot_is_shown_as_not_answering_not_as_its_last_state():
    view = WatchView("cubebot on /dev/x")
    view.apply_status({"state": "idle", "size": 3, "last_result": None})
    assert "state: IDLE" in view.render()
    view.quiet_s = 12.4
    head = view.render().splitlines()[0]
    assert "NO ANSWER for 12 s" in head and "(was IDLE)" in head


def test_check_and_retry_events_are_described():
    ok = describe({"event": "check", "data": {"ok": True, "read": 4, "wrong": [], "slips": []}})
    assert ok == "check: 4 facelets read, all as solved"
    data = {"ok": False, "read": 4, "slips": ["held turn 5 (B') a quarter turn too far"],
            "wrong": [{"facelet": 2, "expected": "U", "seen": "L"}]}
    seen = describe({"event": "check", "data": data})
    assert "facelet 2 reads L, solved U" in seen and "held turn 5 (B')" in seen
    assert describe({"event": "retry", "data": {"try": 2, "of": 3, "reason": "the check saw a slip"}}) \
        == "retry 2 of 3: the check saw a slip"
