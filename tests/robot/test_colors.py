"""cubebot.robot.colour.resolve.resolve: synthetic scans through the sensor model resolve to the right cube,
and a wrong reading is corrected or reported, never returned silently."""

import random

import pytest

from cubebot.robot.colour.resolve import resolve
from cubebot.robot.errors import ScanUnresolved
from cubebot.robot.colour.scheme import EV3_TYPICAL_RAW, STANDARD_SCHEME
from cubebot.robot.hw.sim.sensor_model import SensorModel, rescan
from cubebot.solver.cubies import from_facelets
from cubebot.solver.facelets import check_counts, solved
from cubebot.solver.moves import apply

from .colors_support import random_state, same_cube, scan_of

SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"
CHECKERBOARD = "U2 D2 F2 B2 L2 R2"


def _check_valid(state, n):
    check_counts(state, n)
    if n in (2, 3):
        from_facelets(state, n)


def _outcome(state, scan, n, **kw):
    """'exact', 'doubtful' or 'wrong' for one scan of `state`."""
    try:
        result = resolve(scan, n, **kw)
    except ScanUnresolved as exc:
        assert all(0 <= i < 6 * n * n for i in exc.doubtful)
        return "doubtful"
    _check_valid(result.state, n)
    return "exact" if same_cube(result.state, state) else "wrong"


@pytest.mark.parametrize("n", [2, 3])
def test_low_noise_random_cubes_exact(n):
    rng = random.Random(100 + n)
    for seed in range(25):
        state = random_state(rng, n)
        assert _outcome(state, scan_of(state, n, seed, "low"), n) == "exact"


@pytest.mark.parametrize("n", [2, 3])
def test_moderate_noise_three_samples_exact(n):
    rng = random.Random(200 + n)
    for seed in range(25):
        state = random_state(rng, n)
        assert _outcome(state, scan_of(state, n, seed, "moderate", samples=3), n) == "exact"


@pytest.mark.parametrize("n", [2, 3])
def test_moderate_noise_one_sample_never_wrong(n):
    rng = random.Random(300 + n)
    outcomes = [_outcome(s, scan_of(s, n, seed, "moderate"), n)
                for seed, s in enumerate(random_state(rng, n) for _ in range(40))]
    assert outcomes.count("wrong") == 0
    assert outcomes.count("exact") >= 36


@pytest.mark.parametrize("n", [2, 3])
def test_moderate_noise_without_wild_readings_exact(n):
    # A real sensor's noise (+-25% brightness, cast, unit gains, centre look), one
    # sample per facelet: every scan is read exactly. Wild readings are tested apart.
    rng = random.Random(800 + n)
    for seed in range(30):
        state = random_state(rng, n, 60)
        assert _outcome(state, scan_of(state, n, seed, "moderate", wild=0), n) == "exact"


@pytest.mark.parametrize("n", [4, 5])
def test_big_cubes_moderate_without_wild_readings(n):
    # Wings have no parity to lean on: a red/orange wing pair that reads alike is
    # reported (rarely), never guessed.
    rng = random.Random(800 + n)
    outcomes = [_outcome(s, scan_of(s, n, seed, "moderate", wild=0), n)
                for seed, s in enumerate(random_state(rng, n, 60) for _ in range(12))]
    assert outcomes.count("wrong") == 0
    assert outcomes.count("exact") >= 10


@pytest.mark.parametrize("n", [4, 5])
def test_big_cubes_low_noise(n):
    rng = random.Random(400 + n)
    for seed in range(4):
        state = random_state(rng, n, 60)
        assert _outcome(state, scan_of(state, n, seed, "low"), n) == "exact"


@pytest.mark.parametrize("n", [4, 5])
def test_big_cubes_moderate_never_wrong(n):
    rng = random.Random(500 + n)
    outcomes = [_outcome(s, scan_of(s, n, seed, "moderate", samples=3), n)
                for seed, s in enumerate(random_state(rng, n, 60) for _ in range(4))]
    assert "wrong" not in outcomes
    assert outcomes.count("exact") >= 3


