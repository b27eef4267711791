"""cubebot.robot.job.scan: every facelet read once, mapped to its cube-frame index; rescans."""

import random

import pytest

from cubebot.robot.machine.config import Config
from cubebot.robot.machine.mechanism import Mechanism
from cubebot.robot.job.scan import Scanner, face_route, ring_spots
from cubebot.robot.hw.sim.backend import make_sim_hardware
from cubebot.robot.job.robots import scramble
from cubebot.robot.hw.sim.ideal_sensor import IdealSensorModel
from cubebot.robot.hw.sim.world import World
from cubebot.robot.machine import orientation
from cubebot.robot.colour import rescan

from .simfakes import AlwaysDoubtful, JunkOnCalls, median_resolve, nearest_face, nearest_resolve


def sim(state, config=None, sensor=None):
    config = config or Config()
    world = World(state, config, sensor or IdealSensorModel(), random.Random(0))
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
    # Each rescan read just the two doubtful facelets, RESCAN_SAMPLES more samples each,
    # added to the earlier ones.
    assert mech.hw.color.reads == reads_full + 2 * 2 * rescan.RESCAN_SAMPLES
    extra = 2 * rescan.RESCAN_SAMPLES
    assert [len(result.readings[i]) for i in (4, 31)] == [mech.config.samples_per_facelet + extra] * 2
    assert all(len(s) == mech.config.samples_per_facelet for i, s in enumerate(result.readings)
               if i not in (4, 31))


@pytest.mark.parametrize("n", [2, 3])
def test_a_doubtful_scan_ends_resolved_after_rescanning_only_the_doubtful_facelets(n):
    state, _ = scramble(n, random.Random(5))
    samples = Config().samples_per_facelet
    junk_calls = (3 * samples, 11 * samples + 1)     # one sample of two facelets is junk
    world, mech = sim(state, sensor=JunkOnCalls(junk_calls))
    resolver = median_resolve(tolerance=40)
    result = Scanner(mech, n).scan(resolver)
    assert result.state == state and result.doubtful == [] and result.rescans == 1
    doubted = resolver.doubts[0]
    assert len(doubted) == 2 and not world.faults
    # Only the doubtful facelets got more samples, and they were only read again.
    assert mech.hw.color.reads == 6 * n * n * samples + len(doubted) * rescan.RESCAN_SAMPLES
    for i, s in enumerate(result.readings):
        assert len(s) == samples + (rescan.RESCAN_SAMPLES if i in doubted else 0)


@pytest.mark.parametrize("n", [2, 3])
def test_displaced_rescan_samples_still_read_their_own_facelet(n):
    state, _ = scramble(n, random.Random(6))
    world, mech = sim(state, Config(max_rescans=1))
    result = Scanner(mech, n).scan(AlwaysDoubtful(list(range(6 * n * n))))
    assert result.rescans == 1 and not world.faults
    for i, samples in enumerate(result.readings):
        assert len(samples) == mech.config.samples_per_facelet + rescan.RESCAN_SAMPLES
        assert set(nearest_face(s) for s in samples) == {state[i]}, i


def test_rescans_add_facelets_whose_own_samples_disagree():
    good, other, wild = (180, 48, 18), (175, 45, 20), (260, 90, 300)
    readings = [[good, other], [good, wild], [good], [good, wild, other]]
    assert rescan.disagreeing(readings) == [1]
    assert rescan.rescan_set([3, 0], readings) == [0, 1, 3]


def test_a_wild_sample_beside_a_named_facelet_is_rescanned_too():
    state, _ = scramble(3, random.Random(7))
    samples = Config().samples_per_facelet
    world, mech = sim(state, Config(max_rescans=1), sensor=JunkOnCalls([9 * samples]))
    resolver = AlwaysDoubtful([0])
    result = Scanner(mech, 3).scan(resolver)
    wild = [i for i, s in enumerate(result.readings) if JunkOnCalls.JUNK in s]
    assert len(wild) == 1 and wild[0] != 0
    rescanned = [i for i, s in enumerate(result.readings) if len(s) > samples]
    assert rescanned == sorted([0, wild[0]])


def test_a_table_that_jams_mid_ring_is_a_stall_not_a_misread():
    from cubebot.robot.errors import MotorStalled
    state, _ = scramble(3, random.Random(3))
    world, mech = sim(state)
    mech.hw.table.jam_after_deg(500)            # part-way round the first ring
    with pytest.raises(MotorStalled, match="table"):
        Scanner(mech, 3).read_facelets()


def test_scan_events_name_the_facelet_the_face_and_the_pass():
    state, _ = scramble(3, random.Random(1))
    world, mech = sim(state, Config(max_rescans=1))
    events = []
    resolver = AlwaysDoubtful([4, 31])
    Scanner(mech, 3, emit=lambda name, payload: events.append(payload)).scan(resolver)
    first = [e for e in events if e["rescan"] == 0]
    again = [e for e in events if e["rescan"] == 1]
    assert len(first) == 54 and sorted(e["index"] for e in first) == list(range(54))
    assert all(list(e["readings"]) == [str(e["index"])] and e["faces"] == 6 for e in first)
    faces = [e["face"] for e in first]
    assert faces == sorted(faces) and set(faces) == set(range(1, 7))
    # each face's events are the facelets of the face under the sensor: 9 of one cube face
    for face in range(1, 7):
        assert len(set(e["index"] // 9 for e in first if e["face"] == face)) == 1
    assert "doubtful" not in first[0]
    assert again[0]["doubtful"] == [4, 31] and all("doubtful" not in e for e in again[1:])
    assert set(e["index"] for e in again) == {4, 31}
    # the pass brings up the faces its route needs; the last facelet is read on its last one
    assert len(set(e["faces"] for e in again)) == 1 and again[-1]["face"] == again[-1]["faces"] <= 6
    assert [e["done"] for e in events] == list(range(1, len(events) + 1))


@pytest.mark.parametrize("n", [2, 3])
def test_resolution_runs_while_the_last_faces_moves_do(n):
    state, _ = scramble(n, random.Random(7))
    _, mech = sim(state)
    seen = []

    def resolver(readings, size):
        # the arm is still on its way clear of the flipper while the colours resolve
        seen.append(mech.hw.arm.is_moving() or mech.hw.table.is_moving())
        return nearest_resolve(readings, size)

    result = Scanner(mech, n).scan(resolver)
    assert seen == [True] and result.state == state
    assert len(result.overlap_seconds) == 1 and result.overlap_seconds[0] > 0
    # afterwards the mechanism is as a scan that waits leaves it, at the same robot time
    _, other = sim(state)
    Scanner(other, n).read_facelets()
    assert mech.now_s() == pytest.approx(other.now_s())
    assert mech.hw.arm.position_deg() == other.hw.arm.position_deg() == mech.config.arm_half_deg
    assert mech.table_cube_deg() % 90 == 0 and mech.table_cube_deg() == other.table_cube_deg()


def test_each_rescan_resolution_overlaps_its_own_moves():
    state, _ = scramble(3, random.Random(1))
    _, mech = sim(state)
    result = Scanner(mech, 3).scan(AlwaysDoubtful([4, 13]))
    assert len(result.overlap_seconds) == result.rescans + 1
    assert all(seconds > 0 for seconds in result.overlap_seconds)
