import json
import os
import subprocess
import sys

from cubebot.robot.cli.main import main
from cubebot.solver import facelets, moves, scramble
from .cubes import check_solves, seeded

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KNOWN = "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD"


def test_solve_prints_moves_that_solve(capsys, tables_dir):
    for state in (KNOWN, scramble.random_state(2, seeded(1))):
        assert main(["solve", state]) == 0
        out = capsys.readouterr().out
        check_solves(state, moves.parse(out))


def test_solve_json(capsys, tables_dir):
    state = scramble.random_state(2, seeded(2))
    assert main(["solve", state, "--json", "--metric", "qtm"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert sorted(obj) == ["core", "finish", "length", "metric", "moves", "seconds", "solve5"]
    assert obj["core"] in ("compiled", "python") and obj["solve5"] in ("compiled", "python")
    assert obj["finish"] in ("two-phase (compiled)", "kociemba")
    assert obj["metric"] == "qtm" and obj["length"] == moves.count(moves.parse(obj["moves"]), "qtm")
    check_solves(state, moves.parse(obj["moves"]))


def test_batch_goes_on_after_errors(capsys, tmp_path, tables_dir):
    good = scramble.random_state(2, seeded(3))
    path = tmp_path / "states.txt"
    path.write_text("{}\nnot-a-cube\n\n{}\n".format(good, KNOWN))
    assert main(["solve", "--batch", str(path)]) == 2          # one state was not a cube
    out, err = capsys.readouterr()
    assert err == "cubebot: error: 1 of 3 states failed (1 not valid cubes, 0 unsolved)\n"
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["state"] for x in lines] == [good, "not-a-cube", KNOWN]
    assert "error" in lines[1] and "facelets" in lines[1]["error"]
    check_solves(good, moves.parse(lines[0]["moves"]))
    check_solves(KNOWN, moves.parse(lines[2]["moves"]))


def exit_code(argv):
    """main(argv)'s exit code, whether returned or raised by the argument parser."""
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code


def test_bad_input_is_one_line_and_exit_2(capsys):
    for argv in (["solve", "UUU"], ["solve"], ["solve", KNOWN, "--metric", "xtm"],
                 ["solve", "--batch", "/nonexistent/file"], ["scramble", "--size", "10"]):
        assert exit_code(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, argv


def test_scramble_is_seeded_and_makes_its_state(capsys, tables_dir):
    for size in (2, 3, 4):
        assert main(["scramble", "--size", str(size), "--seed", "7"]) == 0
        first = capsys.readouterr().out
        assert main(["scramble", "--size", str(size), "--seed", "7"]) == 0
        assert capsys.readouterr().out == first
        state, scramble_text = first.splitlines()
        assert moves.apply(facelets.solved(size), scramble_text, size) == state


def test_tables_verify(capsys, tables_dir, tmp_path, monkeypatch):
    assert main(["tables", "verify"]) == 0
    monkeypatch.setenv("CUBEBOT_TABLES", str(tmp_path))
    assert main(["tables", "verify"]) == 2
    assert "cubebot tables build" in capsys.readouterr().err


def test_missing_kociemba_is_one_line():
    code = ("import sys; sys.modules['kociemba'] = None\n"
            "from cubebot.robot.cli.main import main; sys.exit(main(['solve', '{}']))".format(KNOWN))
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=TOP, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True)
    out, err = proc.communicate()
    assert proc.returncode == 1
    assert err.strip().count("\n") == 0 and "pip install kociemba" in err