@pytest.mark.parametrize("moves", ["", SUPERFLIP, CHECKERBOARD])
def test_special_cubes(moves):
    state = apply(solved(3), moves, 3)
    for seed in range(3):
        result = resolve(scan_of(state, 3, seed, "moderate", samples=3), 3)
        assert result.state == state
        assert len(result.doubtful) <= 3     # a few facelets may read unlike their colour
        assert 0 < result.confidence <= 1


def test_solved_two_by_two_uses_dbl_labelling():
    result = resolve(scan_of(solved(2), 2, 1, "low"), 2)
    assert result.state == solved(2)


def test_result_fields():
    state = random_state(random.Random(7), 3)
    result = resolve(scan_of(state, 3, 7, "low"), 3)
    assert result.state == state        # odd cubes: letters follow the centres
    assert len(result.facelets) == 54 and all(0 < c <= 1 for c in result.facelets)
    assert sorted(result.references) == sorted("URFDLB")
    white, yellow = result.references["U"], result.references["D"]
    assert white[2] > 5 * yellow[2]     # blue channel tells white from yellow


def _set_colour(scan, index, colour, rng):
    ref = EV3_TYPICAL_RAW[STANDARD_SCHEME[colour]]
    scan[index] = [tuple(int(v * rng.uniform(0.95, 1.05)) for v in ref)]


def _corrected(scan, n, state, bad, named=None):
    """True when the scan with wrong readings at `bad` resolves to `state`, naming them all
    doubtful (or, given `named`, at least one of the facelets `named`); False when it is
    reported with one of them among the doubtful."""
    try:
        result = resolve(scan, n)
    except ScanUnresolved as exc:
        assert set(exc.doubtful) & set(bad)
        return False
    assert same_cube(result.state, state)
    if named is None:
        assert set(bad) <= set(result.doubtful)
    else:
        assert set(named) & set(result.doubtful), (named, result.doubtful)
    return True


@pytest.mark.parametrize("n", [2, 3])
def test_one_badly_wrong_reading_is_corrected_or_reported(n):
    rng = random.Random(600 + n)
    corrected = 0
    for seed in range(30):
        state = random_state(rng, n)
        scan = scan_of(state, n, seed, "low")
        index = rng.randrange(6 * n * n)
        if n == 3 and index % 9 == 4:
            continue                     # the centres have a test of their own
        # Not red for orange (or back): that is a small error, not a bad one.
        wrong = rng.choice([c for c in "URFDLB" if c != state[index]
                            and set((c, state[index])) != set("RL")])
        _set_colour(scan, index, wrong, rng)
        corrected += _corrected(scan, n, state, [index])
    assert corrected >= 25


def test_two_badly_wrong_readings_on_a_quiet_scan_are_corrected():
    rng = random.Random(650)
    corrected = 0
    for seed in range(20):
        state = random_state(rng, 3)
        scan = scan_of(state, 3, seed, "low")
        first, second = rng.sample([i for i in range(54) if i % 9 != 4], 2)
        for index in (first, second):
            wrong = rng.choice([c for c in "URFDLB" if c != state[index]])
            _set_colour(scan, index, wrong, rng)
        corrected += _corrected(scan, 3, state, [first, second])
    assert corrected >= 12


def test_a_wild_centre_is_corrected_or_reported():
    # A middle centre that reads like another face's centre: the other five centres
    # and the pieces decide, or the scan is reported with that centre among the doubtful.
    rng = random.Random(660)
    corrected = 0
    for seed in range(20):
        state = random_state(rng, 3)
        scan = scan_of(state, 3, seed, "moderate", wild=0)
        face, other = rng.sample(range(6), 2)
        scan[9 * face + 4] = list(scan[9 * other + 4])
        # Corrected: the cube is right; the doubtful one may be its twin (both read alike).
        corrected += _corrected(scan, 3, state, [9 * face + 4], named=[9 * face + 4, 9 * other + 4])
    assert corrected >= 10


def test_red_orange_swap_on_one_facelet():
    state = random_state(random.Random(8), 3)
    index = next(i for i, c in enumerate(state) if c == "R" and i % 9 != 4)
    scan = scan_of(state, 3, 8, "low")
    _set_colour(scan, index, "L", random.Random(8))
    try:
        result = resolve(scan, 3)
    except ScanUnresolved as exc:
        assert index in exc.doubtful
    else:
        assert result.state == state and index in result.doubtful


