"""The check at the end catches every single-layer quarter-turn slip, on the simulated robot.

For a scanned and planned cube, every held turn of the plan is made to slip a quarter turn
each way in turn (the world's slip fault), the plan runs on the simulated mechanism and the
check reads what it chose: every slip must be seen (check not ok, the slip among those that
fit) and an unslipped run must pass. The run without a slip also ends truly solved.
"""

import pytest

from cubebot.robot.job import check as checking
from cubebot.robot.job import pipeline
from cubebot.robot.job.executor import Executor
from cubebot.robot.job.robots import make_sim_robot
from cubebot.robot.machine import actions as act


def _scanned_and_planned(size, seed):
    robot = make_sim_robot(size, seed)
    scan, _, _ = pipeline._scan(robot, size, lambda name, payload: None, None, None)
    choice, moves, _ = pipeline._solve_and_plan(robot, size, scan.state, scan.where, None, None)
    plan = choice.plan
    robot.lying = (robot.world.state(), robot.world.robot_state, robot.world.where)
    return robot, scan, plan


def _run_with_slip(robot, scan, plan, size, slip):
    """Put the scanned cube back as it lay, run the plan (slipping `slip` = (twist, quarters)
    if given) and check; the CheckResult."""
    world = robot.world
    truth, lying, where = robot.lying          # the cube as it lay after the scan
    world.place_cube(truth)
    world.robot_state, world.where = lying, where
    if slip is not None:
        world.slip_at(slip[0] + 1, slip[1])
    Executor(robot.mechanism).run(plan, start_where=scan.where)
    prepared = checking.prepare(scan.state, scan.where, plan.actions, size, scan.readings)
    found, _ = checking.check(robot.mechanism, size, prepared)
    robot.mechanism.release()
    return found


@pytest.mark.parametrize("size,seed", [(3, 11), (2, 12)])
def test_every_slip_at_every_held_turn_is_caught(size, seed):
    robot, scan, plan = _scanned_and_planned(size, seed)
    twists = sum(1 for a in plan.actions if a.kind == act.TWIST)
    assert twists >= 5
    clean = _run_with_slip(robot, scan, plan, size, None)
    assert clean.ok and robot.world.is_solved() and not clean.wrong
    named = 0
    for twist in range(twists):
        for quarters in (1, -1):
            before = robot.world.held_turns
            found = _run_with_slip(robot, scan, plan, size, (twist, quarters))
            assert robot.world.slips[-1] == (before + twist + 1, quarters)
            assert not robot.world.is_solved()
            assert not found.ok, (twist, quarters)
            named += (twist, quarters) in found.slips
    # Which slip it was is named from a few noisy readings: nearly always right.
    assert named >= 0.9 * 2 * twists


def test_the_reads_tell_every_slip_outcome_from_solved():
    """choose_reads by itself: on the facelets it picks, each outcome differs from solved."""
    robot, scan, plan = _scanned_and_planned(3, 5)
    expected, outcomes, end_where = checking.slip_outcomes(scan.state, scan.where, plan.actions, 3)
    faces, wanted = checking.choose_reads(expected, outcomes, end_where, 3)
    assert len(outcomes) == 2 * sum(1 for a in plan.actions if a.kind == act.TWIST)
    assert 0 < len(wanted) < 54
    for o in outcomes:
        assert o.state != expected
        assert any(o.state[i] != expected[i] for i in wanted), o[:2]


def test_a_slip_is_caught_and_the_run_retried_until_solved():
    events = []
    robot = make_sim_robot(3, 21, fault="slip")
    result = pipeline.run_job(robot, 3, emit=lambda name, payload: events.append((name, payload)))
    checks = [p for n, p in events if n == "check"]
    assert [c["ok"] for c in checks] == [False, True]
    assert checks[0]["slips"] and checks[0]["wrong"]
    assert [n for n, p in events if n == "retry"] == ["retry"]
    assert {"state": "checking"} in [p for n, p in events if n == "state"]
    assert result["solved"] and result["truly_solved"] and result["retries"] == 1
    assert result["check_seconds"] > 0
    assert result["total_seconds"] == pytest.approx(
        result["scan_seconds"] + result["compute_seconds"] + result["turn_seconds"]
        + result["check_seconds"], abs=0.01)


def test_without_retries_a_slip_is_reported_not_solved():
    from cubebot.robot.machine.config import Config
    robot = make_sim_robot(3, 21, fault="slip", config=Config(max_retries=0))
    result = pipeline.run_job(robot, 3)
    assert not result["solved"] and not result["truly_solved"]
    assert "slip" in result["error"] and result["retries"] == 0


def test_the_demo_exit_code_and_report_say_what_the_check_saw(tmp_path, capsys):
    import json
    from cubebot.robot.cli.main import main
    assert main(["demo", "--seed", "21", "--fault", "slip", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["solved"] and result["retries"] == 1 and result["check"]["ok"]
    config = tmp_path / "config.json"
    config.write_text('{"max_retries": 0}')
    assert main(["demo", "--seed", "21", "--fault", "slip", "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "error: the check at the end saw a slip after 1 tries" in out
    assert "a slip seen" in out and out.rstrip().splitlines()[-2] == "NOT solved"
