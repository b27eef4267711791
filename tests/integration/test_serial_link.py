"""The serial link end to end: real pyserial over a pty pair, the real server with the
simulated robot (`serve --sim`'s service) on one end, the real client on the other."""

import threading
import time

import pytest
import serial

from cubebot.robot.cli.serve import link_server, sim_service
from cubebot.robot.errors import LinkError, RemoteError
from cubebot.robot.link.client import LinkClient
from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply

from cubebot.robot.link.ptypair import PtyBridge


EVENT_WAIT_S = 30.0          # generous bound for one event: a hang fails, never blocks CI
RUN_WAIT_S = 120.0
PARTIAL_S = 0.3              # the server's partial-line timeout in these tests


@pytest.fixture
def bridge(tmp_path):
    cable = PtyBridge(tmp_path)
    yield cable
    cable.close()


@pytest.fixture
def service():
    svc = sim_service(3, first_seed=11)
    yield svc
    svc.stop()
    svc.wait(RUN_WAIT_S)


@pytest.fixture
def server(service, bridge):
    srv = link_server(service, bridge.robot, reconnect_max_s=0.2, partial_timeout_s=PARTIAL_S).start()
    assert srv.connected.wait(5)
    yield srv
    srv.close(5)


@pytest.fixture
def client(server, bridge):
    with LinkClient(bridge.laptop, timeout_s=10) as link:
        yield link


def events_until(link, names, limit_s=RUN_WAIT_S):
    """Events up to and including the first whose name is in `names`."""
    seen = []
    deadline = time.time() + limit_s
    while time.time() < deadline:
        message = link.next_event(EVENT_WAIT_S)
        assert message is not None, "no event within {} s after {}".format(EVENT_WAIT_S, seen[-3:])
        seen.append(message)
        if message["event"] in names:
            return seen
    raise AssertionError("run did not end within {} s".format(limit_s))


def test_hello_is_the_first_line(service, bridge):
    laptop = serial.Serial(bridge.laptop, timeout=5)
    try:
        srv = link_server(service, bridge.robot).start()
        line = laptop.readline()
        srv.close(5)
    finally:
        laptop.close()
    import json
    hello = json.loads(line.decode("utf-8"))
    assert hello["event"] == "hello" and "id" not in hello
    assert hello["data"]["protocol"] == 1 and hello["data"]["state"] == "idle"
    assert hello["data"]["software"]


def test_full_run_streams_events_and_solves(client, service):
    client.drain_events()
    result = client.request("run", seed=5)
    assert result["started"] == "run"
    events = events_until(client, ("finished", "error"))
    names = [e["event"] for e in events]
    assert names[-1] == "finished", events[-3:]
    finished = events[-1]["data"]
    assert finished["solved"] is True
    # the moves the robot reports really solve the cube it scanned
    assert is_solved(apply(finished["state"], " ".join(finished["moves"])))
    states = [e["data"]["state"] for e in events if e["event"] == "state"]
    assert states[:3] == ["scanning", "solving", "turning"]
    scans = [e["data"] for e in events if e["event"] == "scan_progress"]
    assert [s["done"] for s in scans][-1] == 54 and all(len(s["readings"]) == 1 for s in scans)
    solution = [e["data"] for e in events if e["event"] == "solution"]
    assert solution[0]["moves"] == finished["moves"] and solution[0]["state"] == finished["state"]
    progress = [e["data"]["done"] for e in events if e["event"] == "move_progress"]
    assert progress == list(range(1, len(finished["moves"]) + 1))
    status = client.request("status")
    assert status["last_result"]["solved"] is True
    readings = client.request("last_scan")["readings"]
    assert sorted(readings, key=int) == [str(i) for i in range(1, 55)]


def ping_works(client):
    assert client.request("ping") == {"pong": True}


def raw_reply(client, data):
    """Write raw bytes and return the next reply that has no usable id."""
    client._port.write(data)
    deadline = time.time() + EVENT_WAIT_S
    while time.time() < deadline:
        with client._cond:
            client._cond.wait_for(lambda: None in client._replies, 0.1)
            reply = client._replies.pop(None, None)
        if reply is not None:
            return reply
    raise AssertionError("no reply to {!r}".format(data[:40]))


