"""The synthetic EV3 colour sensor: shape, ranges, determinism and its effects."""

import random

import pytest

from cubebot.robot.colour.scheme import EV3_TYPICAL_RAW, RAW_MAX, STANDARD_SCHEME
from cubebot.robot.hw.sim.sensor_model import SensorModel, centre_indices
from cubebot.solver.facelets import solved


def _mean(values):
    return sum(values) / float(len(values))


def test_scan_shape_and_ranges():
    model = SensorModel(random.Random(1), "high")
    scan = model.scan(solved(3), 3, samples=3)
    assert len(scan) == 54
    for samples in scan:
        assert len(samples) == 3
        for rgb in samples:
            assert len(rgb) == 3 and all(isinstance(v, int) and 0 <= v <= RAW_MAX for v in rgb)


def test_same_seed_same_scan():
    a = SensorModel(random.Random(7), "moderate").scan(solved(2), 2)
    b = SensorModel(random.Random(7), "moderate").scan(solved(2), 2)
    assert a == b


def test_low_noise_readings_stay_near_reference():
    model = SensorModel(random.Random(3), "low")
    for face, colour in sorted(STANDARD_SCHEME.items()):
        ref = EV3_TYPICAL_RAW[colour]
        reads = [model.reading(face) for _ in range(200)]
        for ch in range(3):
            assert abs(_mean([r[ch] for r in reads]) - ref[ch]) <= 0.15 * ref[ch] + 6


def test_centres_read_darker_and_yellower():
    model = SensorModel(random.Random(5), "low", wild=0)
    edges = [model.reading("white") for _ in range(100)]
    centres = [model.reading("white", centre=True) for _ in range(100)]
    for ch in range(3):
        assert _mean([c[ch] for c in centres]) < 0.75 * _mean([e[ch] for e in edges])
    blue_share = lambda rs: _mean([r[2] / float(sum(r)) for r in rs])  # noqa: E731
    assert blue_share(centres) < blue_share(edges)
    assert centre_indices(3) == frozenset([4, 13, 22, 31, 40, 49])
    assert centre_indices(4) == frozenset()


def test_quality_mixes_in_the_neighbour():
    model = SensorModel(random.Random(9), "low", wild=0, jitter=0, floor=0, brightness=0)
    pure = model.reading("red")
    mixed = model.reading("red", quality=0.5, neighbour="green")
    assert mixed[1] > pure[1] * 2


def test_wild_readings_happen():
    model = SensorModel(random.Random(11), "low", wild=1.0)
    ref = EV3_TYPICAL_RAW["blue"]
    reads = [model.reading("B") for _ in range(50)]
    assert sum(1 for r in reads if abs(r[0] - ref[0]) > 60 or abs(r[1] - ref[1]) > 60) > 20


def test_bad_arguments():
    with pytest.raises(ValueError):
        SensorModel(random.Random(1), "extreme")
    with pytest.raises(ValueError):
        SensorModel(random.Random(1), "low", sparkle=1)
    with pytest.raises(ValueError):
        SensorModel(random.Random(1)).reading("magenta")
    with pytest.raises(ValueError):
        SensorModel(random.Random(1), scheme="rainbow")
    with pytest.raises(ValueError):
        SensorModel(random.Random(1)).scan("UUU", 3)
