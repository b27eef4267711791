"""The time model: seconds per action from the configuration, flipper transitions."""

import pytest

from cubebot.robot.machine.actions import flip, rotate, twist
from cubebot.robot.machine.config import Config
from cubebot.robot.plan.planner import plan, plan_naive
from cubebot.robot.machine.timing import AWAY, HOLD, TimeModel, motor_seconds

from .planner_support import random_solution, rng_for, time_model


def test_seconds_follow_the_config():
    cfg = Config()
    tm = TimeModel.from_config(cfg)
    quarter = 90 * cfg.table_gear_ratio
    v, fv, s = float(cfg.table_speed_dps), float(cfg.flipper_speed_dps), cfg.settle_s
    assert tm.rotate_s[1] == pytest.approx(quarter / v + s)
    assert tm.rotate_s[3] == tm.rotate_s[1]            # y' turns the short way
    assert tm.rotate_s[2] == pytest.approx(2 * quarter / v + s)
    assert tm.twist_s[1] == pytest.approx((quarter + 2 * cfg.table_overshoot_deg) / v + 2 * s)
    stroke = cfg.flipper_flip_deg - cfg.flipper_hold_deg
    tumble = cfg.flip_settle_s
    assert tm.flip_s[HOLD] == pytest.approx(2 * stroke / fv + 2 * s + tumble)
    assert tm.flip_s[AWAY] == pytest.approx((cfg.flipper_flip_deg - cfg.flipper_away_deg + stroke) / fv
                                            + 2 * s + tumble)
    assert tm.engage_s == tm.release_s == pytest.approx((cfg.flipper_hold_deg - cfg.flipper_away_deg) / fv + s)
    assert motor_seconds(-90, 900, 0.5) == pytest.approx(0.6)


def test_flipper_state_transitions():
    tm = time_model()
    # consecutive twists keep holding: no engage between them
    seconds, after = tm.seconds([twist(1), twist(2)], AWAY)
    assert after == HOLD
    assert seconds == pytest.approx(tm.engage_s + tm.twist_s[1] + tm.twist_s[2])
    # a table turn after a twist releases first; a flip ends at hold
    assert tm.action_seconds(rotate(1), HOLD) == (pytest.approx(tm.release_s + tm.rotate_s[1]), AWAY)
    assert tm.action_seconds(flip(), AWAY) == (tm.flip_s[AWAY], HOLD)
    assert tm.action_seconds(twist(3), HOLD) == (tm.twist_s[3], HOLD)
    assert tm.flip_s[AWAY] > tm.flip_s[HOLD]


@pytest.mark.parametrize("overrides", [{}, {"table_speed_dps": 400, "scan_table_speed_dps": 400,
                                             "flipper_speed_dps": 300, "arm_speed_dps": 600}])
def test_a_flip_is_the_slowest_quarter_action(overrides):
    """As on the real mechanism (docs/robot.md): a flip, even from hold, takes longer than a
    quarter turn of the table or of the bottom layer, at our speeds and the ev3dev port's."""
    tm = time_model(**overrides)
    assert tm.flip_s[HOLD] > tm.twist_s[1] > tm.rotate_s[1]
    assert tm.flip_s[HOLD] > tm.twist_s[3] and tm.flip_s[HOLD] > tm.rotate_s[3]


def test_model_equality_and_validation():
    assert time_model() == time_model()
    assert time_model() != time_model(settle_s=0.5)
    assert len({time_model(), time_model()}) == 1
    with pytest.raises(ValueError):
        TimeModel({AWAY: 1, HOLD: -1}, [0, 1, 1, 1], [0, 1, 1, 1], 0.1, 0.1)


@pytest.mark.parametrize("overrides", [{}, {"table_speed_dps": 400, "flipper_speed_dps": 300}, {"settle_s": 0.3}])
def test_gain_over_naive(overrides):
    """Measured: 4-10% on the 3x3x3 (a flip per move is the floor), 27-35% on the 2x2x2."""
    tm = time_model(**overrides)
    for n, faces, length, least in ((3, "URFDLB", 20, 0.03), (2, "URF", 9, 0.25)):
        rng = rng_for(n)
        ours = naive = 0.0
        for _ in range(60):
            moves = random_solution(rng, length, faces)
            p, q = plan(moves, "URFDLB", tm, size=n), plan_naive(moves, "URFDLB", tm, size=n)
            assert p.seconds <= q.seconds + 1e-9
            ours += p.seconds
            naive += q.seconds
        assert 1 - ours / naive >= least
