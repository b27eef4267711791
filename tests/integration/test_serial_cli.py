"""`cubebot serve` and `cubebot remote` as real processes over a pty pair."""

import json
import os
import signal
import subprocess
import sys

import pytest

from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply

from cubebot.robot.link.ptypair import PtyBridge


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROC_TIMEOUT_S = 120


def cubebot(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "cubebot"] + list(args), cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=PROC_TIMEOUT_S, **kwargs)


@pytest.fixture
def served(tmp_path):
    """A pty pair with `cubebot serve --sim` on the robot end; yields the laptop end."""
    bridge = PtyBridge(tmp_path)
    command = ["serve", "--port", bridge.robot, "--sim"]
    proc = subprocess.Popen([sys.executable, "-m", "cubebot"] + command, cwd=ROOT, stderr=subprocess.PIPE,
                            universal_newlines=True)
    try:
        for _ in range(100):
            if cubebot("remote", "--port", bridge.laptop, "--timeout", "1", "ping").returncode == 0:
                break
        yield bridge.laptop, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.wait(PROC_TIMEOUT_S)
        bridge.close()


def test_remote_run_json_ends_solved_and_sigterm_stops_serve(served):
    laptop, proc = served
    out = cubebot("remote", "--port", laptop, "--json", "run", "--seed", "7")
    assert out.returncode == 0, out.stderr
    messages = [json.loads(line) for line in out.stdout.splitlines()]
    assert messages[0]["ok"] is True and messages[0]["result"]["started"] == "run"
    finished = messages[-1]
    assert finished["event"] == "finished" and finished["data"]["solved"] is True
    assert is_solved(apply(finished["data"]["state"], " ".join(finished["data"]["moves"])))
    assert sum(1 for m in messages if m.get("event") == "scan_progress") == 54
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(PROC_TIMEOUT_S) == 0                # TimeoutExpired fails the test
    assert "stopped" in proc.stderr.read()


def test_watch_plain_starts_a_run_with_a_key(served):
    laptop, _ = served
    out = cubebot("remote", "--port", laptop, "watch", "--once", input="r\n")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("connected to ")
    assert "state: scanning" in lines and lines[-1].startswith("finished: SOLVED in ")


def test_remote_exit_codes_and_one_line_errors(served, tmp_path):
    laptop, _ = served
    ok = cubebot("remote", "--port", laptop, "status")
    assert ok.returncode == 0 and ok.stdout.startswith("state: idle")
    bad_cube = cubebot("remote", "--port", laptop, "solve", "UUUU")
    assert bad_cube.returncode == 2 and len(bad_cube.stderr.splitlines()) == 1
    bad_size = cubebot("remote", "--port", laptop, "run", "--size", "9")
    assert bad_size.returncode == 2 and "out of range" in bad_size.stderr
    solve = cubebot("remote", "--port", laptop, "solve", "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD")
    assert solve.returncode == 0
    moves = solve.stdout.split(" (")[0]
    assert is_solved(apply("DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD", moves))
    missing = cubebot("remote", "--port", str(tmp_path / "nothing"), "status")
    assert missing.returncode == 1
    assert missing.stderr.strip() == "cubebot: cannot open {}: No such file or directory".format(tmp_path / "nothing")


def test_serve_waits_for_a_missing_device_and_stops_on_sigterm(tmp_path):
    device = str(tmp_path / "rfcomm0")
    proc = subprocess.Popen([sys.executable, "-m", "cubebot", "serve", "--port", device, "--sim"], cwd=ROOT,
                            stderr=subprocess.PIPE, universal_newlines=True)
    try:
        first = proc.stderr.readline()
        assert "serving the sim robot on " + device in first
        waiting = proc.stderr.readline()
        assert waiting.strip() == "serve: waiting for {}: No such file or directory".format(device)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(PROC_TIMEOUT_S) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(PROC_TIMEOUT_S)


def test_serve_rejects_bad_options_in_one_line(tmp_path):
    out = cubebot("serve", "--port", str(tmp_path / "x"), "--sim", "--size", "5")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "--size: 5 is not a size" in out.stderr
