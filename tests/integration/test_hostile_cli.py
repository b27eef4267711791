"""Hostile input at every entrance of the command line: each answered with exit code 2,
exactly one line on stderr, no traceback.

1. A walk over every subcommand (and every action of `tables` and `remote`) and each of
   its options, with hostile values chosen by the option's kind (numbers out of range or
   not finite, sizes without a solver, unwritable output paths, unreadable input files),
   through `cubebot.robot.cli.main.main(argv)` in this process.
2. The rows of issue #15 and variants of them as real processes under a 3 GB address-space
   limit (`ulimit -v`), so that a size that is not bounded before allocation fails here.
"""

import argparse
import json
import os
import subprocess
import sys

import pytest

from cubebot.robot.cli import main as cli
from cubebot.solver.facelets import MAX_SIZE, solved

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MEMORY_LIMIT_KB = 3000000         # the issue's 3 GB
PROC_TIMEOUT_S = 120
SOLVED3 = solved(3)


@pytest.fixture
def files(tmp_path):
    """Hostile and good input files by name."""
    def write(name, data):
        path = tmp_path / name
        path.write_bytes(data)
        return str(path)
    a_file = write("a_file", b"x")
    good_scan = {str(k): [200, 200, 200] for k in range(1, 25)}
    return {
        "a_file": a_file,
        "under_a_file": os.path.join(a_file, "sub", "x.json"),
        "folder": str(tmp_path),
        "missing": str(tmp_path / "missing.json"),
        "binary": write("binary", bytes(range(256)) * 4),
        "utf16": write("utf16.json", json.dumps({"settle_s": 0.1}).encode("utf-16")),
        "nan": write("nan.json", b'{"settle_s": NaN}'),
        "huge": write("huge.json", b'{"table_speed_dps": 1e400}'),
        "digits": write("digits.json", b'{"max_rescans": ' + b"9" * 400 + b"}"),
        "deep": write("deep.json", b"[" * 200000),
        "scan": write("scan.json", json.dumps(good_scan).encode()),
        "scan_1e300": write("scan_1e300.json", json.dumps(dict(good_scan, **{"1": [1e300, 5, 5]})).encode()),
        "scan_digits": write("scan_digits.json", json.dumps(good_scan).replace(
            "[200, 200, 200]", "[" + "9" * 400 + ", 5, 5]", 1).encode()),
        "empty": write("empty.txt", b""),
        "comments": write("comments.txt", b"# only a comment\n\n   \n"),
        "bad_line": write("bad_line.txt", (SOLVED3 + "\nnot a cube\n").encode()),
        "long_line": write("long_line.txt", b"U" * 100000),
    }


# -- the walk ------------------------------------------------------------------------------

