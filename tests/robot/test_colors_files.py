"""Scan files (cubebot.robot.colour.scanfile), colour profiles (cubebot.robot.colour.profile) and the
`cubebot colors` / `cubebot calibrate-colors` commands: formats, malformed
input and exit codes."""

import io
import json
import os
import random

import pytest

from cubebot.robot.cli.main import main
from cubebot.robot.colour.calibration import make_profile
from cubebot.robot.colour.profile import load_profile, save_profile
from cubebot.robot.errors import ConfigError
from cubebot.robot.colour.scanfile import MalformedScan, dump_defacto, dump_scan, parse_scan
from cubebot.solver.facelets import solved
from cubebot.solver.moves import apply

from .colors_support import random_state, same_cube, scan_of

STATE = apply(solved(3), "R U F' L2 D B' R2 U2 F", 3)


def _write(tmp_path, name, obj):
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return str(path)


def test_defacto_round_trip_and_face_order():
    scan = scan_of(STATE, 3, 1, "low")
    obj = dump_defacto(scan, 3)
    assert sorted(obj, key=int) == [str(k) for k in range(1, 55)]
    # De-facto order U L F R B D: number 10 is L1, our index 36.
    assert obj["10"] == list(scan[36][0])
    assert obj["19"] == list(scan[18][0])     # F1
    assert obj["28"] == list(scan[9][0])      # R1
    readings, n = parse_scan(json.dumps(obj))
    assert n == 3 and readings == [[tuple(s[0])] for s in scan]


def test_own_format_keeps_samples():
    scan = scan_of(STATE, 3, 2, "low", samples=3)
    readings, n = parse_scan(json.dumps(dump_scan(scan, 3)))
    assert n == 3 and readings == [[tuple(s) for s in samples] for samples in scan]


def test_defacto_of_several_samples_ignores_wild_channels():
    scan = [[(10, 20, 30), (12, 200, 31), (11, 21, 500)]] + [[(1, 1, 1)]] * 53
    got = dump_defacto(scan, 3)["1"]
    assert all(abs(a - b) <= 1 for a, b in zip(got, [11, 21, 31])), got


@pytest.mark.parametrize("text, words", [
    ("{not json", "not valid JSON"),
    (json.dumps({"1": [1, 2, 3]}), "scan has 1 facelets"),
    (json.dumps(dict((str(k), [1, 2, 3]) for k in range(2, 56))), "missing facelet 1"),
    (json.dumps(dict((str(k), [1, 2, 3]) for k in range(1, 55)), ).replace("[1, 2, 3]", "[1, 2]", 1),
     "not a reading"),
    (json.dumps(dict((str(k), [1, "a", 3]) for k in range(1, 55))), "not a reading"),
    (json.dumps(dict((str(k), [1, -2, 3]) for k in range(1, 55))), "not a reading"),
    (json.dumps({"format": "cubebot-scan", "version": 1, "size": 3, "readings": [[[1, 2, 3]]] * 53}),
     "needs 54 facelets"),
    (json.dumps({"format": "cubebot-scan", "version": 2, "size": 3, "readings": []}), "version"),
    (json.dumps({"format": "cubebot-scan", "version": 1, "size": 10, "readings": []}), "size"),
    (json.dumps({"format": "cubebot-scan", "version": 1, "size": 3, "readings": [[]] * 54}),
     "holds no reading"),
    (json.dumps({"format": "other"}), "unknown scan format"),
    ("[1, 2, 3]", "scan has 3 facelets"),
    (json.dumps([[1, 2, 3]] * 53), "a cube needs one of"),
    (json.dumps({"U": [[1, 2, 3]] * 9}), "missing face"),
    (json.dumps(dict((f, [[1, 2, 3]] * (9 if f != "B" else 8)) for f in "URFDLB")),
     "different numbers"),
    ("1,2,3\n4,5\n", "line 2"),
    ("r,g,b\n1,2,x\n", "line 2"),
    ("# nothing\n", "no readings"),
    ("\n".join(["1,2,3"] * 53), "a cube needs one of"),
])
def test_malformed_scans(text, words):
    with pytest.raises(MalformedScan) as info:
        parse_scan(text)
    message = str(info.value)
    assert words in message and "\n" not in message


def test_size_option_must_match():
    obj = dump_scan(scan_of(STATE, 3, 3, "low"), 3)
    with pytest.raises(MalformedScan):
        parse_scan(json.dumps(obj), size=2)
    with pytest.raises(MalformedScan):
        parse_scan(json.dumps(dump_defacto(scan_of(STATE, 3, 3, "low"), 3)), size=2)


def test_profile_round_trip_and_use(tmp_path):
    profile = make_profile(scan_of(solved(3), 3, 4, "low", samples=3), 3)
    assert profile["size"] == 3 and profile["classes"] == list("URFDLB")
    assert len(profile["facelets"]) == 6 and len(profile["centres"]) == 6
    path = str(tmp_path / "profile.json")
    save_profile(profile, path)
    assert load_profile(path) == profile
    assert [p for p in os.listdir(str(tmp_path)) if p.startswith(".")] == []


def test_profile_needs_a_solved_cube():
    with pytest.raises(ConfigError) as info:
        make_profile(scan_of(STATE, 3, 5, "low"), 3)
    assert "not a solved cube" in str(info.value)


