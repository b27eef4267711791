"""The classroom server in this process with the simulated robot: the event stream, commands,
the Origin check, bad requests, the run log across a restart and as CSV."""

import csv
import io
import json
import socket

import pytest

from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply

from cubebot.robot.cli import main as cli
from cubebot.robot.ui.classroom.runlog import RunLog
from tests.integration.classroom_support import (EventStream, banner, request, sim_classroom, snapshot,
                                                 wait_for)


def _solved_run(snap):
    run = snap["run"]
    return run is not None and run["ended"] is not None and run["result"] is not None


def _check_solved(snap):
    run = snap["run"]
    assert run["result"]["solved"] is True
    scanned, moves = run["scan"]["resolved"], run["solution"]["moves"]
    assert is_solved(apply(scanned, " ".join(moves)))
    assert run["cube"] == apply(scanned, " ".join(moves))


def test_a_run_from_the_page_streams_whole_snapshots_and_ends_solved(tmp_path):
    with sim_classroom(tmp_path / "runs.json") as room:
        first = EventStream(room.port)
        snap = first.next_snapshot()            # at once: a tab opened now draws at once
        assert banner(snap) == "Ready" and snap["link"]["state"] == "up" and snap["robot"]["sizes"] == [2, 3]
        status, reply = request(room.port, "POST", "/api/run", {"size": 3, "seed": 4})
        assert status == 200 and reply["ok"] is True
        seen = set()
        late = None
        while True:
            snap = first.next_snapshot()
            seen.add(banner(snap).split(" ")[0])
            if late is None and snap["run"] and snap["run"]["phase"] == "turning":
                late = EventStream(room.port)   # a second tab, opened mid-run
                mid = late.next_snapshot()
                assert mid["run"]["phase"] == "turning" and mid["run"]["solution"]["moves"]
                assert len(mid["run"]["scan"]["raw"]) == 54
            if _solved_run(snap):
                break
        assert {"Scanning", "Thinking", "Turning", "Solved:"} <= seen, seen
        _check_solved(snap)
        assert banner(snap).startswith("Solved: ")
        while not _solved_run(late.next_snapshot()):
            pass
        first.close()
        late.close()
        entry = room.runlog.runs()[-1]
        assert entry["solved"] and entry["moves"] == len(snap["run"]["solution"]["moves"])
    saved = json.loads((tmp_path / "runs.json").read_text())
    assert [r["moves"] for r in saved["runs"]] == [entry["moves"]]


def test_stop_mid_run_leaves_the_robot_safe_and_is_logged_as_stopped(tmp_path):
    with sim_classroom(tmp_path / "runs.json", pace=5) as room:
        assert request(room.port, "POST", "/api/run", {})[0] == 200
        wait_for(room.port, lambda s: banner(s).startswith("Scanning face 2"), "the scan of face 2")
        status, reply = request(room.port, "POST", "/api/stop")
        assert status == 200 and reply["result"]["stopping"] is True
        snap = wait_for(room.port, lambda s: s["run"]["ended"] is not None, "the stopped run's end")
        assert banner(snap) == "Stopped: the robot is safe"
        assert room.runlog.runs()[-1]["stopped"] is True
        assert request(room.port, "POST", "/api/stop")[1]["result"]["stopping"] is False


def test_commands_are_taken_only_from_the_pages_own_origin(tmp_path):
    with sim_classroom(tmp_path / "runs.json") as room:
        port = room.port
        here = "127.0.0.1:{}".format(port)
        refused = [
            {},                                                            # no Origin at all
            {"Origin": "http://evil.example"},
            {"Origin": "http://evil.example:{}".format(port), "Host": "evil.example:{}".format(port)},  # rebinding
            {"Origin": "https://" + here},
            {"Origin": "http://127.0.0.1:1"},
            {"Origin": "null"},
        ]
        for headers in refused:
            status, reply = request(port, "POST", "/api/run", {}, headers=headers, origin=False)
            assert status == 403 and "error" in reply, headers
        assert snapshot(port)["robot"]["running"] is False          # nothing started
        status, reply = request(port, "POST", "/api/stop", headers={"Host": "localhost:{}".format(port),
                                                                    "Origin": "http://localhost:{}".format(port)},
                                origin=False)
        assert status == 200 and reply["result"] == {"stopping": False}
        # watching needs no Origin
        assert request(port, "GET", "/api/snapshot", origin=False)[0] == 200


def _raw(port, data):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(data)
    chunks = []
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
    sock.close()
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode("utf-8")