def _subcommands(parser, prefix=()):
    """(argv prefix, parser) for every command and action that runs something."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in sorted(action.choices.items()):
                yield prefix + (name,), sub
                for item in _subcommands(sub, prefix + (name,)):
                    yield item


# the arguments a command needs besides the one under test (all fine on their own)
def _base(command, files):
    return {
        ("solve",): [SOLVED3], ("colors",): [files["scan"]], ("calibrate-colors",): [files["scan"]],
        ("demo",): [], ("scramble",): [], ("tables",): [], ("tables", "build"): [], ("tables", "verify"): [],
        ("diag",): ["--sim", "--quick"], ("calibrate",): ["--sim"], ("run",): ["--sim", "--runs", "1"],
        ("serve",): ["--port", files["missing"], "--sim"],
        ("classroom",): ["--sim", "--no-browser", "--http-port", "0", "--log", files["missing"]],
    }.get(command, None)


def _remote_argv(command, option_argv, files):
    """remote's options go before its action, an action's options after it."""
    if command == ("remote",):
        return ["remote", "--port", files["missing"]] + option_argv + ["status"]
    return ["remote", "--port", files["missing"], command[1]] + option_argv


def _hostile_values(action, files):
    """Values each of which must be refused for this option."""
    kind = getattr(action.type, "__name__", None)
    if action.choices is not None and action.type is None:
        return ["bogus", "x" * 5000]
    if kind in ("integer", "seconds", "size"):
        low, high = getattr(action.type, "limits", (None, None))
        values = ["inf", "-inf", "nan", "1e309", "9" * 400, "abc", "", "0x10", "1e9999999"]
        if low is not None:
            values.append(str(low - 1))
        if high is not None:
            values.append(str(high + 1) if kind != "seconds" else "1e9")
        if kind == "size":
            values += ["1000000", "3000", "-1", "0"]
        return values
    if kind == "folder":
        return [files["under_a_file"], files["a_file"]]
    if kind == "file":
        return [files["under_a_file"], files["folder"], "/dev/null"]
    if kind == "choice":
        return ["in9", "x" * 5000, ""]
    if kind == "address":                         # [HOST:]PORT
        return ["", "x", "host:", "host:65536", "host:-1", "1.2.3.4:7e3", "x" * 5000]
    if kind == "host":                            # an IP address to serve on
        return ["", "evil.example", "1.2.3.4.5", "x" * 5000]
    if kind == "code":                            # a pairing code: digits
        return ["", "   ", "abc", "1" * 33, "x" * 5000]
    if action.type in (int, float):              # a bare type: no range; this must fail the walk
        return ["inf", "nan", "1e309", "9" * 400, "-1"]
    if action.dest in ("config", "profile", "file"):        # files read whole (solve --file: a state)
        return [files[k] for k in ("missing", "folder", "binary", "utf16", "nan", "huge", "digits", "deep")]
    assert action.dest in UNCHECKED_OPTIONS, "option {} has no rule".format(action.option_strings)
    return []


# options taking any text: serial devices (a missing one is waited for or is a link failure, 1),
# the batch file (tested below), calibrate-colors' output (its own checks, tested below)
UNCHECKED_OPTIONS = ("port", "link", "batch", "output")


def _cases(files):
    parser = cli.build_parser()
    for command, sub in _subcommands(parser):
        for action in sub._actions:
            if not action.option_strings or action.nargs == 0 or action.dest in ("help", "version"):
                continue
            if command == ("calibrate",) and action.dest == "profile":
                continue                     # calibrate writes the profile: an output path, tested below
            for value in _hostile_values(action, files):
                option_argv = [action.option_strings[-1], value]
                if command[0] == "remote":
                    yield command, _remote_argv(command, option_argv, files)
                    continue
                base = _base(command, files)
                if base is None:
                    continue
                yield command, list(command) + base + option_argv


def _run_main(argv, capsys):
    try:
        rc = cli.main(argv)
    except SystemExit as exc:
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


def _assert_one_line_2(argv, rc, err):
    short = [a if len(a) < 60 else a[:57] + "..." for a in argv]
    assert rc == 2, "{}: exit {} ({!r})".format(short, rc, err[-300:])
    assert err.count("\n") == 1 and err.endswith("\n"), "{}: {!r}".format(short, err[-500:])
    assert "Traceback" not in err


def test_every_option_of_every_command_refuses_hostile_values(files, capsys, monkeypatch, tmp_path):
    from cubebot.robot.link.server import LinkServer

    def accepted(self):
        raise AssertionError("serve accepted a hostile value and started serving")
    monkeypatch.setattr(LinkServer, "serve_forever", accepted)     # fail, never hang
    from cubebot.robot.link.tcp import TcpLinkServer
    from cubebot.robot.ui.classroom.server import ClassroomServer
    monkeypatch.setattr(TcpLinkServer, "serve_forever", accepted)
    monkeypatch.setattr(ClassroomServer, "start", accepted)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    cases = list(_cases(files))
    commands = set(command for command, _ in cases)
    assert len(cases) > 150 and {("solve",), ("demo",), ("run",), ("serve",), ("remote", "run"),
                                 ("tables", "build"), ("diag",), ("calibrate",)} <= commands, commands
    for _, argv in cases:
        rc, out, err = _run_main(argv, capsys)
        _assert_one_line_2(argv, rc, err)


def _a_size_without_a_solver():
    """A size with no solver: one the model takes, or else the first it does not."""
    from cubebot.solver.api import solvable_sizes
    from cubebot.solver.facelets import MAX_SIZE
    return ([n for n in range(2, MAX_SIZE + 1) if n not in solvable_sizes()] + [MAX_SIZE + 1])[0]


@pytest.mark.parametrize("argv_of", [
    lambda f: ["solve", "x" * 1000000],
    lambda f: ["solve", ""],
    lambda f: ["solve", solved(_a_size_without_a_solver())],
    lambda f: ["solve", "--batch", f["binary"]],
    lambda f: ["solve", "--batch", f["empty"]],
    lambda f: ["solve", "--batch", f["comments"]],
    lambda f: ["solve", "--batch", f["bad_line"]],
    lambda f: ["solve", "--batch", f["long_line"]],
    lambda f: ["solve", "--batch", f["folder"]],
    lambda f: ["solve", "--batch", f["missing"]],
    lambda f: ["solve", SOLVED3, "--batch", f["bad_line"]],
    lambda f: ["colors", f["binary"]],
    lambda f: ["colors", f["scan_1e300"]],
    lambda f: ["colors", f["scan_digits"]],
    lambda f: ["colors", f["folder"]],
    lambda f: ["colors", f["deep"]],
    lambda f: ["colors", f["scan"], "--profile", f["nan"]],
    lambda f: ["calibrate-colors", f["scan"], "--output", f["under_a_file"]],
    lambda f: ["calibrate-colors", f["scan"], "--output", f["folder"]],
    lambda f: ["diag", "--sim", "--unplug", "in1"],
    lambda f: ["diag", "--unplug", "in1"],
    lambda f: ["tables"],
    lambda f: ["remote", "--port", f["missing"]],
    lambda f: ["calibrate", "--sim", "--profile", f["under_a_file"]],
    lambda f: ["calibrate", "--sim", "--config", f["under_a_file"]],
])
def test_positional_and_file_inputs_refused_in_one_line(argv_of, files, capsys):
    argv = argv_of(files)
    rc, out, err = _run_main(argv, capsys)
    _assert_one_line_2(argv, rc, err)


def test_a_batch_says_how_many_lines_failed(files, capsys):
    rc, out, err = _run_main(["solve", "--batch", files["bad_line"]], capsys)
    assert rc == 2 and err == "cubebot: error: 1 of 2 states failed (1 not valid cubes, 0 unsolved)\n"
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["state"] == SOLVED3 and lines[0]["moves"] == [] and "error" in lines[1]


def test_size_choices_come_from_the_solver_registry(monkeypatch, capsys):
    from cubebot.solver import api
    monkeypatch.setitem(api.ENGINES, 5, "solver.solve5_not_here")
    rc, out, err = _run_main(["solve", "--size", "5", solved(5)], capsys)
    # the parser took 5 (registered), the engine is missing: still one line, exit 2
    assert rc == 2 and "no solver for the 5x5x5 cube yet" in err and err.count("\n") == 1
    monkeypatch.delitem(api.ENGINES, 5)
    rc, out, err = _run_main(["solve", "--size", "5", solved(5)], capsys)
    assert rc == 2 and "--size: 5 is not a size with a solver: use {}".format(
        ", ".join(str(n) for n in api.solvable_sizes())) in err


# -- the issue's rows as processes, under the 3 GB limit -----------------------------------------

def _cubebot(args, stdin=None, env=None):
    command = "ulimit -v {} && exec {} -m cubebot.robot.cli.main {}".format(
        MEMORY_LIMIT_KB, sys.executable, " ".join("'" + a.replace("'", "'\\''") + "'" for a in args))
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(["bash", "-c", command], cwd=ROOT, input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=PROC_TIMEOUT_S, env=full_env)


ROWS = [
    ["colors", "--size", "1000000", "{scan}"],
    ["colors", "--size", "3000", "{scan}"],
    ["colors", "--size", "99999999999999999999", "{scan}"],
    ["calibrate-colors", "--size", "100000", "{scan}"],
    ["solve", "--budget", "inf", SOLVED3],
    ["solve", "--budget", "1e309", SOLVED3],
    ["solve", "--budget", "1e9", SOLVED3],
    ["solve", "--budget", "nan", SOLVED3],
    ["solve", "--budget", "-0", SOLVED3],
    ["demo", "--config", "{nan}"],
    ["diag", "--sim", "--quick", "--config", "{nan}"],
    ["calibrate", "--sim", "--config", "{nan}"],
    ["run", "--sim", "--config", "{nan}"],
    ["demo", "--config", "{huge}"],
    ["diag", "--sim", "--config", "{utf16}"],
    ["run", "--sim", "--config", "{utf16}"],
    ["colors", "{scan_1e300}"],
    ["colors", "{scan_digits}"],
    ["solve", "--batch", "{binary}"],
    ["calibrate", "--sim", "--output", "{under_a_file}"],
    ["demo", "--virtual-brick", "--screenshots", "{under_a_file}"],
    ["run", "--sim", "--log-file", "{under_a_file}"],
    ["run", "--sim", "--settings", "{folder}"],
    ["remote", "--port", "/dev/null", "--timeout", "inf", "status"],
    ["remote", "--port", "/dev/null", "--timeout", "nan", "ping"],
    ["demo", "--budget", "-1"],
    ["demo", "--budget", "0"],
    ["diag", "--virtual-brick", "--unplug", "in9"],
    ["diag", "--sim", "--unplug", "outA"],
    ["solve", "--batch", "{empty}"],
    ["solve", "--size", str(MAX_SIZE + 1), SOLVED3],
    ["solve", "--size", "6", solved(7)],            # 6 has a solver: a 7x7x7 given as 6
    ["tables"],
    ["scramble", "--size", "100000"],
    ["serve", "--port", "/dev/null", "--sim", "--size", "4"],
]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: " ".join(a[:20] for a in r)[:60])
def test_issue_rows_exit_2_with_one_line_under_3gb(row, files):
    args = [a.format(**files) for a in row]
    result = _cubebot(args, env={"HOME": files["folder"]})
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, (args, result.returncode, err[-400:])
    assert err.count("\n") == 1 and "Traceback" not in err, err[-400:]


def test_tables_build_into_a_file_fails_before_building(files):
    result = _cubebot(["tables", "build", "--size", "2"], env={"CUBEBOT_TABLES": files["a_file"]})
    err = result.stderr.decode()
    assert result.returncode == 2
    assert err == "cubebot: error: tables folder {} is not a folder\n".format(files["a_file"])


def test_solve_dash_reads_stdin_and_a_solved_cube_says_so():
    result = _cubebot(["solve", "-"], stdin=("# a comment\n" + SOLVED3 + "\n").encode())
    assert result.returncode == 0 and result.stdout == b"already solved\n"
    result = _cubebot(["solve", "-"], stdin=b"\xff\xfe\x00")
    assert result.returncode == 2 and result.stderr.count(b"\n") == 1


def test_no_color_and_dumb_terminals_get_no_ansi():
    from cubebot.robot.ui.netview import color_wanted

    class Tty(object):
        def isatty(self):
            return True
    assert color_wanted(Tty(), environ={})
    assert not color_wanted(Tty(), environ={"NO_COLOR": "1"})
    assert not color_wanted(Tty(), environ={"TERM": "dumb"})
    assert color_wanted(Tty(), environ={"NO_COLOR": ""})          # empty means unset (no-color.org)
    assert not color_wanted(object(), environ={})


def test_virtual_brick_commands_do_not_print_ev3dev2_import_warnings():
    result = _cubebot(["diag", "--virtual-brick", "--quick"])
    err = result.stderr.decode()
    assert "Failed to import" not in err and "Import warning" not in err
    assert b"cubebot diag" in result.stdout


@pytest.fixture
def read_only_dir(tmp_path):
    """A read-only file system (a tmpfs mounted ro): refused even to root. Skips where
    mounting is not allowed."""
    path = tmp_path / "ro"
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a read-only tmpfs here")
    yield str(path)
    subprocess.run(["umount", str(path)])


@pytest.mark.parametrize("args,env", [
    (["run", "--sim", "--runs", "1", "--log-file", "{ro}/cubebot.log"], {}),
    (["run", "--sim", "--runs", "1"], {"HOME": "{ro}"}),
    (["run", "--sim", "--runs", "1", "--screenshots", "{ro}/shots"], {}),
    (["calibrate", "--sim", "--output", "{ro}"], {}),
    (["calibrate-colors", "{scan}", "--output", "{ro}/profile.json"], {}),
    (["demo", "--virtual-brick", "--screenshots", "{ro}"], {}),
    (["tables", "build", "--size", "2"], {"CUBEBOT_TABLES": "{ro}"}),
])
def test_read_only_outputs_are_refused_before_any_work(args, env, read_only_dir, files):
    names = dict(files, ro=read_only_dir)
    result = _cubebot([a.format(**names) for a in args], env=dict((k, v.format(**names)) for k, v in env.items()))
    err = result.stderr.decode()
    assert result.returncode == 2 and "Read-only file system" in err and err.count("\n") == 1, err
    assert result.stdout == b""                    # nothing ran (calibrate would print its checks)


def test_demo_with_a_missing_table_is_one_line_on_stderr_and_nothing_on_stdout(files):
    result = _cubebot(["demo", "--size", "2", "--seed", "1"], env={"CUBEBOT_TABLES": files["missing"]})
    err = result.stderr.decode()
    assert result.returncode == 2 and err.count("\n") == 1 and "cubebot tables build" in err, err
    assert result.stdout == b""


def test_demo_without_a_seed_solves_a_random_cube_and_says_which():
    runs = [json.loads(_cubebot(["demo", "--size", "2", "--json"]).stdout) for _ in range(2)]
    assert all(r["solved"] for r in runs)
    assert runs[0]["seed"] != runs[1]["seed"] and runs[0]["state"] != runs[1]["state"]
    again = json.loads(_cubebot(["demo", "--size", "2", "--json", "--seed", str(runs[0]["seed"])]).stdout)
    assert again["state"] == runs[0]["state"] and again["moves"] == runs[0]["moves"]


def test_tables_without_a_manifest_or_folder_are_one_line(tmp_path):
    from cubebot.solver import store
    copy = tmp_path / "tables"
    copy.mkdir()
    source = store.tables_dir()
    for name in store.table_files(source)[:3]:
        (copy / name).write_bytes(b"")
    result = _cubebot(["tables", "verify"], env={"CUBEBOT_TABLES": str(copy)})
    assert result.returncode == 2
    assert result.stderr.decode() == ("cubebot: error: 3 table files in {} but no manifest.json to check them "
                                      "against: run `cubebot tables build`\n".format(copy))
    missing = tmp_path / "nowhere"
    result = _cubebot(["tables", "verify"], env={"CUBEBOT_TABLES": str(missing)})
    assert result.returncode == 2
    assert result.stderr.decode() == (
        "cubebot: error: tables folder {} does not exist: run `cubebot tables build`\n".format(missing))
    diag = _cubebot(["diag", "--sim", "--quick"], env={"CUBEBOT_TABLES": str(copy)})
    assert "WARN  tables     3 table files in" in diag.stdout.decode()