@pytest.mark.parametrize("content, words", [
    ("{", "not valid JSON"),
    (json.dumps({"format": "x"}), "not a colour profile"),
    (json.dumps({"format": "cubebot-colour-profile", "version": 1, "classes": list("URFDLB"),
                 "facelets": [[1, 2]] * 6}), "facelets"),
])
def test_bad_profiles(tmp_path, content, words):
    path = _write(tmp_path, "p.json", content)
    with pytest.raises(ConfigError) as info:
        load_profile(path)
    assert words in str(info.value)


# -- the commands -----------------------------------------------------------

def test_cli_prints_the_state(tmp_path, capsys):
    path = _write(tmp_path, "scan.json", dump_defacto(scan_of(STATE, 3, 6, "low"), 3))
    assert main(["colors", path]) == 0
    assert capsys.readouterr().out.strip() == STATE


def test_cli_json(tmp_path, capsys):
    state = random_state(random.Random(12), 2)
    path = _write(tmp_path, "scan.json", dump_scan(scan_of(state, 2, 12, "low", samples=2), 2))
    assert main(["colors", path, "--json", "--size", "2"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert sorted(obj) == ["confidence", "doubtful", "facelets", "references", "size", "state"]
    assert len(obj["facelets"]) == 24 and obj["size"] == 2
    from .colors_support import same_cube
    assert same_cube(obj["state"], state)


def test_cli_stdin(monkeypatch, capsys):
    text = json.dumps(dump_defacto(scan_of(STATE, 3, 7, "low"), 3))
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["colors", "-"]) == 0
    assert capsys.readouterr().out.strip() == STATE


@pytest.mark.parametrize("content", ["{bad", json.dumps({"1": [1, 2, 3]})])
def test_cli_malformed_exit_2(tmp_path, capsys, content):
    path = _write(tmp_path, "bad.json", content)
    assert main(["colors", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_cli_missing_file_exit_2(tmp_path, capsys):
    assert main(["colors", str(tmp_path / "nope.json")]) == 2
    assert "cannot read scan" in capsys.readouterr().err


def test_cli_unresolved_exit_3(tmp_path, capsys):
    rng = random.Random(13)
    obj = dict((str(k), [rng.randrange(400), rng.randrange(400), rng.randrange(400)])
               for k in range(1, 55))
    path = _write(tmp_path, "junk.json", obj)
    assert main(["colors", path]) == 3
    err = capsys.readouterr().err
    assert "doubtful facelets:" in err and err.count("\n") == 1


def test_cli_calibrate_colors(tmp_path, capsys):
    scan = _write(tmp_path, "solved.json", dump_scan(scan_of(solved(3), 3, 14, "low", samples=3), 3))
    out = str(tmp_path / "dir" / "profile.json")
    assert main(["calibrate-colors", scan, "--output", out]) == 0
    assert capsys.readouterr().out.strip() == out
    profile = load_profile(out)
    state_scan = _write(tmp_path, "s.json", dump_defacto(scan_of(STATE, 3, 15, "low"), 3))
    assert main(["colors", state_scan, "--profile", out]) == 0
    assert capsys.readouterr().out.strip() == STATE
    assert profile["size"] == 3


def test_cli_calibrate_colors_not_solved(tmp_path, capsys):
    scan = _write(tmp_path, "s.json", dump_defacto(scan_of(STATE, 3, 16, "low"), 3))
    assert main(["calibrate-colors", scan, "--output", str(tmp_path / "p.json")]) == 2
    assert "not a solved cube" in capsys.readouterr().err
    assert not os.path.exists(str(tmp_path / "p.json"))


def test_other_layouts_read_as_the_same_scan():
    # A list of 6N^2 rows, per-face objects (flat or N rows of N), CSV lines:
    # the same readings as the de-facto file, in URFDLB order.
    from solver.facelets import FACES
    readings, n = parse_scan(json.dumps(dict((str(k), [k, 2 * k, 3 * k]) for k in range(1, 55))))
    flat = [list(samples[0]) for samples in readings]
    assert parse_scan(json.dumps(flat)) == (readings, n)
    faces = dict((f, flat[9 * k:9 * k + 9]) for k, f in enumerate(FACES))
    assert parse_scan(json.dumps(faces)) == (readings, n)
    rows = dict((f, [face[3 * r:3 * r + 3] for r in range(3)]) for f, face in faces.items())
    assert parse_scan(json.dumps(rows)) == (readings, n)
    csv = "r,g,b\n" + "\n".join("{},{},{}".format(*rgb) for rgb in flat) + "\n"
    got, size = parse_scan(csv)
    assert size == 3 and [list(s[0]) for s in got] == flat
    # The U face's first reading is de-facto facelet "1"; L's first is "10".
    assert flat[0] == [1, 2, 3] and flat[36] == [10, 20, 30]


def test_cli_reads_csv_and_rejects_bad_files(tmp_path, capsys):
    scan = scan_of(STATE, 3, 5, "low")
    path = tmp_path / "scan.csv"
    path.write_text("\n".join("{},{},{}".format(*s[0]) for s in scan) + "\n")
    assert main(["colors", str(path)]) == 0
    assert same_cube(capsys.readouterr().out.strip(), STATE)
    path.write_text("1,2,3\n" * 20)
    assert main(["colors", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "20" in err