def test_high_noise_never_silently_wrong():
    rng = random.Random(700)
    counts = {"exact": 0, "doubtful": 0, "wrong": 0}
    for seed in range(60):
        n = 2 + seed % 2
        state = random_state(rng, n)
        counts[_outcome(state, scan_of(state, n, seed, "high", samples=1 + 2 * (seed % 3 == 0)), n)] += 1
    assert counts["wrong"] == 0
    assert counts["exact"] > counts["doubtful"] / 2


def test_garbage_is_reported_with_facelets():
    rng = random.Random(9)
    scan = [[(rng.randrange(400), rng.randrange(400), rng.randrange(400))] for _ in range(54)]
    with pytest.raises(ScanUnresolved) as info:
        resolve(scan, 3)
    assert info.value.doubtful
    assert all(0 <= i < 54 for i in info.value.doubtful)


def test_several_samples_outvote_a_wild_one():
    state = random_state(random.Random(10), 3)
    scan = scan_of(state, 3, 10, "low", samples=3)
    rng = random.Random(10)
    for index in range(0, 54, 5):
        other = "U" if state[index] != "U" else "D"
        scan[index][1] = tuple(EV3_TYPICAL_RAW[STANDARD_SCHEME[other]])
        scan[index][1] = tuple(int(v * rng.uniform(0.9, 1.1)) for v in scan[index][1])
    result = resolve(scan, 3)
    assert result.state == state and result.doubtful == []


def test_with_a_calibration_profile():
    from cubebot.robot.colour.calibration import make_profile
    from cubebot.robot.hw.sim.sensor_model import SensorModel
    model = SensorModel(random.Random(11), "moderate")
    profile = make_profile(model.scan(solved(3), 3, 3), 3)
    model.new_scene()
    state = random_state(random.Random(11), 3)
    assert resolve(model.scan(state, 3, 3), 3, profile).state == state


def test_bad_readings_shape():
    from cubebot.robot.colour.scanfile import MalformedScan
    with pytest.raises(MalformedScan):
        resolve([[(1, 2, 3)]] * 53, 3)
    with pytest.raises(MalformedScan):
        resolve([[(1, 2, "x")]] * 54, 3)
    with pytest.raises(MalformedScan):
        resolve([[]] * 54, 3)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_moderate_noise_exact_after_rescans(n):
    # The "exact at moderate noise", as the robot reaches it: a scan that is
    # reported is read again where the report says, and then resolves to the cube.
    rng = random.Random(900 + n)
    reported = 0
    for seed in range(40 if n < 4 else 15):
        state = random_state(rng, n)
        scan = scan_of(state, n, seed, "moderate")
        for attempt in range(3):
            try:
                result = resolve(scan, n)
            except ScanUnresolved as exc:
                assert attempt < 2, "still doubtful after two rescans"
                reported += 1
                rescan(SensorModel(random.Random(seed * 10 + attempt), "moderate", wild=0),
                       state, n, scan, exc.doubtful)
                continue
            assert same_cube(result.state, state)
            break
    assert reported < 10


def test_a_junk_reading_is_settled_by_the_cube_on_a_quiet_scan():
    state = random_state(random.Random(12), 3)
    scan = scan_of(state, 3, 12, "low")
    scan[10] = [(430, 60, 400)]                  # fits no colour
    result = resolve(scan, 3)
    assert result.state == state


def test_two_junk_readings_are_read_again():
    state = random_state(random.Random(13), 3)
    scan = scan_of(state, 3, 13, "low")
    scan[10] = [(430, 60, 400)]
    scan[30] = [(20, 400, 420)]
    with pytest.raises(ScanUnresolved) as info:
        resolve(scan, 3)
    assert {10, 30} <= set(info.value.doubtful)


