"""The one place that builds a robot: every command's simulated robot gets the same cube for a seed."""

import pytest

from cubebot.robot.job.pipeline import run_job
from cubebot.robot.job.robots import SIM, make_sim_robot, open_backend, robot_factory, scrambled
from cubebot.robot.job.service import RobotService
from cubebot.robot.machine.config import Config
from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply


def _scan_of(robot, size):
    result = run_job(robot, size)
    assert result["solved"]
    assert is_solved(apply(result["state"], " ".join(result["moves"]), size), size)
    return result


@pytest.mark.parametrize("size,seed", [(2, 3), (3, 7)])
def test_a_service_run_gets_the_cube_and_readings_of_its_seed(size, seed):
    """run --sim and serve --sim (robot_factory) simulate as demo --seed (make_sim_robot) does."""
    config = Config()
    demo = make_sim_robot(size, seed, config=config)
    assert demo.world.state() == scrambled(size, seed)
    expected = _scan_of(demo, size)
    with open_backend(SIM, config) as opened:
        make_robot = robot_factory(opened, config, first_seed=100)
        make_robot(size, None)                      # an earlier run on the same world
        robot = make_robot(size, seed)
        assert robot.world is opened.world
        assert robot.world.state() == scrambled(size, seed)
        got = _scan_of(robot, size)
    assert got["state"] == expected["state"]
    assert got["moves"] == expected["moves"]
    assert robot.last_scan == demo.last_scan        # the same readings, sample for sample


def test_runs_without_a_seed_take_the_next_ones():
    config = Config()
    with open_backend(SIM, config) as opened:
        make_robot = robot_factory(opened, config, first_seed=40)
        states = [make_robot(3, None).world.state() for _ in range(3)]
    assert states == [scrambled(3, s) for s in (40, 41, 42)]


def test_the_service_of_serve_sim_passes_the_profile_on():
    from cubebot.robot.cli.serve import sim_service
    from cubebot.robot.colour.profile import default_profile
    profile = default_profile()
    service = sim_service(3, first_seed=1, profile=profile)
    assert isinstance(service, RobotService)
    assert service._make_robot(3, 2).profile is profile      # what the service runs


def test_an_unknown_fault_is_refused():
    with pytest.raises(ValueError):
        make_sim_robot(3, 1, fault="on-fire")
