"""robot.scan: every facelet read once, mapped to its cube-frame index; rescans."""

import random

import pytest

from robot.config import Config
from robot.mechanism import Mechanism
from robot.scan import Scanner, face_route, ring_spots
from robot.sim.backend import make_sim_hardware
from robot.sim.factory import scramble
from robot.sim.ideal_sensor import IdealSensorModel
from robot.sim.world import World
from robot import orientation

from .simfakes import AlwaysDoubtful, nearest_resolve


def sim(state, config=None):
    config = config or Config()
    world = World(state, config, IdealSensorModel(), random.Random(0))
    mech = Mechanism(make_sim_hardware(config, world), config)
    mech.home()
    return world, mech


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_scan_of_a_known_cube_returns_its_facelets(n, seed):
    state, _ = scramble(n, random.Random(seed))
    world, mech = sim(state)
    result = Scanner(mech, n).scan(nearest_resolve)
    assert result.state == state
    assert result.where == world.where            # the scanner tracked the orientation
    assert mech.counts["flip"] == 5               # all six faces in five flips
    assert all(len(s) == mech.config.samples_per_facelet for s in result.readings)
    assert not world.faults


def test_ring_spots_cover_each_facelet_of_a_face_once():
    for n in (2, 3):
        assert sorted(s.robot_index for s in ring_spots(n)) == list(range(n * n))


def test_face_route_reaches_every_face_with_fewest_flips():
    for start in orientation.all_orientations():
        route = face_route(start, "URFDLB")
        assert len(route) == 5
        seen, where = {start[0]}, start
        for q in route:
            where = orientation.rotate(orientation.rotate(where, "y", q), "x")
            seen.add(where[0])
        assert seen == set("URFDLB")
    assert face_route("URFDLB", "U") == []
    assert len(face_route("URFDLB", "D")) == 2


def test_rescans_only_the_doubtful_facelets_a_bounded_number_of_times():
    state, _ = scramble(3, random.Random(1))
    world, mech = sim(state, Config(max_rescans=2))
    resolver = AlwaysDoubtful([4, 31])            # U centre and D centre
    result = Scanner(mech, 3).scan(resolver)
    assert result.state is None and result.doubtful == [4, 31] and result.rescans == 2
    assert resolver.calls == 3
    reads_full = 54 * mech.config.samples_per_facelet
    # Each rescan read just the two doubtful facelets.
    assert mech.hw.color.reads == reads_full + 2 * 2 * mech.config.samples_per_facelet


def test_a_table_that_jams_mid_ring_is_a_stall_not_a_misread():
    from robot.errors import MotorStalled
    state, _ = scramble(3, random.Random(3))
    world, mech = sim(state)
    mech.hw.table.jam_after_deg(500)            # part-way round the first ring
    with pytest.raises(MotorStalled, match="table"):
        Scanner(mech, 3).read_facelets()