@pytest.mark.parametrize("data, needle", [
    (b"\x00\xff\xfe\x80\x81garbage\n", "not UTF-8"),
    (b"{\"id\": 1, \"cmd\": \"ping\"\n", "invalid JSON"),
    (b"[1, 2, 3]\n", "JSON object"),
    (b"{\"cmd\": \"ping\"}\n", "missing field 'id'"),
    (b"{\"id\": \"7\", \"cmd\": \"ping\"}\n", "'id' must be an integer"),
])
def test_malformed_lines_get_an_error_and_the_link_goes_on(client, data, needle):
    reply = raw_reply(client, data)
    assert reply["ok"] is False and needle in reply["error"]
    ping_works(client)


@pytest.mark.parametrize("fields, code, needle", [
    ({"cmd": "format_disk"}, "unknown_command", "unknown command 'format_disk'"),
    ({"cmd": "solve"}, "bad_request", "missing field 'state'"),
    ({"cmd": "solve", "state": ["U"]}, "bad_request", "'state' must be a string"),
    ({"cmd": "run", "size": "big"}, "bad_request", "'size' must be an integer"),
    ({"cmd": "run", "size": 5}, "bad_request", "out of range 2..3"),
    ({"cmd": "run", "seed": 1.5}, "bad_request", "'seed' must be an integer"),
    ({"cmd": "solve", "state": "UUUUUUUU"}, "invalid_cube", ""),
])
def test_bad_requests_are_refused_with_their_id(client, fields, code, needle):
    client.send_raw(dict(fields, id=4242))
    deadline = time.time() + EVENT_WAIT_S
    reply = None
    while reply is None and time.time() < deadline:
        with client._cond:
            client._cond.wait_for(lambda: 4242 in client._replies, 0.1)
            reply = client._replies.pop(4242, None)
    assert reply is not None
    assert reply["ok"] is False and reply["code"] == code and needle in reply["error"]
    ping_works(client)


def test_overlong_line_is_dropped_silently(client, server):
    client._port.write(b"{\"id\": 9, \"cmd\": \"ping\", \"x\": \"" + b"x" * (70 * 1024) + b"\"}\n")
    ping_works(client)
    assert server.stats["discarded"] == 1
    assert 9 not in client._replies


def test_partial_line_then_silence_is_dropped(client, server):
    client._port.write(b"{\"id\": 9, \"cmd\": \"pi")
    time.sleep(PARTIAL_S * 3)
    ping_works(client)
    assert server.stats["discarded"] == 1


def test_echoed_events_and_replies_are_ignored(client, server):
    client.send_raw({"event": "state", "data": {"state": "idle"}})
    client.send_raw({"id": 3, "ok": True, "result": {}})
    ping_works(client)
    assert server.stats["ignored"] == 2


class Gate(object):
    """A service listener that holds the run thread at the first `name` event until opened,
    so that a test can act in the middle of a run however fast the simulation is."""

    def __init__(self, service, name):
        self.name = name
        self.reached = threading.Event()
        self.opened = threading.Event()
        self.service = service
        service.subscribe(self)

    def __call__(self, name, payload):
        if name == self.name and not self.reached.is_set():
            self.reached.set()
            self.opened.wait(RUN_WAIT_S)

    def wait_reached(self):
        """True once the run is held at the gate; False if it ended first."""
        deadline = time.time() + RUN_WAIT_S
        while not self.reached.wait(0.05):
            if time.time() > deadline or (self.service.wait(0) is not None and
                                          not self.service.status()["running"]):
                return False
        return True

    def open(self):
        self.opened.set()
        self.service.unsubscribe(self)


