"""Where an installed package keeps its tables, the shipped manifest, and the hint for a missing extra."""

import json
import os
import sys

import cubebot
from cubebot.robot.cli.main import main
from cubebot.solver import store

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_a_source_tree_keeps_its_tables_at_its_top(monkeypatch):
    monkeypatch.delenv("CUBEBOT_TABLES", raising=False)
    assert cubebot.SOURCE_TREE == ROOT
    assert store.tables_dir() == os.path.join(ROOT, "tables")


def test_an_installed_package_keeps_its_tables_in_the_per_user_data_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("CUBEBOT_TABLES", raising=False)
    monkeypatch.setattr(cubebot, "SOURCE_TREE", None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert store.tables_dir() == str(tmp_path / "data" / "cubebot" / "tables")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert store.tables_dir() == str(tmp_path / ".local" / "share" / "cubebot" / "tables")


def test_the_environment_variable_wins(monkeypatch, tmp_path):
    monkeypatch.setenv("CUBEBOT_TABLES", str(tmp_path))
    monkeypatch.setattr(cubebot, "SOURCE_TREE", None)
    assert store.tables_dir() == str(tmp_path)


def test_a_directory_without_a_manifest_is_read_against_the_shipped_one(tmp_path):
    shipped = store.shipped_manifest()
    assert shipped == os.path.join(ROOT, "tables", "manifest.json")
    with open(shipped) as fh:
        names = sorted(json.load(fh)["tables"])
    assert sorted(store.load_manifest(str(tmp_path))) == names
    problems = store.verify(str(tmp_path), names=["2x2-htm"])
    assert len(problems) == 1 and "2x2-htm is missing" in problems[0]


def test_a_command_whose_extra_is_missing_says_how_to_install_it(monkeypatch, capsys):
    for name in [m for m in sys.modules if m == "ev3dev2" or m.startswith("ev3dev2.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "ev3dev2", None)      # import ev3dev2 -> ImportError
    assert main(["diag", "--quick"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "python-ev3dev2" in err and "pip install 'cubebot[ev3]'" in err
