"""The whole job through the real python-ev3dev2 on a virtual brick.

Scan, resolve, solve, plan and turn a scrambled cube: the ev3dev2 backend
drives the virtual brick's fake sysfs, whose physics moves the simulated
cube. Every solution is applied back to the scanned state and checked.
"""

import json
import threading
import time

import pytest

from cubebot.robot.cli.main import main
from cubebot.robot.errors import MotorStalled
from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply

import ev3dev2  # noqa: F401,E402 - a required dependency: a broken install fails, never skips


def _demo(capsys, *args):
    code = main(["demo", "--json"] + list(args))
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("size,seed", [(2, 4), (3, 7)])
def test_demo_on_the_virtual_brick_ends_solved_with_the_same_fields(capsys, size, seed):
    code, result = _demo(capsys, "--virtual-brick", "--size", str(size), "--seed", str(seed))
    assert code == 0 and result["solved"], result
    assert is_solved(apply(result["state"], " ".join(result["moves"]), size), size)
    _, simulated = _demo(capsys, "--size", str(size), "--seed", str(seed))
    assert sorted(result) == sorted(simulated)
    assert result["state"] == simulated["state"]          # the same cube, scanned the same


def test_screenshots_of_a_virtual_brick_run(capsys, tmp_path):
    from PIL import Image
    code, result = _demo(capsys, "--virtual-brick", "--size", "2", "--seed", "1",
                         "--screenshots", str(tmp_path))
    assert code == 0, result
    names = sorted(p.name for p in tmp_path.iterdir())
    assert any("working" in n for n in names) and names[-1].endswith("-result.png")
    assert Image.open(str(tmp_path / names[-1])).size == (178, 128)


def test_stuck_turntable_is_a_clear_error_and_the_robot_is_left_safe():
    from cubebot.robot.job.pipeline import run_job
    from cubebot.robot.job.robots import open_virtual_robot
    with open_virtual_robot(3, 2, fault="stuck-table") as vr:
        with pytest.raises(MotorStalled) as info:
            run_job(vr.robot, 3)
        assert "table motor on outB" in str(info.value)
        vr.brick.clock.sleep_s(0.2)
        for role in ("flipper", "table", "arm"):
            state = vr.brick.motor_state(role)
            assert "running" not in state and "holding" not in state, (role, state)
        assert vr.brick.shaft_deg("flipper") < vr.robot.config.flipper_hold_deg / 2   # let go of the cube


class _Buttons(object):
    def __init__(self):
        self.down = set()

    def pressed(self):
        return set(self.down)


def test_the_app_on_the_virtual_brick_solves_at_enter_and_aborts_at_backspace(tmp_path):
    from cubebot.robot.ui.app import App, Settings
    from cubebot.robot.job.robots import open_backend, scrambled
    from cubebot.robot.machine.config import Config
    from cubebot.robot.hw.ev3.devices import RealClock
    from cubebot.robot.machine.mechanism import Mechanism
    from cubebot.robot.job.pipeline import Robot
    from cubebot.robot.job.service import RobotService
    config = Config()
    with open_backend("virtual-brick", config) as opened:
        hw = opened.hw
        hw.buttons = _Buttons()

        def make_robot(size, seed):
            opened.world.place_cube(scrambled(size, 11))
            return Robot(Mechanism(hw, config), world=opened.world)
        service = RobotService(make_robot)
        settings = Settings(str(tmp_path / "app.json"))
        settings.size = 2
        app = App(service, hw, settings, RealClock(), config.cube_present_cm, poll_s=0.01)

        def press(name):
            hw.buttons.down = {name}
            app.step()
            hw.buttons.down = set()
            app.step()

        def until_ready():
            deadline = time.monotonic() + 120
            while app.mode != "ready" and time.monotonic() < deadline:
                app.step()
                time.sleep(0.01)
            assert app.mode == "ready"

        press("enter")
        assert app.mode == "working"
        until_ready()
        assert app.view.last.startswith("solved"), service.status()
        assert opened.world.is_solved()

        scanning = threading.Event()
        service.subscribe(lambda name, payload: name == "scan_progress" and scanning.set())
        press("enter")
        assert scanning.wait(60)
        press("backspace")
        until_ready()
        assert app.view.last == "stopped"
        assert opened.brick.shaft_deg("flipper") < config.flipper_hold_deg / 2


def test_a_slipped_layer_on_the_virtual_brick_is_caught_rescanned_and_solved(capsys):
    """The slip fault through python-ev3dev2: the check sees it, the run starts again and
    ends solved; the report says so."""
    code, result = _demo(capsys, "--virtual-brick", "--size", "2", "--seed", "4", "--fault", "slip")
    assert code == 0 and result["solved"] and result["truly_solved"], result
    assert result["retries"] == 1 and result["check"]["ok"]
    assert result["check_seconds"] > 0
