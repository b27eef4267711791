"""The world model and the simulated backend, driven through the Mechanism."""

import random

import pytest

from tests.robot.mechanism_support import check_random_actions

from cubebot.robot.machine import orientation
from cubebot.robot.machine.config import Config
from cubebot.robot.errors import MotorStalled
from cubebot.robot.machine.mechanism import Mechanism
from cubebot.robot.hw.sim.backend import make_sim_hardware
from cubebot.robot.hw.sim.ideal_sensor import REFERENCE_RGB, IdealSensorModel
from cubebot.robot.hw.sim.world import FACE_COLOURS, World
from cubebot.solver.facelets import solved
from cubebot.solver.moves import apply


def make(state, config=None):
    config = config or Config()
    world = World(state, config, IdealSensorModel(), random.Random(0))
    hw = make_sim_hardware(config, world)
    mech = Mechanism(hw, config)
    return world, hw, mech


@pytest.mark.parametrize("n", [2, 3])
def test_random_actions_match_the_cube_frame_moves(n):
    rng = random.Random(n)
    start = apply(solved(n), "R U F' D2 L B")
    world, hw, mech = make(start)
    mech.home()
    check_random_actions(mech, world, start, n, rng, steps=120)


def test_flip_is_x_back_face_lands_on_bottom():
    world, hw, mech = make(solved(3))
    mech.home()
    mech.flip()
    assert orientation.face_at(world.where, "D") == "B"
    assert orientation.face_at(world.where, "U") == "F"


def test_time_comes_from_speed_and_angle():
    config = Config(settle_s=0.0)
    world, hw, mech = make(solved(3), config)
    mech.home()
    t0 = hw.clock.now_s()
    mech.turn_table(1)
    assert hw.clock.now_s() - t0 == pytest.approx(270.0 / config.table_speed_dps)


def test_misaligned_release_is_a_fault():
    world, hw, mech = make(solved(3))
    mech.home()
    mech._flipper_to(mech.config.flipper_hold_deg)
    mech._table_by(135)          # 45 cube degrees: half-way between quarters
    mech.release()
    assert world.faults and "bottom layer" in world.faults[0]


def test_sensor_reads_the_facelet_under_it():
    state = apply(solved(3), "R U")
    world, hw, mech = make(state)
    mech.home()
    mech.move_arm_named("centre")
    assert mech.read_rgb() == REFERENCE_RGB[FACE_COLOURS[state[4]]]
    mech.move_arm_named("edge")          # robot +x side: U6
    assert mech.read_rgb() == REFERENCE_RGB[FACE_COLOURS[state[5]]]
    mech.move_arm_named("park")
    assert max(mech.read_rgb()) < 20


def test_homing_stalls_at_the_stops_and_a_jam_raises():
    world, hw, mech = make(solved(3))
    assert hw.flipper.position_deg() == 0      # encoder zero where it woke up
    mech.home()
    assert hw.flipper.physical_deg == 0 and hw.arm.physical_deg == 0
    hw.table.jam_after_deg(100)
    with pytest.raises(MotorStalled, match="table"):
        mech.turn_table(1)


def test_whole_cube_presence():
    world, hw, mech = make(None)
    assert not mech.cube_present()
    world.place_cube(solved(2))
    assert mech.cube_present()
