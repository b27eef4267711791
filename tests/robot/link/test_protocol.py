"""The request checker and dispatcher against a contract-following fake service."""

import pytest

from cubebot.robot.errors import FrameError
from cubebot.robot.link import protocol
from cubebot.robot.link.protocol import Dispatcher
from cubebot.solver.facelets import solved

from .fake_service import FakeService


@pytest.fixture
def service():
    svc = FakeService()
    yield svc
    svc.stop()
    svc.wait(5)


@pytest.fixture
def dispatcher(service):
    return Dispatcher(service, "9.9.9")


def test_hello_names_versions_and_state(dispatcher):
    hello = dispatcher.hello()
    assert hello["event"] == "hello" and "id" not in hello
    data = hello["data"]
    assert data["protocol"] == protocol.PROTOCOL_VERSION
    assert data["software"] == "9.9.9"
    assert data["state"] == "idle"
    assert "run" in data["commands"]


def test_ping_and_status(dispatcher):
    assert dispatcher.handle({"id": 7, "cmd": "ping"}) == {"id": 7, "ok": True, "result": {"pong": True}}
    reply = dispatcher.handle({"id": 8, "cmd": "status"})
    assert reply["ok"] and reply["result"]["state"] == "idle" and reply["result"]["running"] is False


@pytest.mark.parametrize("message, code, needle, rid", [
    ({"cmd": "ping"}, "bad_request", "missing field 'id'", None),
    ({"id": "1", "cmd": "ping"}, "bad_request", "'id' must be an integer", None),
    ({"id": True, "cmd": "ping"}, "bad_request", "'id' must be an integer", None),
    ({"id": 2 ** 60, "cmd": "ping"}, "bad_request", "'id' must be an integer", None),
    ({"id": 3}, "bad_request", "missing field 'cmd'", 3),
    ({"id": 3, "cmd": 5}, "bad_request", "'cmd' must be a string", 3),
    ({"id": 4, "cmd": "rm -rf /"}, "unknown_command", "unknown command 'rm -rf /'", 4),
    ({"id": 5, "cmd": "solve"}, "bad_request", "missing field 'state'", 5),
    ({"id": 6, "cmd": "solve", "state": 12}, "bad_request", "'state' must be a string", 6),
    ({"id": 7, "cmd": "run", "size": "3"}, "bad_request", "'size' must be an integer", 7),
    ({"id": 8, "cmd": "run", "size": 3.0}, "bad_request", "'size' must be an integer", 8),
    ({"id": 9, "cmd": "run", "size": 99}, "bad_request", "out of range 2..9", 9),
    ({"id": 10, "cmd": "run", "seed": -1}, "bad_request", "'seed' = -1 is out of range", 10),
    ({"id": 11, "cmd": "ping", "file": "/etc/passwd"}, "bad_request", "unknown field 'file'", 11),
    ({"id": 12, "cmd": "solve", "state": "UUU"}, "invalid_cube", "54", 12),
    ({"id": 13, "cmd": "run", "size": 4}, "failed", "only a 3x3x3", 13),
])
def test_bad_requests_get_one_clear_error(dispatcher, message, code, needle, rid):
    reply = dispatcher.handle(message)
    assert reply["ok"] is False
    assert reply["id"] == rid
    assert reply["code"] == code
    assert needle in reply["error"]
    assert "\n" not in reply["error"]


def test_frame_errors_are_answered_without_id(dispatcher):
    reply = dispatcher.handle(FrameError("invalid JSON: x"))
    assert reply == {"id": None, "ok": False, "error": "invalid JSON: x", "code": "bad_frame"}


def test_run_while_running_is_refused(service, dispatcher):
    service.hold()
    assert dispatcher.handle({"id": 1, "cmd": "run"})["ok"]
    again = dispatcher.handle({"id": 2, "cmd": "run"})
    assert again["ok"] is False and again["code"] == "busy"
    assert "already under way" in again["error"]
    scan = dispatcher.handle({"id": 3, "cmd": "scan"})
    assert scan["code"] == "busy"
    assert dispatcher.handle({"id": 4, "cmd": "stop"})["result"] == {"stopping": True}
    assert service.wait(5)["solved"] is False
    assert dispatcher.handle({"id": 5, "cmd": "stop"})["result"] == {"stopping": False}


def test_solve_and_last_scan(service, dispatcher):
    reply = dispatcher.handle({"id": 1, "cmd": "solve", "state": solved(3)})
    assert reply["ok"] and reply["result"]["metric"] == "htm"
    assert dispatcher.handle({"id": 2, "cmd": "last_scan"})["result"] == {"readings": None}
    dispatcher.handle({"id": 3, "cmd": "scan"})
    service.wait(5)
    readings = dispatcher.handle({"id": 4, "cmd": "last_scan"})["result"]["readings"]
    assert sorted(readings, key=int)[:2] == ["1", "2"] and len(readings) == 54


def test_a_bug_in_the_service_becomes_an_internal_error(service, dispatcher):
    def broken():
        raise KeyError("boom")
    service.last_scan = broken
    reply = dispatcher.handle({"id": 1, "cmd": "last_scan"})
    assert reply["code"] == "internal" and "KeyError" in reply["error"]
    assert dispatcher.handle({"id": 2, "cmd": "ping"})["ok"]
