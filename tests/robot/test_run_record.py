"""Power or link lost mid-run: after a restart the app says what it knows, never "solved".

The run's state is recorded in a file (atomically) as it goes. The power loss is real: a
process runs the service with a run that stops mid-turn, and is killed by SIGKILL once its
record says it is turning; a new service (the restarted app) then reads the record.
"""

import json
import os
import signal
import subprocess
import sys
import time

from cubebot.robot.job.service import RobotService

TIMEOUT_S = 120.0             # generous: the killed process reaches its turns in well under a second
POLL_S = 0.02

RUN_THAT_LOSES_POWER = """
import sys, threading
from cubebot.robot.job.service import RobotService

class Robot(object):
    last_scan = None

def run_job(robot, size, emit=None, stop=None, budget=None):
    emit("state", {"state": "scanning"})
    emit("state", {"state": "solving"})
    emit("solution", {"moves": ["R", "U", "F", "L", "D"]})
    emit("state", {"state": "turning"})
    for done in range(1, 3):
        emit("move_progress", {"done": done, "total": 5})
    threading.Event().wait()           # mid-turn: the power goes here

service = RobotService(lambda size, seed: Robot(), record_path=sys.argv[1], jobs=(run_job, None))
service.start_run(size=3, seed=4)
service.wait()
"""


def _lose_power_mid_run(record):
    proc = subprocess.Popen([sys.executable, "-c", RUN_THAT_LOSES_POWER, str(record)])
    try:
        deadline = time.monotonic() + TIMEOUT_S
        while time.monotonic() < deadline:
            if record.exists():
                seen = json.loads(record.read_text())
                if seen.get("moves_done") == 2:
                    break
            assert proc.poll() is None, "the run process ended by itself"
            time.sleep(POLL_S)
        else:
            raise AssertionError("the run never reached its second move")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def test_after_a_power_loss_mid_turn_the_restarted_service_says_so(tmp_path):
    record = tmp_path / "last-run.json"
    _lose_power_mid_run(record)
    restarted = RobotService(lambda size, seed: None, record_path=str(record))
    last = restarted.status()["last_result"]
    assert last["solved"] is False and last["interrupted"] is True, last
    assert last["stage"] == "turning" and last["moves_done"] == 2 and last["moves_total"] == 5
    assert "did not end" in last["error"] and "2 of 5 moves" in last["error"], last["error"]
    assert [n for n in os.listdir(str(tmp_path)) if ".tmp" in n] == []      # written atomically


def test_the_app_shows_the_interrupted_run_after_a_restart(tmp_path):
    from cubebot.robot.ui.app import App, Settings
    record = tmp_path / "last-run.json"
    _lose_power_mid_run(record)
    service = RobotService(lambda size, seed: None, record_path=str(record))

    class NoDevices(object):
        buttons = screen = leds = sound = proximity = None

    class Clock(object):
        def now_s(self):
            return 0.0

    app = App(service, NoDevices(), Settings(str(tmp_path / "app.json")), Clock(), 5.0)
    assert app.view.last is not None and "solved" not in app.view.last.replace("unsolved", "")
    assert "did not end" in app.view.last and "turning" in app.view.last, app.view.last


def test_a_run_that_ended_is_recorded_as_it_ended(tmp_path):
    record = str(tmp_path / "last-run.json")

    class Robot(object):
        last_scan = None

    def solved_job(robot, size, emit=None, stop=None, budget=None):
        emit("state", {"state": "turning"})
        return {"solved": True, "size": size, "moves": ["R"]}

    service = RobotService(lambda size, seed: Robot(), record_path=record, jobs=(solved_job, None))
    service.start_run(size=3)
    assert service.wait(TIMEOUT_S)["solved"] is True
    restarted = RobotService(lambda size, seed: None, record_path=record)
    assert restarted.status()["last_result"]["solved"] is True

    def failing_job(robot, size, emit=None, stop=None, budget=None):
        emit("state", {"state": "turning"})
        raise RuntimeError("motor stalled")
    service = RobotService(lambda size, seed: Robot(), record_path=record, jobs=(failing_job, None))
    service.start_run(size=3)
    service.wait(TIMEOUT_S)
    last = RobotService(lambda size, seed: None, record_path=record).status()["last_result"]
    assert last["solved"] is False and "motor stalled" in last["error"]


def test_an_unreadable_record_claims_nothing(tmp_path):
    record = tmp_path / "last-run.json"
    record.write_bytes(b'{"run": "ended", "result": {"solved": tr')         # a torn file
    last = RobotService(lambda size, seed: None, record_path=str(record)).status()["last_result"]
    assert last["solved"] is False and "unreadable" in last["error"], last
