"""bench/arm_memory.py: the guest-memory count, the setup steps and the argument checks.

The chroot itself (debootstrap, qemu) needs root and minutes, so it is not built here; a dry
run shows every command the script would run."""

import os

from bench import arm_memory

BASE = arm_memory.GUEST_BASE
SMAPS = """\
{lo:x}-{lo2:x} r-xp 00000000 08:01 42  /usr/bin/qemu-arm-static
Rss:                5000 kB
Pss:                5000 kB
{g1:x}-{g2:x} rw-p 00000000 00:00 0
Size:               8192 kB
Rss:                1200 kB
Pss:                 800 kB
{g3:x}-{g4:x} r--p 00000000 08:01 43  /usr/lib/arm-linux-gnueabi/libc.so.6
Rss:                 300 kB
Pss:                 100 kB
{hi:x}-{hi2:x} rw-p 00000000 00:00 0  [heap]
Rss:                9000 kB
Pss:                9000 kB
""".format(lo=0x400000, lo2=0x500000, g1=BASE + 0x10000, g2=BASE + 0x810000, g3=BASE + 0xff000000,
           g4=BASE + 0xff100000, hi=BASE + (1 << 32), hi2=BASE + (1 << 32) + 0x1000)


def test_only_mappings_inside_the_guest_space_count():
    assert arm_memory.guest_kb(SMAPS) == (1200 + 300, 800 + 100)
    assert arm_memory.guest_kb(SMAPS, base=0) == (5000, 5000)


def test_a_dry_setup_prints_every_step_and_writes_nothing(tmp_path, capsys):
    root = tmp_path / "armel"
    assert arm_memory.main(["--root", str(root), "--dry-run", "setup"]) == 0
    out = capsys.readouterr().out
    for step in ("update-binfmts --enable qemu-arm", "debootstrap --arch=armel --foreign",
                 "/debootstrap/debootstrap --second-stage", "apt-get install", "python3-dev", "update-ca-certificates",
                 "python3 -m venv --system-site-packages /opt/venv", "/opt/venv/bin/pip install -q -e",
                 "/opt/venv/bin/pip install -q pytest"):
        assert step in out, step
    assert out.index("--foreign") < out.index("--second-stage") < out.index("apt-get") < out.index("pip install")
    assert not root.exists()


def test_a_dry_measure_runs_the_command_under_time_in_the_chroot(tmp_path, capsys):
    tables = tmp_path / "tables"
    tables.mkdir()
    argv = ["--root", str(tmp_path / "r"), "--tables", str(tables), "--dry-run", "measure", "--",
            "python", "-m", "cubebot", "solve", "UUUU"]
    assert arm_memory.main(argv) == 0
    out = capsys.readouterr().out
    assert "QEMU_CPU=arm926" in out and "QEMU_GUEST_BASE=0x100000000" in out
    assert out.rstrip().endswith("/usr/bin/time -v python -m cubebot solve UUUU")
    assert str(tables) in out and "CUBEBOT_TABLES=/tables" in out


def test_bad_arguments_exit_2_with_one_line(tmp_path, capsys):
    cases = (["--dry-run", "measure"], ["--dry-run", "setup", "ls"], ["--root", "/", "--dry-run", "setup"],
             ["--tables", str(tmp_path / "none"), "--dry-run", "run", "ls"])
    for argv in cases:
        assert arm_memory.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("arm_memory: ") and err.count("\n") == 1, (argv, err)


def test_a_real_run_needs_the_chroot(tmp_path, capsys):
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        assert arm_memory.main(["--root", str(tmp_path), "run", "ls"]) == 2
        assert "root" in capsys.readouterr().err
    else:
        assert arm_memory.main(["--root", str(tmp_path), "run", "ls"]) == 2
        assert "arm_memory.py setup" in capsys.readouterr().err


def test_the_mirror_is_read_from_the_hosts_apt_sources(tmp_path):
    one_line = tmp_path / "sources.list"
    one_line.write_text("# a comment\ndeb [arch=amd64] http://mirror.example/debian bookworm main\n")
    assert arm_memory.host_mirror([str(one_line)]) == "http://mirror.example/debian"
    folder = tmp_path / "sources.list.d"
    folder.mkdir()
    (folder / "debian.sources").write_text("Types: deb\nURIs: http://other.example/debian\nSuites: bookworm\n")
    assert arm_memory.host_mirror([str(tmp_path / "missing"), str(folder)]) == "http://other.example/debian"
    assert arm_memory.host_mirror([str(tmp_path / "missing")]) is None
