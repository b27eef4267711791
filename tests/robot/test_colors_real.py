"""Real recorded scans (tests/data/real-scans, see its README): every scan with a
known truth resolves to that cube up to a renaming of the colours; every other
scan resolves to a valid cube or is reported, and never raises anything else.
Also each scan in the other layouts, and at another scale of the same readings."""

import json
import os

import pytest

from cubebot.robot.colour.resolve import resolve
from cubebot.robot.errors import ScanUnresolved
from cubebot.robot.colour.scanfile import parse_scan
from cubebot.solver.api import check_structure
from cubebot.solver.cubies import from_facelets
from cubebot.solver.facelets import FACES, check_counts

from .colors_support import same_cube

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data", "real-scans")


def check_state(state, n):
    """Raise InvalidCube unless `state` is a valid cube (solver's own checks)."""
    check_counts(state, n)
    if n <= 3:
        from_facelets(state, n)
    else:
        check_structure(state, n)


def _manifest():
    with open(os.path.join(DATA, "manifest.json")) as fh:
        return json.load(fh)


MANIFEST = _manifest()


def _scan(entry):
    with open(os.path.join(DATA, entry["file"])) as fh:
        return parse_scan(fh.read())


def test_manifest_matches_the_files():
    files = set(name for name in os.listdir(DATA) if name.endswith(".json") and name != "manifest.json")
    assert files == set(e["file"] for e in MANIFEST)
    for e in MANIFEST:
        readings, n = _scan(e)
        assert n == e["size"]
        assert e["truth"] is None or len(e["truth"]) == 6 * n * n


# Labelled scans: each resolves to its cube or is reported for a rescan (ScanUnresolved,
# naming doubtful facelets), never resolved to another cube. Some are hard by nature
# (docs/colors.md, "Left out"): webcam scans whose white and yellow are both saturated, a
# robot that reads facelets unlike their colour. The resolver is held to a bound on how
# many it reports, not to a list of today's reported files.
MIN_EXACT_SHARE = 0.9         # of the labelled scans, at least this share resolve exactly
LABELLED = [e for e in MANIFEST if e["truth"]]


def _exact_or_reported(entry):
    """True if the scan resolves to its labelled cube, False if it is reported; never wrong."""
    readings, n = _scan(entry)
    try:
        result = resolve(readings, n)
    except ScanUnresolved as exc:
        assert exc.doubtful
        return False
    assert same_cube(result.state, entry["truth"]), entry["file"]
    check_state(result.state, n)
    return True


@pytest.mark.parametrize("entry", LABELLED, ids=lambda e: e["file"])
def test_labelled_scans_resolve_to_their_cube_or_are_reported(entry):
    _exact_or_reported(entry)


def test_most_labelled_scans_resolve_exactly():
    exact = sum(1 for e in LABELLED if _exact_or_reported(e))
    assert exact >= MIN_EXACT_SHARE * len(LABELLED), (exact, len(LABELLED))


@pytest.mark.parametrize("entry", [e for e in MANIFEST if not e["truth"]], ids=lambda e: e["file"])
def test_unlabelled_scans_resolve_to_a_valid_cube_or_are_reported(entry):
    readings, n = _scan(entry)
    try:
        result = resolve(readings, n)
    except ScanUnresolved as exc:
        assert exc.doubtful and all(0 <= i < 6 * n * n for i in exc.doubtful)
    else:
        check_state(result.state, n)


DIM_FACTORS = (0.05, 0.1)


@pytest.mark.parametrize("factor", DIM_FACTORS + (1 / 255.0, 4.0))
def test_scale_free(factor):
    # The same readings on another scale (dim counts, 0..1 floats, brighter
    # units) resolve to the same cube: nothing in the model knows the scale.
    # Dim counts are rounded to whole counts, as a sensor reports them: at
    # x0.05 and x0.1 the 4x4x4's channels span 0..13 and 0..26 counts, where
    # rounding is most of a class's spread (rawmodel.quantisation_var).
    for entry in MANIFEST:
        if entry["file"] in ("cavenel-edge2.json", "rubiks-cube-tracker-4x4x4-random-01.json"):
            readings, n = _scan(entry)
            scaled = [[tuple(c * factor for c in s) for s in samples] for samples in readings]
            if factor in DIM_FACTORS:
                scaled = [[tuple(float(round(c)) for c in s) for s in samples] for samples in scaled]
            result = resolve(scaled, n)
            assert same_cube(result.state, entry["truth"])


def test_any_six_colours():
    # Renaming which face holds which colour, and changing the colours'
    # order in the channels (as another sensor or cube would), changes nothing.
    entry = [e for e in MANIFEST if e["file"] == "lego-crane-cuber-3x3x3-random-02.json"][0]
    readings, n = _scan(entry)
    swapped = [[(s[2], s[0], s[1]) for s in samples] for samples in readings]
    result = resolve(swapped, n)
    assert same_cube(result.state, entry["truth"])
    assert sorted(result.references) == sorted(FACES)


@pytest.mark.parametrize("n", [2, 3])
def test_real_ev3_traits_and_a_pastel_cube_never_resolve_wrong(n):
    # The simulated sensor with the real EV3's traits (dim levels, the centres'
    # own look) scanning a cube of non-standard colours: exact or reported.
    import random
    from cubebot.robot.hw.sim.sensor_model import SensorModel
    from .colors_support import random_state
    rng = random.Random(1400 + n)
    outcomes = []
    for _ in range(12):
        state = random_state(rng, n)
        sensor = SensorModel(random.Random(rng.random()), "moderate", scheme="pastel", real=True)
        try:
            result = resolve(sensor.scan(state, n, 2), n)
        except ScanUnresolved:
            outcomes.append("reported")
            continue
        outcomes.append("exact" if same_cube(result.state, state) else "wrong")
    assert "wrong" not in outcomes
    assert outcomes.count("exact") >= 8


def test_a_scan_no_start_can_read_is_searched_once_per_start(monkeypatch):
    # lego-crane-cuber's 2b54728 scan has no valid cube near its readings: each
    # start of the learned model ends without one, and the report goes on from
    # the start already resolved (it used to be resolved a third time)
    import cubebot.robot.colour.resolve as module
    calls = []
    real = module._resolve_view

    def counted(combined, n, start, space, *args, **kwargs):
        calls.append(space)
        return real(combined, n, start, space, *args, **kwargs)
    monkeypatch.setattr(module, "_resolve_view", counted)
    with open(os.path.join(DATA, "lego-crane-cuber-3x3x3-cube2html-2b54728.json")) as fh:
        readings, n = parse_scan(fh.read())
    with pytest.raises(ScanUnresolved):
        resolve(readings, n)
    assert calls.count("raw") == 2
