"""cubebot diag on the simulation and on the virtual brick."""

import types


from cubebot.robot.tools import diag
from cubebot.robot.job.robots import open_backend
from cubebot.robot.cli.main import main
from cubebot.robot.machine.config import Config
from cubebot.solver import api
from cubebot.solver.facelets import solved


def _no_table_problems():
    return []


class Volts(object):
    def __init__(self, v):
        self.v = v

    def read_voltage_v(self):
        return self.v


def _wrong_solve(state):
    return types.SimpleNamespace(moves=[], seconds=0.0)


def test_diag_on_the_sim_moves_each_motor_and_reports_ok():
    config = Config()
    with open_backend("sim", config, state=solved(3)) as opened:
        opened.hw.battery = Volts(7.8)
        checks = diag.run_checks(opened.hw, config, verify=_no_table_problems,
                                 solve=api.solve)
    text = diag.report(checks)
    assert not diag.has_fault(checks), text
    for name in ("motor flipper", "motor table", "motor arm", "colour", "proximity", "memory"):
        assert any(c.name == name and c.status == diag.OK for c in checks), (name, text)
    assert sum(1 for c in checks if c.name == "solver") == diag.SELFTEST_CUBES


def test_low_battery_and_a_wrong_solver_are_faults():
    config = Config()
    with open_backend("sim", config, state=solved(3)) as opened:
        opened.hw.battery = Volts(6.1)
        checks = diag.run_checks(opened.hw, config, quick=True, verify=_no_table_problems,
                                 solve=_wrong_solve)
    bad = dict((c.name, c.detail) for c in checks if c.status == diag.FAIL)
    assert "6.10 V" in bad["battery"]
    assert "does NOT solve" in bad["solver"]
    assert "FAULT" in diag.report(checks)


def test_missing_colour_sensor_is_a_clear_diag_failure(capsys):
    import ev3dev2  # noqa: F401,E402 - a required dependency: a broken install fails, never skips
    code = main(["diag", "--virtual-brick", "--quick", "--unplug", "in3"])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL  devices" in out and "colour sensor not found on port in3" in out
    assert "result: FAULT" in out


def test_diag_on_the_virtual_brick_moves_the_motors_through_ev3dev2():
    import ev3dev2  # noqa: F401,E402 - a required dependency: a broken install fails, never skips
    config = Config()
    with open_backend("virtual-brick", config, state=solved(3), missing_ok=True) as opened:
        checks = diag.run_checks(opened.hw, config, verify=_no_table_problems, solve=_wrong_solve)
    motors = [c for c in checks if c.name.startswith("motor ")]
    assert [c.status for c in motors] == [diag.OK] * 3, diag.report(checks)
    assert "outB moved 0 -> 30 -> 0" in motors[1].detail


def test_unplug_needs_the_virtual_brick(capsys):
    assert main(["diag", "--unplug", "in3"]) == 2
    assert "virtual brick" in capsys.readouterr().err


def test_diag_names_each_compiled_module_or_its_slower_path(monkeypatch):
    from cubebot.solver import solve3, search
    from cubebot.solver.solve5 import midges
    checks = dict((c.name, c) for c in diag.check_core())
    assert set(checks) == {"core", "solve5", "finish"}
    assert (checks["finish"].status == diag.OK) == (solve3.finish_path() == solve3.JOINT)
    assert (checks["solve5"].status == diag.OK) == (midges.native() is not None)
    monkeypatch.setenv(search.PURE_PYTHON_ENV, "1")
    checks = dict((c.name, c) for c in diag.check_core())
    assert all(c.status == diag.WARN for c in checks.values()), diag.report(list(checks.values()))
    assert "kociemba" in checks["finish"].detail
