"""The link stays responsive while a solve computes: real pyserial over a pty pair, the real
server and client, the real solver (in the server's forked solve child).

A `solve` is answered later, from its child; meanwhile ping, status and stop are answered
at once; stop kills the child (a stopped solve is abandoned) and the solve gets its one reply.
"""

import contextlib
import os
import random
import threading
import time

import pytest

from cubebot.robot.cli.serve import link_server, sim_service
from cubebot.robot.link.client import LinkClient
from cubebot.robot.link.ptypair import PtyBridge
from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply
from cubebot.solver.scramble import scramble

SOLVE_WAIT_S = 120.0
GATE_POLL_S = 0.01


class HeldService(object):
    """The simulated robot's service, whose solve (in the server's forked solve child) is held
    until the file `gate` exists: a solve that computes for as long as the test wants."""

    def __init__(self, gate):
        self.inner = sim_service(3, first_seed=3)
        self.gate = str(gate)

    def solve(self, state):
        while not os.path.exists(self.gate):
            time.sleep(GATE_POLL_S)
        return self.inner.solve(state)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture
def bridge(tmp_path):
    cable = PtyBridge(tmp_path)
    yield cable
    cable.close()


def _serve(service, bridge):
    server = link_server(service, bridge.robot, reconnect_max_s=0.2).start()
    assert server.connected.wait(5)
    return server


def _solve_in_thread(link, state, timeout_s=SOLVE_WAIT_S):
    box = {}

    def go():
        box["reply"] = link.request_raw("solve", timeout_s, state=state)
    thread = threading.Thread(target=go)
    thread.start()
    return thread, box


def _wait_solving(server):
    deadline = time.monotonic() + 10
    while server._solve is None or not server._solve.running:
        assert time.monotonic() < deadline, "the solve never started"
        time.sleep(0.01)


@contextlib.contextmanager
def _solving(service, bridge, state):
    """(server, link, thread, box) with a solve of `state` sent and computing."""
    server = _serve(service, bridge)
    try:
        with LinkClient(bridge.laptop, timeout_s=10) as link:
            thread, box = _solve_in_thread(link, state)
            _wait_solving(server)
            yield server, link, thread, box
    finally:
        server.close(5)


def test_ping_and_status_answered_while_a_solve_computes_then_the_solution_solves(bridge, tmp_path):
    state = scramble(3, random.Random(8))[0]
    gate = tmp_path / "gate"
    with _solving(HeldService(gate), bridge, state) as (server, link, thread, box):
        assert link.request("ping") == {"pong": True}
        assert link.request("status")["state"] == "idle"
        assert "reply" not in box                      # answered while the solve is held
        gate.write_text("go\n")                       # now the solve may end
        thread.join(SOLVE_WAIT_S)
        reply = box["reply"]
        assert reply["ok"], reply
        assert is_solved(apply(state, " ".join(reply["result"]["moves"])), 3)


def test_stop_abandons_the_solve_kills_its_child_and_answers_it_once(bridge, tmp_path):
    state = scramble(3, random.Random(9))[0]
    gate = tmp_path / "gate"
    service = HeldService(gate)          # held until the gate opens: only a stop can end it
    with _solving(service, bridge, state) as (server, link, thread, box):
        pid = server._solve.pid
        busy = link.request_raw("solve", state=state)
        assert busy["ok"] is False and busy["code"] == "busy"
        stop = link.request("stop")
        assert stop == {"stopping": True}
        thread.join(SOLVE_WAIT_S)
        reply = box["reply"]
        assert reply["ok"] is False and reply["code"] == "failed"
        assert "stopped" in reply["error"]
        with pytest.raises(OSError):
            os.kill(pid, 0)                            # the child is gone (and reaped)
        assert link.request("ping") == {"pong": True}
        gate.write_text("go\n")                       # the link solves again after a stop
        again = link.request("solve", SOLVE_WAIT_S, state=state)
        assert is_solved(apply(state, " ".join(again["moves"])), 3)


def test_a_solve_of_a_size_without_a_solver_is_a_bad_request(bridge, monkeypatch):
    from cubebot.solver import api
    from cubebot.solver.facelets import MAX_SIZE
    missing = [n for n in range(2, MAX_SIZE + 1) if n not in api.solvable_sizes()]
    if not missing:                               # every size has a solver: take one away
        monkeypatch.delitem(api.ENGINES, 6)         # (the forked solve child inherits it)
        missing = [6]
    n = missing[0]
    state = scramble(n, random.Random(2))[0]
    server = _serve(sim_service(3), bridge)
    try:
        with LinkClient(bridge.laptop, timeout_s=10) as link:
            reply = link.request_raw("solve", state=state)
            assert reply["ok"] is False
            assert reply["code"] == "bad_request", reply           # docs/serial-protocol.md
            assert "no solver" in reply["error"]
    finally:
        server.close(5)


def test_a_real_4x4x4_solve_leaves_ping_answered(bridge, tables_dir):
    state = scramble(4, random.Random(4))[0]
    with _solving(sim_service(3), bridge, state) as (server, link, thread, box):
        # pings answered before the solve's reply: the link answers while it computes (a
        # 4x4x4 solve takes seconds, a ping on this machine milliseconds)
        assert link.request("ping") == {"pong": True}
        assert "reply" not in box
        thread.join(SOLVE_WAIT_S)
        reply = box["reply"]
        assert reply["ok"], reply
        assert is_solved(apply(state, " ".join(reply["result"]["moves"]), 4), 4)
