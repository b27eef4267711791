"""A 3x3x3 search child that dies, is killed or fails is a solver failure, never an impossible cube.

The children are real forked processes: they are killed by a real SIGKILL or fail inside a
real kociemba call (a MemoryError raised by a kociemba wrapper in the child only).
"""

import logging
import os
import signal
import subprocess
import sys

import pytest

from cubebot.solver import api, scramble, solve3
from cubebot.solver.errors import CubeError, InvalidCube, UnsolvableCube
from .cubes import check_solves, seeded

N = 3
BUDGET_S = 30.0               # generous: every child ends (dies) long before it


def _state(seed=12):
    return scramble.random_state(N, seeded(seed))


def _kill_every_child(monkeypatch):
    def child(kociemba, lettered, view, fd):
        os.kill(os.getpid(), signal.SIGKILL)
    monkeypatch.setattr(solve3, "_child", child)


class _FailsInChild(object):
    """kociemba that works in the test process and runs out of memory in a forked child
    after `good` solutions there."""

    def __init__(self, real, good=0, kill=False):
        self._real, self._parent, self._good, self._kill = real, os.getpid(), good, kill

    def solve(self, *args, **kwargs):
        if os.getpid() != self._parent:
            if self._good <= 0:
                if self._kill:
                    os.kill(os.getpid(), signal.SIGKILL)
                raise MemoryError("simulated: no memory left for the search")
            self._good -= 1
        return self._real.solve(*args, **kwargs)


def _failing_kociemba(monkeypatch, good=0, kill=False):
    import kociemba
    fake = _FailsInChild(kociemba, good, kill)
    monkeypatch.setattr(solve3, "_kociemba", lambda: fake)


def test_killed_children_are_a_solver_failure_not_an_impossible_cube(monkeypatch):
    _kill_every_child(monkeypatch)
    with pytest.raises(CubeError) as info:
        api.solve(_state(), budget=BUDGET_S)
    assert not isinstance(info.value, (UnsolvableCube, InvalidCube)), repr(info.value)
    text = str(info.value)
    assert "killed by signal {}".format(int(signal.SIGKILL)) in text and "\n" not in text, text


def test_a_child_that_fails_is_named_with_its_error(monkeypatch):
    _failing_kociemba(monkeypatch)
    with pytest.raises(CubeError) as info:
        api.solve(_state(), budget=BUDGET_S)
    assert not isinstance(info.value, (UnsolvableCube, InvalidCube)), repr(info.value)
    assert "MemoryError" in str(info.value) and "simulated" in str(info.value), str(info.value)


def test_the_budget_search_falls_back_to_a_solution_it_has(monkeypatch, caplog):
    # every child streams one solution, then is killed by the out-of-memory killer
    _failing_kociemba(monkeypatch, good=1, kill=True)
    state = _state(5)
    with caplog.at_level(logging.WARNING, logger=solve3.__name__):
        sol = api.solve(state, budget=BUDGET_S)
    check_solves(state, sol.moves)
    for c in sol.candidates:
        check_solves(state, c)
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("killed by signal {}".format(int(signal.SIGKILL)) in m for m in warned), warned


def _cli(code, *args):
    return subprocess.run([sys.executable, "-c", code] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=300)


KILLING_CLI = """
import os, signal, sys
from cubebot.solver import solve3
def child(kociemba, lettered, view, fd):
    os.kill(os.getpid(), signal.SIGKILL)
solve3._child = child
from cubebot.robot.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_cli_names_the_dead_child_and_exits_1():
    proc = _cli(KILLING_CLI, "solve", "--budget", "5", _state())
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "killed by signal" in lines[0], proc.stderr
    assert "no solution found" not in proc.stderr and proc.stdout == ""


def test_cli_impossible_cube_stays_exit_2_naming_the_piece():
    from cubebot.solver.cubies import corner_facelets
    state = list(_state())
    a, b, c = corner_facelets(N)[0]
    state[a], state[b], state[c] = state[b], state[c], state[a]      # one corner twisted
    proc = _cli(KILLING_CLI, "solve", "--budget", "5", "".join(state))
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "corner" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_link_answers_solver_failed_not_unsolvable(monkeypatch):
    from cubebot.robot.link import protocol
    from cubebot.robot.job.service import RobotService
    _failing_kociemba(monkeypatch)
    monkeypatch.setattr(solve3, "solve", _budgeted(solve3.solve))
    dispatcher = protocol.Dispatcher(RobotService(make_robot=None), "test")
    reply = dispatcher.handle({"id": 1, "cmd": "solve", "state": _state()})
    assert reply["ok"] is False and reply["code"] == "solver_failed", reply
    assert "MemoryError" in reply["error"]
    assert reply["code"] not in protocol.BAD_INPUT_CODES


def _budgeted(solve):
    """The link solves without a budget; this gives its 3x3x3 solve the budget search."""
    def budgeted(state, metric="htm", budget=None, **kwargs):
        return solve(state, metric=metric, budget=BUDGET_S, **kwargs)
    return budgeted
