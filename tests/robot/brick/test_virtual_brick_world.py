"""The Mechanism on the real ev3dev2 backend on a virtual brick tied to the simulated world."""

import random

import pytest

from tests.robot.mechanism_support import check_random_actions

from cubebot.robot.machine.config import Config
from cubebot.robot.errors import MotorStalled
from cubebot.robot.machine.mechanism import Mechanism
from cubebot.robot.hw.sim.ideal_sensor import REFERENCE_RGB, IdealSensorModel
from cubebot.robot.hw.sim.world import FACE_COLOURS, World
from cubebot.robot.hw.virtual_brick.brick import VirtualBrick
from cubebot.solver.facelets import solved
from cubebot.solver.moves import apply

import ev3dev2  # noqa: F401,E402 - a required dependency: a broken install fails, never skips


def make(state, config=None, **kw):
    config = config or Config()
    world = World(state, config, IdealSensorModel(), random.Random(0))
    brick = VirtualBrick(world, config, **kw)
    return world, brick, config


@pytest.mark.parametrize("n", [2, 3])
def test_random_actions_through_ev3dev2_match_the_cube_frame_moves(n):
    rng = random.Random(n)
    start = apply(solved(n), "R U F' D2 L B")
    world, brick, config = make(start)
    with brick:
        hw = brick.make_hardware()
        mech = Mechanism(hw, config)
        mech.home()
        check_random_actions(mech, world, start, n, rng, steps=12)


def test_sensor_reads_the_facelet_under_it_through_ev3dev2():
    state = apply(solved(3), "R U")
    world, brick, config = make(state)
    with brick:
        hw = brick.make_hardware()
        mech = Mechanism(hw, config)
        mech.home()
        mech.move_arm_named("centre")
        brick.clock.sleep_s(0.05)
        assert mech.read_rgb() == REFERENCE_RGB[FACE_COLOURS[state[4]]]
        mech.move_arm_named("edge")
        brick.clock.sleep_s(0.05)
        assert mech.read_rgb() == REFERENCE_RGB[FACE_COLOURS[state[5]]]
        assert mech.cube_present()


def test_jammed_turntable_while_holding_is_a_clear_error_and_the_flipper_lets_go():
    world, brick, config = make(solved(3))
    with brick:
        hw = brick.make_hardware()
        mech = Mechanism(hw, config)
        mech.home()
        brick.block_motor(config.table_port)
        with pytest.raises(MotorStalled) as info:
            mech.turn_bottom(1)
        assert "table motor on outB" in str(info.value)
        mech.release()
        brick.clock.sleep_s(0.1)
        assert brick.shaft_deg("flipper") == pytest.approx(config.flipper_away_deg)
        for role in ("flipper", "table", "arm"):
            assert "running" not in brick.motor_state(role)
            assert "holding" not in brick.motor_state(role)
