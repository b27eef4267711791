"""kociemba's pure-Python fallback: detected, refused where it cannot fit, bounded elsewhere.

The fallback is made real: a copy of the installed kociemba package whose compiled part is not
a loadable library comes first on PYTHONPATH, so `import kociemba` fails to load it exactly as
it does on a machine where the extension cannot load, and falls back.
"""

import json
import os
import resource
import shutil
import subprocess
import sys

import pytest

from cubebot.solver import moves, scramble
from cubebot.solver.errors import CubeError
from .cubes import check_solves, seeded

N = 3
AS_LIMIT_MB = 64              # a solve's memory bound here: room for cubebot, not for the fallback's tables
MB = 1024 * 1024


@pytest.fixture(scope="module")
def broken_kociemba(tmp_path_factory):
    """PYTHONPATH entry holding kociemba with an extension that cannot load."""
    import kociemba
    source = os.path.dirname(kociemba.__file__)
    root = tmp_path_factory.mktemp("broken-kociemba")
    target = root / "kociemba"
    shutil.copytree(source, str(target), ignore=shutil.ignore_patterns("__pycache__"))
    broken = [name for name in os.listdir(str(target)) if name.startswith("ckociembawrapper")
              and not name.endswith(".py")]
    assert broken, os.listdir(str(target))
    for name in broken:
        (target / name).write_bytes(b"not a shared library\n")
    return str(root)


def _run(args, pythonpath, limit_mb=None, stdin=None, code=None):
    env = dict(os.environ, PYTHONPATH=pythonpath)

    def limit():
        if limit_mb is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit_mb * MB, resource.RLIM_INFINITY))
    cmd = [sys.executable, "-c", code] if code else [sys.executable, "-m", "cubebot"]
    return subprocess.run(cmd + list(args), env=env, preexec_fn=limit, input=stdin,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=600)


def _state(seed=7):
    return scramble.random_state(N, seeded(seed))


def test_fallback_under_a_memory_limit_is_refused_in_one_line(broken_kociemba):
    proc = _run(["solve", "--budget", "1", _state()], broken_kociemba, limit_mb=AS_LIMIT_MB)
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "pure-Python" in lines[0] and "refused" in lines[0], proc.stderr
    assert "compiled part did not load" in lines[0] and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_fallback_elsewhere_solves_warns_and_keeps_stdout_clean(broken_kociemba):
    state = _state()
    proc = _run(["solve", "--json", state], broken_kociemba)
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
    found = json.loads(proc.stdout)                  # the whole of stdout is the JSON object
    check_solves(state, moves.parse(" ".join(found["moves"])))
    assert "pure-Python" in proc.stderr and "slow" in proc.stderr, proc.stderr


def test_batch_output_stays_json_lines_on_the_fallback(broken_kociemba):
    states = [_state(s) for s in (1, 2)]
    proc = _run(["solve", "--batch", "-"], broken_kociemba, stdin="\n".join(states) + "\n")
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stdout.splitlines()
    assert len(lines) == len(states)
    for line, state in zip(lines, states):
        obj = json.loads(line)
        assert obj["state"] == state
        check_solves(state, moves.parse(" ".join(obj["moves"])))


def test_diag_names_the_kociemba_in_use(broken_kociemba):
    here = _run(["diag", "--sim", "--quick"], os.environ.get("PYTHONPATH", ""))
    fallback = _run(["diag", "--sim", "--quick"], broken_kociemba)
    line = [x for x in here.stdout.splitlines() if " kociemba " in x]
    assert len(line) == 1 and "compiled" in line[0], here.stdout
    line = [x for x in fallback.stdout.splitlines() if " kociemba " in x]
    assert len(line) == 1 and "pure-Python" in line[0], fallback.stdout


BOUNDED = """
import sys
from cubebot.solver.kociemba_load import BoundedFallback, probe
from cubebot.solver.errors import SolverFailed
assert probe()[0] == "pure-Python", probe()
try:
    BoundedFallback(timeout_s=float(sys.argv[2])).solve(sys.argv[1])
except SolverFailed as exc:
    print(exc)
    sys.exit(1)
print("answered")
"""


def test_a_pure_python_solve_is_bounded_in_time(broken_kociemba):
    # the child's import of the fallback's tables alone takes far longer than 0.05 s
    proc = _run([_state(), "0.05"], broken_kociemba, code=BOUNDED)
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert "found no answer within 0.05 s" in proc.stdout, proc.stdout
    assert _run([_state(), "120"], broken_kociemba, code=BOUNDED).stdout.strip() == "answered"


def test_the_brick_s_free_memory_refuses_the_fallback(tmp_path, monkeypatch):
    from cubebot.solver import kociemba_load
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:  58000 kB\nMemFree:  20000 kB\nMemAvailable:  30720 kB\n")
    monkeypatch.setitem(kociemba_load._probed, "result", (kociemba_load.PURE_PYTHON, "test"))
    with pytest.raises(CubeError) as info:
        kociemba_load.solver(meminfo=str(meminfo))
    assert "30 MB" in str(info.value) and "MemAvailable" in str(info.value), str(info.value)
