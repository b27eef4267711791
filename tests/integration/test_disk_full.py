"""A disk that fills up during the work: one named line, exit 1, no half-written file.

Each test runs the real command on a real, small tmpfs (mounting needs root, as CI runs;
elsewhere these tests skip), filled to the brim where the output is small. A folder that
cannot be written at all (a read-only mount) stays bad input: exit 2, before any work.
"""

import contextlib
import os
import subprocess
import sys

import pytest

from cubebot.solver.facelets import solved
from cubebot.solver.scramble import random_state

FILL_CHUNK = 4096
TABLES_FS_KB = 256            # far less than the 2x2x2 tables (about 900 KB each)


@contextlib.contextmanager
def _tmpfs(where, size_kb, read_only=False):
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    where.mkdir()
    options = "size={}k".format(size_kb) + (",ro" if read_only else "")
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


def _fill(folder):
    """Fill the filesystem of `folder` to the last byte (a filler file)."""
    with open(os.path.join(str(folder), "filler"), "wb", buffering=0) as fh:
        while True:
            try:
                fh.write(b"\0" * FILL_CHUNK)
            except OSError:
                break
        for size in (512, 64, 8, 1):
            while True:
                try:
                    fh.write(b"\0" * size)
                except OSError:
                    break


def _cubebot(args, env=None, stdin=None, stdout=subprocess.PIPE):
    return subprocess.run([sys.executable, "-m", "cubebot"] + list(args), input=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=600,
                          env=dict(os.environ, **(env or {})))


def _one_fault_line(proc, *words):
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    faults = [line for line in proc.stderr.splitlines() if line.startswith("cubebot")]
    assert len(faults) == 1, proc.stderr
    for word in words + ("No space left on device",):
        assert word in faults[0], faults[0]


def _leftovers(folder):
    return sorted(name for name in os.listdir(str(folder)) if ".tmp" in name)


def test_tables_build_on_a_full_disk(tmp_path):
    with _tmpfs(tmp_path / "fs", TABLES_FS_KB) as fs:
        proc = _cubebot(["tables", "build", "--size", "2"], env={"CUBEBOT_TABLES": str(fs)})
        _one_fault_line(proc, str(fs))
        assert _leftovers(fs) == []
        assert [name for name in os.listdir(str(fs)) if name.endswith(".bin")] == []


def test_tables_build_into_a_read_only_folder_is_refused_before_work(tmp_path):
    with _tmpfs(tmp_path / "ro", 64, read_only=True) as fs:
        proc = _cubebot(["tables", "build", "--size", "2"], env={"CUBEBOT_TABLES": str(fs)})
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "cannot write" in proc.stderr, proc.stderr
    assert "building" not in proc.stderr                  # refused before any table was built


def test_calibration_save_on_a_full_disk_keeps_the_old_files(tmp_path):
    with _tmpfs(tmp_path / "fs", 64) as fs:
        config, profile = fs / "config.json", fs / "profile.json"
        config.write_text('{"settle_s": 0.05}\n')
        profile.write_text("old profile\n")
        _fill(fs)
        proc = _cubebot(["calibrate", "--sim", "--config", str(config), "--profile", str(profile)])
        _one_fault_line(proc)
        assert profile.read_text() == "old profile\n"
        assert config.read_text() == '{"settle_s": 0.05}\n'
        assert _leftovers(fs) == []


def test_colour_profile_save_on_a_full_disk(tmp_path):
    import json
    from cubebot.robot.colour.scanfile import dump_scan
    from tests.robot.colors_support import scan_of
    scan = tmp_path / "solved.json"
    scan.write_text(json.dumps(dump_scan(scan_of(solved(3), 3, 14, "low", samples=3), 3)))
    with _tmpfs(tmp_path / "fs", 64) as fs:
        _fill(fs)
        proc = _cubebot(["calibrate-colors", str(scan), "--output", str(fs / "profile.json")])
        _one_fault_line(proc, "profile.json")
        assert not (fs / "profile.json").exists() and _leftovers(fs) == []


def test_batch_output_on_a_full_disk(tmp_path):
    import random
    rng = random.Random(3)
    batch = tmp_path / "batch.txt"
    batch.write_text("".join(random_state(3, rng) + "\n" for _ in range(3)))
    with _tmpfs(tmp_path / "fs", 64) as fs:
        _fill(fs)
        with open(str(fs / "out.jsonl"), "w") as out:
            proc = _cubebot(["solve", "--batch", str(batch)], stdout=out)
        _one_fault_line(proc, "batch output")
        assert "cannot read batch file" not in proc.stderr