def test_a_facelet_read_again_weighs_more():
    # Five samples of a facelet are five times the evidence of one: its costs
    # (cubebot.robot.colour.rawmodel) scale with its sample count over the scan's usual count.
    from cubebot.robot.colour.profile import default_profile
    from cubebot.robot.colour.resolve import sample_weights
    from cubebot.robot.colour.space import combine
    from cubebot.robot.colour.rawmodel import RawModel
    state = random_state(random.Random(14), 3)
    scan = scan_of(state, 3, 14, "moderate", wild=0)
    index = next(i for i, c in enumerate(state) if c == "L" and i % 9 != 4)
    scan[index] = scan[index] * 5
    weights = sample_weights(scan)
    assert weights[index] == 5.0 and weights.count(1.0) == 53
    combined = [combine(s) for s in scan]
    plain = RawModel(combined, 3, default_profile())
    weighted = RawModel(combined, 3, default_profile(), weights)
    second = sorted(range(6), key=plain.cost[index].__getitem__)[1]
    assert plain.cost[index][second] > 0
    assert weighted.cost[index][second] == pytest.approx(5 * plain.cost[index][second])


def test_samples_at_different_brightness_keep_their_colour():
    from cubebot.robot.colour.space import combine
    orange = EV3_TYPICAL_RAW["orange"]
    samples = [tuple(v * b for v in orange) for b in (0.7, 1.0, 1.3)]
    got = combine(samples)
    assert abs(got[1] / got[0] - orange[1] / float(orange[0])) < 1e-9


def test_noisy_big_cube_red_orange_wing_swap_is_reported():
    # A red wing that reads orange and an orange wing that reads red, on a noisy
    # scan: nothing in a 4x4x4 tells them apart, so they must be reported.
    rng = random.Random(15)
    state = random_state(rng, 4)
    red, orange = _swappable_red_orange_wings(state)
    scan = scan_of(state, 4, 15, "high", wild=0)
    _set_colour(scan, red, "L", rng)
    _set_colour(scan, orange, "R", rng)
    assert _outcome(state, scan, 4) != "wrong"


def test_frequent_wild_samples_make_a_scan_noisy():
    # Three samples per facelet on a quiet sensor. A red wing reads orange and its
    # orange twin reads between the two: on a quiet scan the swapped cube is the
    # likely one and is returned; when many facelets also hold a wild sample the
    # sensor misreads often, the noisy-scan rules apply and the pair is reported.
    rng = random.Random(16)
    state = random_state(rng, 4)
    scan = scan_of(state, 4, 16, "low", samples=3)
    red, orange = _swappable_red_orange_wings(state)
    between = [0.4 * a + 0.6 * b for a, b in zip(EV3_TYPICAL_RAW["red"], EV3_TYPICAL_RAW["orange"])]
    for index, ref in ((red, EV3_TYPICAL_RAW["orange"]), (orange, between)):
        scan[index] = [tuple(int(v * rng.uniform(0.98, 1.02)) for v in ref) for _ in range(3)]
    assert _outcome(state, [list(s) for s in scan], 4) == "wrong"
    for index in rng.sample([i for i in range(96) if i not in (red, orange)], 12):
        scan[index][0] = (rng.randrange(400), rng.randrange(400), rng.randrange(400))
    assert _outcome(state, scan, 4) == "doubtful"


def _swappable_red_orange_wings(state):
    """Facelets (r, o) of a red and an orange wing that share their other colour and
    handedness: swapping red and orange there gives another valid 4x4x4."""
    from cubebot.robot.colour.pieces import orbits
    for orbit in orbits(4).wings:
        for a in orbit:
            for b in orbit:
                if state[a[0]] == "R" and state[b[0]] == "L" and state[a[1]] == state[b[1]]:
                    return a[0], b[0]
                if state[a[1]] == "R" and state[b[1]] == "L" and state[a[0]] == state[b[0]]:
                    return a[1], b[1]
    raise AssertionError("no such wings")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("grey", [(300, 300, 300), (0, 0, 0), (1020, 1020, 1020)])
def test_a_dead_sensor_is_reported_with_facelets(n, grey):
    with pytest.raises(ScanUnresolved) as info:
        resolve([[grey]] * (6 * n * n), n)
    assert info.value.doubtful and all(0 <= i < 6 * n * n for i in info.value.doubtful)
