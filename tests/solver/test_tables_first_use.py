"""Which tables `cubebot tables build` builds, and what a solve does when its size's tables
are missing: at a terminal (a real pty) it builds them with a progress bar and goes on;
with --json (or any caller that is not a person at a terminal) it fails with one line
naming the command that builds them. Real `cubebot` processes on empty tables folders."""

import json
import os
import pty
import re
import subprocess
import sys

from cubebot.solver import catalog, moves, scramble, store
from .cubes import check_solves, seeded

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD_TIMEOUT_S = 600


def cubebot_env(tables):
    env = dict(os.environ)
    env[store.ENV_VAR] = str(tables)
    env["PYTHONPATH"] = TOP
    return env


def run_cubebot(args, tables):
    return subprocess.run([sys.executable, "-m", "cubebot"] + args, cwd=TOP, env=cubebot_env(tables),
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=BUILD_TIMEOUT_S)


def test_every_table_name_starts_with_its_size():
    # deploy/tablecheck.py picks a size's files by this prefix
    for spec in catalog.SPECS:
        assert spec.name.startswith("{0}x{0}-".format(spec.size)), spec.name


def test_demo_sizes_name_only_the_2x2x2_and_3x3x3_tables_and_all_names_every_default_size():
    assert set(catalog.names(sizes=catalog.DEMO_SIZES)) == set(catalog.names(size=2) + catalog.names(size=3))
    # every reduction finishes with the 3x3x3 two-phase search
    assert all(set(catalog.names(size=3)) < set(catalog.names(size=n)) for n in range(4, 10))
    assert set(catalog.spec(n).size for n in catalog.names()) == set(s.size for s in catalog.SPECS if s.size <= 7)
    assert set(catalog.names(sizes=(5,))) == set(catalog.names(size=5)) >= set(catalog.names(size=4))
    assert catalog.names(sizes=(8,)) == catalog.names(size=8)


def test_plain_build_writes_only_the_demo_tables(tmp_path):
    tables = tmp_path / "tables"
    done = run_cubebot(["tables", "build"], tables)
    assert done.returncode == 0, done.stderr
    demo = catalog.names(size=2) + catalog.names(size=3)
    assert sorted(os.listdir(str(tables))) == sorted([n + store.SUFFIX for n in demo] + [store.MANIFEST])
    assert store.verify(str(tables), names=demo) == []
    done = run_cubebot(["tables", "verify"], tables)
    assert done.returncode == 0, done.stderr
    done = run_cubebot(["tables", "verify", "--size", "4"], tables)
    assert done.returncode == 2 and "4x4-" in done.stderr


def test_all_with_a_size_is_a_usage_error(tmp_path):
    done = run_cubebot(["tables", "build", "--all", "--size", "4"], tmp_path / "tables")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--all" in done.stderr
    assert not (tmp_path / "tables").exists()


def test_json_solve_with_missing_tables_names_the_build_command(tmp_path):
    tables = tmp_path / "tables"
    tables.mkdir()
    state = scramble.random_state(4, seeded(43))
    done = run_cubebot(["solve", "--json", state], tables)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "4x4x4" in done.stderr and "`cubebot tables build --size 4`" in done.stderr
    assert os.listdir(str(tables)) == []                   # nothing built


def test_batch_to_a_pipe_does_not_build(tmp_path):
    tables = tmp_path / "tables"
    tables.mkdir()
    batch = tmp_path / "states.txt"
    batch.write_text(scramble.random_state(2, seeded(44)) + "\n")
    done = run_cubebot(["solve", "--batch", str(batch)], tables)
    assert done.returncode == 2 and "`cubebot tables build --size 2`" in done.stderr
    assert os.listdir(str(tables)) == []


def run_in_pty(args, env):
    """Run `args` with stdin, stdout and stderr on a fresh pty; (exit status, all output)."""
    pid, fd = pty.fork()
    if pid == 0:                                            # the child: exec, never return
        try:
            os.chdir(TOP)
            os.execve(args[0], args, env)
        finally:
            os._exit(127)
    chunks = []
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:                                     # EIO: the child closed the pty
            break
        if not data:
            break
        chunks.append(data)
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    return status, b"".join(chunks).decode("utf-8", "replace")


def test_terminal_solve_builds_the_missing_tables_with_a_bar_then_solves(tmp_path):
    tables = tmp_path / "tables"
    state = scramble.random_state(2, seeded(45))
    status, output = run_in_pty([sys.executable, "-m", "cubebot", "solve", state], cubebot_env(tables))
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, output
    names = catalog.names(size=2)
    for i, name in enumerate(names, 1):
        assert re.search(r"\r\[[# ]+\] table {} of {} {}: ".format(i, len(names), re.escape(name)), output)
    assert store.verify(str(tables), names=names) == []
    last = [line for line in output.replace("\r", "\n").splitlines() if line.strip()][-1]
    check_solves(state, moves.parse(last))
    # the tables are there now: a second solve builds nothing
    status, output = run_in_pty([sys.executable, "-m", "cubebot", "solve", "--json", state],
                                cubebot_env(tables))
    assert os.WEXITSTATUS(status) == 0 and "table 1 of" not in output
    check_solves(state, moves.parse(json.loads(output.strip())["moves"]))