def test_bad_requests_get_a_4xx_and_one_line_and_the_server_goes_on(tmp_path):
    with sim_classroom(tmp_path / "runs.json") as room:
        port = room.port
        cases = [
            ("GET", "/nope", None, {}, 404),
            ("GET", "/static/../server.py", None, {}, 404),
            ("GET", "/static/secret.py", None, {}, 404),
            ("POST", "/api/reboot", {}, {}, 404),
            ("POST", "/api/run", b"{not json", {}, 400),
            ("POST", "/api/run", b"\xff\xfe", {}, 400),
            ("POST", "/api/run", [1, 2], {}, 400),
            ("POST", "/api/run", {"size": 9}, {}, 400),
            ("POST", "/api/run", {"size": "big"}, {}, 400),
            ("POST", "/api/run", {"seed": -1}, {}, 400),
            ("POST", "/api/run", {"speed": 100}, {}, 400),
            ("POST", "/api/pair", {"code": "123456"}, {}, 400),     # no pairing on this robot
            ("POST", "/api/run", b"x" * 5000, {}, 413),
            ("POST", "/api/run", b"{}", {"Content-Length": "abc"}, 400),
            ("DELETE", "/api/run", None, {}, 405),
            ("PUT", "/", None, {}, 405),
        ]
        for method, path, body, headers, expected in cases:
            status, reply = request(port, method, path, body, headers=headers)
            assert status == expected, (method, path, body, status, reply)
            assert isinstance(reply, dict) and reply["error"] and "\n" not in reply["error"], reply
        for data in (b"GARBAGE\r\n\r\n", b"GET /" + b"a" * 70000 + b" HTTP/1.0\r\n\r\n", b"BREW / HTTP/1.0\r\n\r\n"):
            status, body = _raw(port, data)
            assert 400 <= status < 500 and body.count("\n") == 1 and "Traceback" not in body, (status, body)
        assert request(port, "POST", "/api/run", {"seed": 2})[0] == 200
        status, reply = request(port, "POST", "/api/run", {})
        assert status == 409 and "under way" in reply["error"]
        snap = wait_for(port, _solved_run, "the run's end")
        _check_solved(snap)


def test_the_run_log_survives_a_restart_and_exports_as_csv(tmp_path):
    log = tmp_path / "lesson" / "runs.json"
    with sim_classroom(log) as room:
        port = room.port
        for seed in (1, 2):
            request(port, "POST", "/api/run", {"seed": seed})
            wait_for(port, lambda s, runs=seed: _solved_run(s) and len(s["runs"]) == runs, "run")
        moves = [r["moves"] for r in room.runlog.runs()]
    with sim_classroom(log, port=port) as room:              # the server restarted on the same port
        snap = snapshot(room.port)
        assert [r["moves"] for r in snap["runs"]] == moves
        status, text = request(room.port, "GET", "/api/runs.csv")
        assert status == 200
        rows = list(csv.DictReader(io.StringIO(text)))
        assert [int(r["moves"]) for r in rows] == moves and [r["solved"] for r in rows] == ["True", "True"]
        assert all(float(r["wall_seconds"]) > 0 for r in rows)


def test_a_log_that_is_not_a_run_log_is_refused_not_overwritten(tmp_path, capsys):
    bad = tmp_path / "runs.json"
    bad.write_text('{"something": "else"}')
    with pytest.raises(ValueError):
        RunLog(str(bad))
    rc = cli.main(["classroom", "--sim", "--no-browser", "--http-port", "0", "--log", str(bad)])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "run log" in err
    assert bad.read_text() == '{"something": "else"}'


def test_csv_cells_that_a_spreadsheet_would_run_are_defused(tmp_path):
    log = RunLog(str(tmp_path / "runs.json"))
    log.add({"started": 0, "kind": "run", "size": 3, "solved": False, "error": "=HYPERLINK(\"x\")"})
    rows = list(csv.DictReader(io.StringIO(log.csv_text())))
    assert rows[0]["error"].startswith("'=")


def test_the_page_and_every_asset_are_served_from_the_package(tmp_path):
    from cubebot.robot.ui.classroom.server import ASSETS
    with sim_classroom(tmp_path / "runs.json") as room:
        for name in sorted(ASSETS):
            status, body = request(room.port, "GET", "/static/" + name)
            assert status == 200 and body, name
        status, page = request(room.port, "GET", "/")
        assert status == 200 and "<title>cubebot classroom</title>" in page
        # nothing comes from elsewhere: no address outside this server in the page's own files
        for name in ASSETS:
            text = request(room.port, "GET", "/static/" + name)[1]
            assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text, name
