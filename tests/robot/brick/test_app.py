"""The resident app's loop: buttons, proximity, events, screens, LEDs, settings."""

import json
import threading
import time


from cubebot.robot.ui.app import App, Settings
from cubebot.robot.errors import MotorStalled, Stopped
from cubebot.robot.job.service import RobotService

import PIL  # noqa: F401,E402 - Pillow (the ev3 extra the tests install): a broken install fails, never skips


class ScriptedButtons(object):
    """Buttons whose state the test sets."""

    def __init__(self):
        self.down = set()

    def pressed(self):
        return set(self.down)


class Recorder(object):
    def __init__(self):
        self.items = []

    def show(self, image):
        self.items.append(image.info["screen"])

    def set_color(self, colour):
        self.items.append(colour)

    def speak(self, text):
        self.items.append(text)


class Distance(object):
    def __init__(self, cm):
        self.cm = cm

    def read_distance_cm(self):
        return self.cm


class IO(object):
    def __init__(self):
        self.buttons = ScriptedButtons()
        self.screen = Recorder()
        self.leds = Recorder()
        self.sound = Recorder()
        self.proximity = Distance(60.0)


class WallClock(object):
    def now_s(self):
        return time.monotonic()

    def sleep_s(self, s):
        time.sleep(s)


def fake_jobs(outcome, gate):
    """run_job stand-in: emits the events a real run emits, waits on `gate`."""
    def run_job(robot, size, emit, stop, budget=None):
        emit("state", {"state": "scanning"})
        emit("scan_progress", {"done": 3, "total": 6 * size * size, "readings": {}})
        while not gate.wait(0.01):
            if stop.is_set():
                raise Stopped("stopped on request")
        if isinstance(outcome, Exception):
            raise outcome
        emit("state", {"state": "turning"})
        emit("finished", {"state": "U" * 54})
        return {"solved": True, "moves": ["R", "U"], "total_seconds": 12.0, "size": size, "state": "U" * 54}
    return (run_job, None)


def make_app(tmp_path, outcome=None):
    gate = threading.Event()
    service = RobotService(lambda size, seed: object(), jobs=fake_jobs(outcome, gate))
    io = IO()
    app = App(service, io, Settings(str(tmp_path / "app.json")), WallClock(), cube_present_cm=8.0)
    return app, io, service, gate


def press(app, io, name):
    io.buttons.down = {name}
    app.step()
    io.buttons.down = set()
    app.step()


def until_idle(app, service):
    service.wait(5)
    for _ in range(100):
        app.step()
        if app.mode == "ready":
            return
        time.sleep(0.01)
    raise AssertionError("the app did not return to ready")


def test_enter_starts_a_run_and_the_result_is_shown_and_spoken(tmp_path):
    app, io, service, gate = make_app(tmp_path)
    assert io.leds.items[-1] == "GREEN" and io.screen.items[-1] == "ready"
    press(app, io, "enter")
    assert app.mode == "working" and io.leds.items[-1] == "AMBER"
    assert io.screen.items[-1] == "working"
    for _ in range(200):
        app.step()
        if app.view.total:
            break
        time.sleep(0.01)
    assert app.view.total == 54 and app.view.done == 3
    gate.set()
    until_idle(app, service)
    assert io.leds.items[-1] == "GREEN"
    assert io.sound.items[-1] == "Solved in 2 moves"
    assert app.view.last.startswith("solved, 2 moves")
    assert io.screen.items[-1] == "ready"


def test_backspace_aborts_and_the_app_is_ready_again(tmp_path):
    app, io, service, gate = make_app(tmp_path)
    press(app, io, "enter")
    press(app, io, "backspace")
    until_idle(app, service)
    assert app.view.last == "stopped"
    assert service.status()["last_result"]["stopped"]
    assert io.leds.items[-1] == "GREEN"
    press(app, io, "enter")               # and it can run again
    assert app.mode == "working"
    gate.set()
    until_idle(app, service)
    assert app.finished_runs == 2


def test_a_motor_fault_is_shown_in_red_and_the_app_carries_on(tmp_path, caplog):
    app, io, service, gate = make_app(tmp_path, outcome=MotorStalled("table motor on outB stalled"))
    press(app, io, "enter")
    gate.set()
    until_idle(app, service)
    assert io.leds.items[-1] == "RED"
    assert io.screen.items[-1] == "error"
    assert "table motor on outB stalled" in caplog.text
    press(app, io, "enter")               # ready again: a new run starts (and fails again)
    until_idle(app, service)
    assert app.finished_runs == 2


def test_a_cube_put_on_the_table_starts_a_run_once(tmp_path):
    app, io, service, gate = make_app(tmp_path)
    app.step()
    assert app.mode == "ready"
    io.proximity.cm = 4.0
    app.step()
    assert app.mode == "working"
    gate.set()
    until_idle(app, service)
    for _ in range(3):                    # the cube is still there: no new run
        app.step()
    assert app.mode == "ready"


def test_up_down_choose_the_size_and_it_is_remembered(tmp_path):
    app, io, service, gate = make_app(tmp_path)
    assert app.settings.size == 3
    press(app, io, "down")
    assert app.settings.size == 2
    press(app, io, "down")                # 2 is the smallest
    assert app.settings.size == 2
    assert json.loads((tmp_path / "app.json").read_text()) == {"size": 2}
    assert Settings(str(tmp_path / "app.json")).size == 2
    press(app, io, "up")
    assert Settings(str(tmp_path / "app.json")).size == 3


def test_a_damaged_settings_file_falls_back_to_the_default(tmp_path):
    path = tmp_path / "app.json"
    path.write_text("{not json")
    assert Settings(str(path)).size == 3


def test_a_run_started_elsewhere_is_followed_not_restarted(tmp_path):
    """The serial link shares the service: its run shows as working, BACKSPACE stops it."""
    app, io, service, gate = make_app(tmp_path)
    service.start_run(size=3)               # as the link's `run` does
    io.proximity.cm = 5.0                   # ... and the cube it scrambled is seen arriving
    app.step()
    assert app.mode == "working" and io.leds.items[-1] == "AMBER"
    press(app, io, "backspace")
    until_idle(app, service)
    assert app.view.last == "stopped" and app.finished_runs == 1


def test_the_net_fills_in_while_scanning():
    from cubebot.robot.ui.app import View, nearest_face
    from cubebot.robot.colour.scheme import EV3_TYPICAL_RAW, STANDARD_SCHEME
    for face, colour in sorted(STANDARD_SCHEME.items()):
        assert nearest_face(EV3_TYPICAL_RAW[colour]) == face
    view = View()
    view.on_event("scan_progress", {"done": 1, "total": 24, "readings": {"5": [28, 230, 36]}})
    view.on_event("scan_progress", {"done": 2, "total": 24, "readings": {"0": [260, 430, 250]}})
    assert view.facelets == "U" + "?" * 4 + "F" + "?" * 18
