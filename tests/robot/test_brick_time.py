"""cubebot.robot.job.brick_time: the estimate's arithmetic, its use in the job result and the report."""

import random

import pytest

from cubebot.robot.cli.demo import report
from cubebot.robot.hw.sim.ideal_sensor import IdealSensorModel
from cubebot.robot.job import brick_time
from cubebot.robot.job.pipeline import run_job
from cubebot.robot.job.robots import make_sim_robot, scramble

from .simfakes import inverse_solver, nearest_resolve


def test_integer_and_float_work_have_their_own_factors():
    t = brick_time.estimate(1.0, 0.0)
    assert (t.low, t.high) == brick_time.INT_FACTOR
    f = brick_time.estimate(0.0, 1.0)
    assert (f.low, f.high) == brick_time.FLOAT_FACTOR
    # floating point is emulated in software on the brick: it weighs more
    assert f.low > t.low and f.high > t.high
    both = brick_time.estimate(0.2, 0.1)
    assert both.low == pytest.approx(0.2 * t.low + 0.1 * f.low)
    assert both.high == pytest.approx(0.2 * t.high + 0.1 * f.high)
    assert both.low < both.central < both.high
    assert both.central == pytest.approx((both.low * both.high) ** 0.5)


def test_compiled_floating_point_has_its_own_factor():
    c = brick_time.estimate(0.0, 0.0, 1.0)
    assert (c.low, c.high) == brick_time.COMPILED_FLOAT_FACTOR
    # soft-float C costs more per second here than integer work, and each part adds up
    assert c.low > brick_time.INT_FACTOR[0] and c.high > brick_time.INT_FACTOR[1]
    mixed = brick_time.estimate(0.2, 0.1, 0.05)
    assert mixed.low == pytest.approx(0.2 * brick_time.INT_FACTOR[0] + 0.1 * brick_time.FLOAT_FACTOR[0]
                                      + 0.05 * c.low)
    assert brick_time.on_the_brick(0.5, 0.25, 0.25) == (1.0, 1.0, 1.0)


def test_compiled_code_gets_the_kociemba_factor():
    # kociemba's C solve takes 20 ms here and about KOCIEMBA_BRICK_S on the brick
    factor = brick_time.compiled_factor(0.02)
    assert factor == pytest.approx(brick_time.KOCIEMBA_BRICK_S / 0.02)
    t = brick_time.estimate_solve(1.0, 0.25, 0.02)
    python = brick_time.estimate(0.75)
    assert t.low == pytest.approx(python.low + 0.25 * factor)
    assert t.high == pytest.approx(python.high + 0.25 * factor)
    # all in Python: the integer estimate; a faster kociemba here means a larger factor
    assert brick_time.estimate_solve(1.0, 0.0, 0.02) == brick_time.estimate(1.0)
    assert brick_time.compiled_factor(0.01) > factor
    with pytest.raises(ValueError):
        brick_time.compiled_factor(0.0)


def test_compiled_integer_code_timed_here_gets_the_kociemba_range():
    c = brick_time.estimate(0.0, 0.0, 0.0, 1.0)
    assert (c.low, c.high) == brick_time.COMPILED_FACTOR
    # the range holds the factor of kociemba's slowest and fastest time here
    assert c.low == pytest.approx(brick_time.compiled_factor(brick_time.KOCIEMBA_HERE_S[1]))
    assert c.high == pytest.approx(brick_time.compiled_factor(brick_time.KOCIEMBA_HERE_S[0]))
    mixed = brick_time.estimate(0.2, 0.0, 0.0, 0.1)
    assert mixed.high == pytest.approx(0.2 * brick_time.INT_FACTOR[1] + 0.1 * c.high)
    assert brick_time.on_the_brick(0.5, 0.25, 0.0, 0.25) == (1.0, 1.0, 1.0)


def test_on_the_brick_the_measured_time_is_the_time():
    t = brick_time.on_the_brick(0.5, 0.25)
    assert t == (0.75, 0.75, 0.75)
    assert brick_time.describe(t) == "0.8 s"
    assert brick_time.describe(brick_time.estimate(0.1)) == "5.0-15.0 s"


def _job(estimator=None):
    _, moves = scramble(3, random.Random(4))
    robot = make_sim_robot(3, 4, sensor_model=IdealSensorModel())
    if estimator is not None:
        robot.brick_time = estimator
    return run_job(robot, 3, solve=inverse_solver(moves), resolve=nearest_resolve)


def test_the_job_reports_a_brick_range_around_its_compute_estimate():
    result = _job()
    low, high = result["compute_range_seconds"]
    assert 0 < low <= result["compute_seconds"] <= high
    assert high >= low * 2.9              # a 50-150x spread is a range, not a point
    total_low, total_high = result["total_range_seconds"]
    fixed = result["scan_seconds"] + result["turn_seconds"] + result["check_seconds"]
    assert total_low == pytest.approx(fixed + low, abs=0.01)
    assert total_high == pytest.approx(fixed + high, abs=0.01)
    text = report(result, color=False)
    assert "compute {:.1f}-{:.1f} s".format(low, high) in text


def test_the_job_takes_the_estimator_it_is_given():
    seen = []

    def estimator(int_s, float_s, compiled_float_s, compiled_s=0.0):
        seen.append((int_s, float_s, compiled_float_s, compiled_s))
        return brick_time.on_the_brick(int_s, float_s, compiled_float_s, compiled_s)

    result = _job(estimator)
    # once for the resolution (the part that ran while the last face's moves did), once for
    # resolve + solve + plan, once for the check's preparation and the naive baseline (which
    # run while the cube turns, so on the brick they add nothing here)
    assert len(seen) == 3 and seen[0][0] == 0.0 and seen[1][0] > 0 and seen[2][1:] == (0.0, 0.0, 0.0)
    assert seen[0][1:3] == seen[1][1:3] and seen[0][3] == 0.0
    # the compiled 3x3x3 candidate search, where built, is passed as compiled code
    from cubebot.robot.plan import search3
    assert (seen[1][3] > 0) == search3.available()
    resolving = sum(seen[0])
    assert result["compute_range_seconds"][0] == result["compute_range_seconds"][1]
    assert result["compute_seconds"] + resolving == pytest.approx(sum(seen[1]), abs=0.001)
    assert result["overlapped_seconds"] == pytest.approx(resolving + seen[2][0], abs=0.001)