def test_run_while_running_is_refused_and_stop_ends_it(client, service):
    client.drain_events()
    gate = Gate(service, "move_progress")
    try:
        client.request("run", seed=2)
        assert gate.wait_reached(), "the run ended before turning: {}".format(service.status())
        with pytest.raises(RemoteError) as info:
            client.request("run")
        assert info.value.code == "busy" and "already under way" in str(info.value)
        with pytest.raises(RemoteError):
            client.request("scan", seed=3)
        assert client.request("stop") == {"stopping": True}
    finally:
        gate.open()
    events = events_until(client, ("error", "finished"))
    assert events[-1]["event"] == "error" and "stop" in events[-1]["data"]["message"]
    moves = [e["data"]["done"] for e in events if e["event"] == "move_progress"]
    assert moves and max(moves) < [e for e in events if e["event"] == "move_progress"][0]["data"]["total"]
    service.wait(RUN_WAIT_S)
    status = client.request("status")
    assert status["running"] is False and status["last_result"]["stopped"] is True
    assert client.request("stop") == {"stopping": False}


def test_device_vanishes_mid_run_and_comes_back(client, server, service, bridge):
    client.drain_events()
    gate = Gate(service, "scan_progress")
    try:
        client.request("run", seed=4)
        assert gate.wait_reached()
        bridge.vanish()                   # pulled while the robot is scanning
        with pytest.raises(LinkError):
            for _ in range(100):
                client.request("ping", timeout_s=1)
    finally:
        gate.open()
    service.wait(RUN_WAIT_S)              # the robot carries on without its link
    bridge.restore()
    with LinkClient(bridge.laptop, timeout_s=10) as again:
        hello = None
        deadline = time.time() + EVENT_WAIT_S
        while hello is None and time.time() < deadline:
            try:
                hello = again.request("hello", timeout_s=1)
            except LinkError:
                continue                   # the server has not reopened yet
        assert hello is not None and hello["protocol"] == 1
        assert again.request("status")["last_result"]["solved"] is True
    assert server.stats["link_losses"] == 1 and server.stats["connections"] >= 2


def test_watch_redraws_in_place_and_starts_a_run_with_a_key(server, bridge):
    import argparse
    import io

    from cubebot.robot.cli.remote import _Out, _client
    from cubebot.robot.ui.watcher import watch
    args = argparse.Namespace(port=bridge.laptop, baud=None, timeout=10.0, json=False, once=True, scale=2)
    screen = io.StringIO()
    keys = io.StringIO("r\n")
    code = watch(_client, args, _Out(False, screen), stream_is_tty=True, keys_stream=keys)
    text = screen.getvalue()
    assert code == 0
    assert text.count("\x1b[H") >= 2                   # redrawn in place, not scrolled
    last = text.rsplit("\x1b[H", 1)[1]
    assert "state: IDLE" in last or "state: CHECKING" in last      # the last state before finished
    assert "SOLVED in" in last and "\x1b[48;5;" in last  # the coloured net of the solved cube


def test_random_bytes_never_stop_the_server(client, server):
    import random
    rng = random.Random(6)
    for _ in range(20):
        chunk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 5000)))
        client._port.write(chunk)
    client._port.write(b"\n")
    ping_works(client)
    assert server.stats["frame_errors"] + server.stats["discarded"] + server.stats["requests"] >= 1
    assert server.connected.is_set()


def test_the_client_survives_a_robot_that_talks_nonsense(bridge):
    robot_end = serial.Serial(bridge.robot, timeout=0.05)
    try:
        with LinkClient(bridge.laptop, timeout_s=5) as link:
            robot_end.reset_input_buffer()
            link.send_raw({"id": 99, "cmd": "ping"})
            robot_end.write(b"\xff\xfe nonsense\n[1,2]\n{\"ok\": true}\n" + b"x" * (70 * 1024) + b"\n")
            robot_end.write(b"{\"event\": \"state\", \"data\": {\"state\": \"idle\"}}\n")
            robot_end.write(b"{\"id\": 99, \"ok\": true, \"result\": {\"pong\": true}}\n")
            deadline = time.time() + EVENT_WAIT_S
            while 99 not in link._replies and time.time() < deadline:
                time.sleep(0.01)
            assert link._replies[99]["result"] == {"pong": True}
            assert link.next_event(EVENT_WAIT_S)["data"] == {"state": "idle"}
            assert link.frame_errors == 3
            with pytest.raises(LinkError) as info:
                link.request("status", timeout_s=0.2)        # the fake robot never answers
            assert "no reply to status" in str(info.value)
    finally:
        robot_end.close()
