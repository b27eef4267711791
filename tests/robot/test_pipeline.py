"""cubebot.robot.job.pipeline with stand-in resolver and solver: events, result fields,
stop requests, the unresolvable-scan path, the service over the real pipeline."""

import random
import threading

import pytest

from cubebot.robot.errors import Stopped
from cubebot.robot.job.pipeline import run_job, scan_job
from cubebot.robot.job.service import RobotService
from cubebot.robot.job.robots import make_sim_robot, scramble
from cubebot.robot.hw.sim.ideal_sensor import IdealSensorModel

from .simfakes import AlwaysDoubtful, inverse_solver, nearest_resolve

FIELDS = ("solved", "size", "moves", "flips", "scan_seconds", "compute_seconds", "turn_seconds",
          "total_seconds", "actions", "state")


def ideal_robot(n, seed, **kwargs):
    return make_sim_robot(n, seed, sensor_model=IdealSensorModel(), **kwargs)


@pytest.mark.parametrize("n", [2, 3])
def test_run_job_solves_and_reports(n):
    _, moves = scramble(n, random.Random(9))
    robot = ideal_robot(n, 9, debug=True)
    events = []
    result = run_job(robot, n, emit=lambda name, payload: events.append((name, payload)),
                     solve=inverse_solver(moves), resolve=nearest_resolve)
    for field in FIELDS:
        assert field in result
    assert result["solved"] is True and robot.world.is_solved()
    assert result["total_seconds"] == pytest.approx(
        result["scan_seconds"] + result["compute_seconds"] + result["turn_seconds"]
        + result["check_seconds"], abs=0.01)
    assert result["flips"] == result["actions"]["flip"]
    names = [name for name, _ in events]
    states = [payload["state"] for name, payload in events if name == "state"]
    assert states == ["scanning", "solving", "turning", "checking"]
    assert [p["ok"] for n, p in events if n == "check"] == [True] and "retry" not in names
    assert names.count("scan_progress") == 6 * n * n
    assert names.count("move_progress") == len(result["moves"])
    assert names[-1] == "finished" and events[-1][1] is result
    assert len(robot.last_scan) == 6 * n * n          # the de-facto JSON object


def test_unresolvable_scan_ends_not_solved_with_the_doubtful_facelets():
    robot = ideal_robot(3, 4)
    resolver = AlwaysDoubtful([7, 8, 9])
    result = run_job(robot, 3, solve=None, resolve=resolver)
    assert result["solved"] is False and result["doubtful"] == [7, 8, 9]
    assert result["rescans"] == robot.config.max_rescans
    assert "doubt" in result["error"]
    assert robot.world.flipper_deg == robot.config.flipper_away_deg


def test_stop_mid_run_raises_stopped_and_leaves_the_robot_safe():
    _, moves = scramble(3, random.Random(3))
    robot = ideal_robot(3, 3)
    stop = threading.Event()

    def emit(name, payload):
        if name == "move_progress" and payload["done"] == 4:
            stop.set()
    with pytest.raises(Stopped):
        run_job(robot, 3, emit=emit, stop=stop, solve=inverse_solver(moves), resolve=nearest_resolve)
    world = robot.world
    assert not world.holding and world.flipper_deg == robot.config.flipper_away_deg
    assert not world.is_solved() and not world.faults


def test_stop_while_scanning():
    robot = ideal_robot(2, 1)
    stop = threading.Event()

    def emit(name, payload):
        if name == "scan_progress" and payload["done"] == 6:
            stop.set()
    with pytest.raises(Stopped, match="scanning"):
        scan_job(robot, 2, emit=emit, stop=stop, resolve=nearest_resolve)
    assert robot.world.flipper_deg == robot.config.flipper_away_deg


def test_scan_job_reports_the_state():
    robot = ideal_robot(2, 6)
    result = scan_job(robot, 2, resolve=nearest_resolve)
    assert result["state"] == robot.world.state()


def test_service_runs_the_real_pipeline_and_stops_it():
    _, moves = scramble(3, random.Random(8))

    def run(robot, size, emit=None, stop=None, budget=None):
        return run_job(robot, size, emit=emit, stop=stop, solve=inverse_solver(moves),
                       resolve=nearest_resolve)

    def scan(robot, size, emit=None, stop=None):
        return scan_job(robot, size, emit=emit, stop=stop, resolve=nearest_resolve)
    service = RobotService(lambda size, seed: ideal_robot(size, 8), jobs=(run, scan))
    service.start_run(size=3)
    result = service.wait(30)
    assert result["solved"] is True
    assert len(service.last_scan()) == 54
    stopped = []

    def listener(name, payload):       # called from the run thread: a stop between two moves
        if name == "move_progress" and payload["done"] == 3:
            stopped.append(service.stop())
    service.subscribe(listener)
    service.start_run(size=3)
    result = service.wait(30)
    assert stopped == [True]
    assert result["solved"] is False and result["stopped"] is True
    assert service.status()["state"] == "idle"


def test_an_empty_table_is_a_clear_error():
    from cubebot.robot.errors import RobotError
    robot = ideal_robot(3, 0)
    robot.world.place_cube(None)
    with pytest.raises(RobotError, match="no cube"):
        run_job(robot, 3, resolve=nearest_resolve)
