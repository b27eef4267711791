"""RobotService's threading contract, with stand-in jobs (the real pipeline is
exercised in tests/integration)."""

import threading

import pytest

from cubebot.robot.errors import RobotError, Stopped
from cubebot.robot.job.service import RobotService


class FakeRobot(object):
    def __init__(self, size, seed):
        self.size, self.seed = size, seed
        self.last_scan = None


def make_jobs(gate):
    def run_job(robot, size, emit=None, stop=None, budget=None):
        emit("state", {"state": "scanning"})
        robot.last_scan = {"1": [1, 2, 3]}
        while not gate.wait(0.01):
            if stop.is_set():
                raise Stopped("stopped on request")
        result = {"solved": True, "size": size, "seed": robot.seed}
        emit("finished", result)
        return result

    def scan_job(robot, size, emit=None, stop=None):
        return {"size": size, "scanned": True}
    return run_job, scan_job


def test_one_run_at_a_time_events_and_result():
    gate = threading.Event()
    service = RobotService(FakeRobot, jobs=make_jobs(gate))
    events = []
    service.subscribe(lambda name, payload: events.append((name, payload)))
    service.start_run(size=2, seed=7)
    with pytest.raises(RobotError, match="already under way"):
        service.start_run()
    assert service.status()["running"] is True
    gate.set()
    result = service.wait(5)
    assert result == {"solved": True, "size": 2, "seed": 7}
    names = [name for name, _ in events]
    assert names[0] == "state" and "finished" in names and names[-1] == "state"
    status = service.status()
    assert status["state"] == "idle" and status["running"] is False and status["last_result"] == result
    assert service.last_scan() == {"1": [1, 2, 3]}
    assert service.stop() is False


def test_stop_ends_the_run():
    gate = threading.Event()
    service = RobotService(FakeRobot, jobs=make_jobs(gate))
    service.start_run()
    assert service.stop() is True
    result = service.wait(5)
    assert result["solved"] is False and result["stopped"] is True
    assert service.status()["state"] == "idle"


def test_a_failing_job_reports_an_error():
    def broken(robot, size, emit=None, stop=None, budget=None):
        raise RobotError("table motor stalled")
    service = RobotService(FakeRobot, jobs=(broken, broken))
    seen = []
    service.subscribe(lambda name, payload: seen.append((name, payload)))
    service.start_run()
    result = service.wait(5)
    assert result["error"] == "table motor stalled"
    assert ("error", {"message": "table motor stalled"}) in seen
    assert service.status()["state"] == "error"


def test_status_carries_the_battery_when_the_robot_has_one():
    assert "battery_v" not in RobotService(FakeRobot).status()
    assert RobotService(FakeRobot, battery=lambda: 7.8345).status()["battery_v"] == 7.83

    def broken():
        raise OSError("no such file: voltage_now")
    assert RobotService(FakeRobot, battery=broken).status()["battery_v"] is None


def test_a_broken_listener_is_logged_and_the_run_goes_on(caplog):
    import logging
    from cubebot.robot.job import service as service_module
    gate = threading.Event()
    gate.set()
    service = RobotService(FakeRobot, jobs=make_jobs(gate))
    seen = []

    def broken(name, payload):
        raise KeyError("listener bug on " + name)
    service.subscribe(broken)
    service.subscribe(lambda name, payload: seen.append(name))
    with caplog.at_level(logging.ERROR, logger=service_module.__name__):
        service.start_run(size=3, seed=1)
        result = service.wait(30)
    assert result["solved"] is True and "finished" in seen       # the run and the others went on
    logged = [r for r in caplog.records if r.name == service_module.__name__]
    assert logged and all(r.exc_info and r.exc_info[0] is KeyError for r in logged), logged
    assert any("listener bug on finished" in r.getMessage() + str(r.exc_info[1]) for r in logged)
