"""The classroom page against `cubebot serve` as a real process: over a pty pair (the serial
link) and over TCP on loopback (with its pairing code); a dropped link is shown and recovered."""

import json
import os
import re
import signal
import subprocess
import sys
import threading

import pytest

from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply

from cubebot.robot.link.ptypair import PtyBridge
from cubebot.robot.link.server import open_serial
from cubebot.robot.link.tcp import open_tcp
from cubebot.robot.ui.classroom.sources import LinkSource
from tests.integration.classroom_support import Classroom, banner, request, wait_for

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROC_TIMEOUT_S = 120
LISTENING = re.compile(r"listening on [0-9.]+:([0-9]+) as .*, pairing code ([0-9]+)")


class Serve(object):
    """`cubebot serve ARGS --sim` (or another command) as a process; its stderr lines collected."""

    def __init__(self, *args, command="serve"):
        self.proc = subprocess.Popen([sys.executable, "-m", "cubebot", command] + list(args) + ["--sim"],
                                     cwd=ROOT, stderr=subprocess.PIPE, universal_newlines=True)
        self.lines = []
        self.changed = threading.Condition()
        reader = threading.Thread(target=self._read)
        reader.daemon = True
        reader.start()

    def _read(self):
        for line in self.proc.stderr:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()

    def wait_line(self, pattern):
        with self.changed:
            found = self.changed.wait_for(lambda: any(pattern.search(x) for x in self.lines), PROC_TIMEOUT_S)
            assert found, "".join(self.lines)
            return [pattern.search(x) for x in self.lines if pattern.search(x)][-1]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(PROC_TIMEOUT_S) == 0


def _cubebot_run(argv):
    return subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=PROC_TIMEOUT_S)


def _ended(snap):
    run = snap["run"]
    return run is not None and run["ended"] is not None and run["result"] is not None


def _run_to_solved(port, **fields):
    before = len(request(port, "GET", "/api/snapshot")[1]["runs"])
    status, reply = request(port, "POST", "/api/run", fields)
    assert status == 200, reply
    snap = wait_for(port, lambda s: _ended(s) and len(s["runs"]) == before + 1, "the run's end")
    run = snap["run"]
    assert run["result"]["solved"] is True and banner(snap).startswith("Solved: ")
    assert len(run["scan"]["raw"]) == 54 and run["scan"]["resolved"] == run["result"]["state"]
    assert is_solved(apply(run["scan"]["resolved"], " ".join(run["solution"]["moves"])))
    assert run["cube"] == apply(run["scan"]["resolved"], " ".join(run["solution"]["moves"]))
    return snap


def test_the_page_over_a_serial_link_and_a_link_that_drops(tmp_path):
    bridge = PtyBridge(tmp_path)
    serve = Serve("--port", bridge.robot)
    room = Classroom(LinkSource(bridge.laptop, open_serial), str(tmp_path / "runs.json"))
    try:
        wait_for(room.port, lambda s: s["link"]["state"] == "up" and banner(s) == "Ready", "the link")
        snap = _run_to_solved(room.port, seed=6)
        assert snap["robot"]["sizes"] == [2, 3]
        bridge.vanish()
        wait_for(room.port, lambda s: banner(s) == "Link lost: reconnecting", "the lost link on the page")
        bridge.restore()
        wait_for(room.port, lambda s: s["link"]["state"] == "up", "the link back")
        _run_to_solved(room.port, seed=8)
        assert len(room.runlog.runs()) == 2
    finally:
        room.close()
        serve.stop()
        bridge.close()


def test_the_page_over_tcp_needs_the_pairing_code_and_survives_a_restarted_brick(tmp_path):
    serve = Serve("--tcp", "127.0.0.1:0")
    room = None
    try:
        port, code = serve.wait_line(LISTENING).groups()
        room = Classroom(LinkSource("tcp://127.0.0.1:" + port, open_tcp), str(tmp_path / "runs.json"))
        snap = wait_for(room.port, lambda s: s["link"]["state"] == "up" and s["robot"]["sizes"], "the link")
        assert snap["link"]["pairing"] == {"required": True, "paired": False}
        status, reply = request(room.port, "POST", "/api/run", {})
        assert status == 403 and "pairing code" in reply["error"]
        wrong = "1" + code[1:] if code[0] != "1" else "2" + code[1:]
        assert request(room.port, "POST", "/api/pair", {"code": wrong})[0] == 400
        assert request(room.port, "POST", "/api/pair", {"code": code})[0] == 429       # slowed
        wait_for(room.port, lambda s: request(room.port, "POST", "/api/pair", {"code": code})[0] == 200,
                 "pairing after the wait")
        wait_for(room.port, lambda s: s["link"]["pairing"]["paired"], "paired on the page")
        _run_to_solved(room.port, seed=3)
        # the terminal client on the same brick: watching is open, moving needs the code
        remote = [sys.executable, "-m", "cubebot", "remote", "--port", "tcp://127.0.0.1:" + port]
        out = _cubebot_run(remote + ["status"])
        assert out.returncode == 0 and "state: idle" in out.stdout, out.stderr
        out = _cubebot_run(remote + ["run", "--seed", "5"])
        assert out.returncode == 1 and out.stderr.count("\n") == 1 and "pairing code" in out.stderr
        out = _cubebot_run(remote + ["--code", code, "--json", "run", "--seed", "5"])
        assert out.returncode == 0, out.stderr
        serve.stop()
        wait_for(room.port, lambda s: banner(s) == "Link lost: reconnecting", "the lost link on the page")
        serve = Serve("--tcp", "127.0.0.1:" + port)
        new_code = serve.wait_line(LISTENING).group(2)
        snap = wait_for(room.port, lambda s: s["link"]["state"] == "up", "the link back")
        if new_code != code:                   # a new brick session: a new code to type
            assert snap["link"]["pairing"] == {"required": True, "paired": False}
            wait_for(room.port, lambda s: request(room.port, "POST", "/api/pair", {"code": new_code})[0] == 200,
                     "pairing with the new code")
        _run_to_solved(room.port, seed=4)
    finally:
        if room is not None:
            room.close()
        serve.stop()


def test_serve_refuses_a_bad_tcp_address_in_one_line():
    out = subprocess.run([sys.executable, "-m", "cubebot", "serve", "--tcp", "host:99999", "--sim"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                         timeout=PROC_TIMEOUT_S)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


@pytest.mark.parametrize("args", [["--port", "/dev/null", "--tcp", "7000"], []])
def test_serve_takes_exactly_one_of_port_and_tcp(args):
    out = subprocess.run([sys.executable, "-m", "cubebot", "serve", "--sim"] + args, cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                         timeout=PROC_TIMEOUT_S)
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_the_classroom_command_serves_a_run_and_ends_on_sigterm(tmp_path):
    log = tmp_path / "runs.json"
    proc = subprocess.Popen([sys.executable, "-m", "cubebot", "classroom", "--sim", "--speed", "50", "--no-browser",
                             "--http-port", "0", "--log", str(log)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True)
    try:
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:([0-9]+)/", line)
        assert found, line
        port = int(found.group(1))
        _run_to_solved(port, seed=9)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(PROC_TIMEOUT_S) == 0
    assert proc.stderr.read() == ""
    assert len(json.loads(log.read_text())["runs"]) == 1
