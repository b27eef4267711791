"""deploy.sh and systemd/cubebot.service, against a real OpenSSH server on 127.0.0.1.

The brick is played by this machine: sshd runs on a spare loopback port, deploy.sh
logs in with a generated key (strict host key checking) and installs into a temporary
home (`--home`), with this Python as the brick's python3. systemctl is pointed at a
missing file, so the service step must be skipped and say so. The deployed tree is a
copy of this checkout with small tables of its own and their manifest: two 2x2x2
tables (the demo's size, sent by default) and one 4x4x4 table (sent with --sizes).
"""

import configparser
import getpass
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys

import pytest

from cubebot.solver import catalog, store

from .sshd_server import SSHD, SshServer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UNIT = os.path.join(ROOT, "systemd", "cubebot.service")
DEPLOYED = ["cubebot", "robot", "solver", "systemd", "deploy", "setup.py", "deploy.sh", "tables/__init__.py"]
ALPHA, BETA, GAMMA = "2x2-alpha.bin", "2x2-beta.bin", "4x4-gamma.bin"
TABLE_SIZES = {ALPHA: 150000, BETA: 4096, GAMMA: 8192}
DEMO_SIZES = (2, 3)      # what deploy.sh sends without --sizes
DIAG_FAULTS = 3          # deploy.sh's exit code when diag ran and reported faults
SEED = 5
SYSTEMD_ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"


def sha256(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def write_tables(tables_dir, seed=SEED):
    """Deterministic table files and their manifest, written by the solver's own manifest writer."""
    os.makedirs(tables_dir, exist_ok=True)
    rng = random.Random(seed)
    entries = {}
    for name in sorted(TABLE_SIZES):
        data = bytes(rng.getrandbits(8) for _ in range(TABLE_SIZES[name]))
        with open(os.path.join(tables_dir, name), "wb") as fh:
            fh.write(data)
        entries[name[:-len(".bin")]] = {"file": name, "format_version": 1, "size": len(data),
                                        "sha256": hashlib.sha256(data).hexdigest()}
    store.save_manifest(entries, tables_dir)
    return entries


@pytest.fixture
def source(tmp_path):
    """A copy of the checkout's deployable files with its own small tables."""
    src = tmp_path / "src"
    src.mkdir()
    for name in DEPLOYED:
        path = os.path.join(ROOT, name)
        if os.path.isdir(path):
            shutil.copytree(path, str(src / name), ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.bin"))
        else:
            os.makedirs(os.path.dirname(str(src / name)), exist_ok=True)
            shutil.copy2(path, str(src / name))
    write_tables(str(src / "tables"))
    return src


@pytest.fixture(scope="module")
def sshd(tmp_path_factory):
    if not os.path.exists(SSHD):
        pytest.skip("{} not found: install openssh-server (tests/run.sh does as root)".format(SSHD))
    server = SshServer(str(tmp_path_factory.mktemp("sshd")))
    yield server
    server.stop()


def deploy(source, *args, env=None):
    """Run source/deploy.sh with args; (exit code, stdout + stderr)."""
    full_env = dict(os.environ, CUBEBOT_LOCAL_PYTHON=sys.executable, CUBEBOT_SYSTEMCTL="/nonexistent/systemctl")
    full_env.update(env or {})
    proc = subprocess.run(["bash", str(source / "deploy.sh")] + list(args), stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                          env=full_env, cwd="/")         # deploy.sh works from anywhere
    return proc.returncode, proc.stdout


def deploy_to(sshd, source, home, *extra):
    return deploy(source, "-p", str(sshd.port), "-i", sshd.user_key, "--home", str(home),
                  "--python", sys.executable, *extra, sshd.target, env={"SSH_OPTS": sshd.ssh_opts()})


def assert_arrived(source, home, sizes=DEMO_SIZES):
    """The tables of `sizes` and every code file arrived intact, the other tables stayed
    here; the launcher runs the deployed code."""
    app = home / "cubebot"
    manifest = store.load_manifest(str(app / "tables"))
    assert manifest == store.load_manifest(str(source / "tables"))
    assert sorted(e["file"] for e in manifest.values()) == sorted(TABLE_SIZES)
    for entry in manifest.values():
        path = app / "tables" / entry["file"]
        if int(entry["file"].split("x")[0]) not in sizes:
            assert not path.exists(), entry["file"]
            continue
        assert path.stat().st_size == entry["size"]
        assert sha256(str(path)) == entry["sha256"]
    for rel in ["robot/cli/main.py", "solver/moves.py", "systemd/cubebot.service", "deploy/brick.sh", "setup.py"]:
        assert sha256(str(app / rel)) == sha256(str(source / rel)), rel
    assert not (home / "cubebot.new").exists()
    launcher = home / "bin" / "cubebot"
    assert os.access(str(launcher), os.X_OK)
    out = subprocess.run([str(launcher), "--version"], stdout=subprocess.PIPE, universal_newlines=True,
                         check=True, cwd="/").stdout
    assert out.startswith("cubebot ")


def test_deploy_over_ssh_delivers_code_and_tables(sshd, source, tmp_path):
    home = tmp_path / "brick-home"
    rc, out = deploy_to(sshd, source, home)
    # this machine is no brick: diag may well find faults, and must say so
    assert rc == 0 or (rc == DIAG_FAULTS and "cubebot diag reported faults" in out), out
    assert "SKIPPED: this version of cubebot has no 'diag'" not in out
    assert_arrived(source, home)
    assert "ok 2x2-alpha.bin 150000 bytes" in out      # checked on arrival, on the brick side
    assert "gamma" not in out                           # the 4x4x4 table is neither sent nor checked
    assert re.search(r"copied and checked in \d+ s", out)
    assert "python packages present: kociemba (compiled), pyserial" in out
    assert "SKIPPED: no systemd on the target" in out
    # Nothing was written to the ssh user's real home.
    assert not os.path.exists(os.path.expanduser("~/cubebot.new"))


def test_deploy_twice_is_idempotent_and_repairs_a_damaged_table(sshd, source, tmp_path):
    home = tmp_path / "brick-home"
    rc, first = deploy_to(sshd, source, home, "--no-diag")
    assert rc == 0, first
    rc, second = deploy_to(sshd, source, home, "--no-diag")
    assert rc == 0, second
    assert "not sending them again" in second
    assert "launcher {} unchanged".format(home / "bin" / "cubebot") in second
    assert_arrived(source, home)
    assert (home / "cubebot.old" / "tables" / ALPHA).exists()

    damaged = home / "cubebot" / "tables" / BETA
    os.unlink(str(damaged))                     # the hard link is shared with cubebot.old
    damaged.write_bytes(b"\0" * TABLE_SIZES[BETA])
    rc, third = deploy_to(sshd, source, home, "--no-diag")
    assert rc == 0, third
    assert "not sending them again" not in third
    assert_arrived(source, home)


FAKE_SYSTEMCTL = """#!/bin/sh
# stands in for systemctl: logs its arguments
echo "$*" >> "{log}"
if [ "$1" = is-active ]; then echo active; fi
"""


def systemd_analyze_verify(unit_text, tmp_path):
    """systemd-analyze verify on a copy whose brick-only parts exist here; its output."""
    text = unit_text.replace("/usr/bin/brickrun", shutil.which("env"))
    text = re.sub(r"(?m)^User=robot$", "User=" + getpass.getuser(), text)
    copy = tmp_path / "verify" / "cubebot.service"
    copy.parent.mkdir(exist_ok=True)
    copy.write_text(text)
    proc = subprocess.run([SYSTEMD_ANALYZE, "verify", str(copy)], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    return proc.returncode, proc.stdout


@pytest.mark.skipif(os.geteuid() != 0, reason="the service step runs as root (or through sudo)")
def test_sizes_sends_only_the_tables_asked_for_and_adds_them_later(sshd, source, tmp_path):
    home = tmp_path / "brick-home"
    rc, out = deploy_to(sshd, source, home, "--no-diag", "--sizes", "2")
    assert rc == 0, out
    assert "2 table files, sizes 2" in out
    assert_arrived(source, home, sizes=(2,))
    rc, out = deploy_to(sshd, source, home, "--no-diag", "--sizes", "2,4")
    assert rc == 0, out
    with_needed = ",".join(str(n) for n in sorted({2, 4} | set(catalog.NEEDS.get(4, ()))))
    assert "1 table files" not in out and "3 table files, sizes {}".format(with_needed) in out
    assert "ok {} 8192 bytes".format(GAMMA) in out
    assert_arrived(source, home, sizes=(2, 4))
    rc, out = deploy_to(sshd, source, home, "--no-diag", "--sizes", "2,4")
    assert rc == 0 and "not sending them again" in out, out
    assert_arrived(source, home, sizes=(2, 4))


def test_service_step_installs_enables_and_restarts_the_unit(sshd, source, tmp_path):
    home = tmp_path / "brick-home"
    units = tmp_path / "units"
    units.mkdir()
    log = tmp_path / "systemctl.log"
    systemctl = tmp_path / "systemctl"
    systemctl.write_text(FAKE_SYSTEMCTL.format(log=log))
    systemctl.chmod(0o755)
    env = {"CUBEBOT_SYSTEMCTL": str(systemctl), "CUBEBOT_UNIT_DIR": str(units), "SSH_OPTS": sshd.ssh_opts()}
    args = ["-p", str(sshd.port), "-i", sshd.user_key, "--home", str(home), "--python", sys.executable]
    rc, out = deploy(source, *args, sshd.target, env=env)
    assert rc in (0, DIAG_FAULTS), out
    # The app is stopped while diag runs, and started again after it.
    assert log.read_text().splitlines() == ["daemon-reload", "enable --quiet cubebot.service",
                                            "stop cubebot.service", "is-active cubebot.service",
                                            "start cubebot.service", "is-active cubebot.service"]
    unit = (units / "cubebot.service").read_text()
    assert "User={}\n".format(getpass.getuser()) in unit
    assert "WorkingDirectory={}/cubebot\n".format(home) in unit
    assert "Environment=PYTHONPATH={}/cubebot\n".format(home) in unit
    assert "ExecStart=/usr/bin/brickrun -r -- {} -m cubebot run $CUBEBOT_RUN_ARGS\n".format(sys.executable) in unit
    assert "/home/robot" not in unit
    if os.path.exists(SYSTEMD_ANALYZE):
        assert systemd_analyze_verify(unit, tmp_path) == (0, "")

    log.write_text("")
    rc, out = deploy(source, *args, "--no-diag", sshd.target, env=env)
    assert rc == 0, out
    assert "unit {} unchanged".format(units / "cubebot.service") in out
    assert log.read_text().splitlines() == ["enable --quiet cubebot.service", "restart cubebot.service",
                                            "is-active cubebot.service"]


def brick_sh(home, *args):
    """deploy/brick.sh run directly (no SSH), with home as CUBEBOT_HOME; (exit code, output)."""
    env = dict(os.environ, CUBEBOT_HOME=str(home), CUBEBOT_PYTHON=sys.executable)
    proc = subprocess.run(["sh", os.path.join(ROOT, "deploy", "brick.sh")] + list(args), env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    return proc.returncode, proc.stdout


def test_a_damaged_upload_leaves_the_installed_version_untouched(source, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    shutil.copytree(str(source), str(home / "cubebot.new"))
    assert brick_sh(home, "activate")[0] == 0
    installed = sha256(str(home / "cubebot" / "tables" / ALPHA))
    shutil.copytree(str(source), str(home / "cubebot.new"))
    with open(str(home / "cubebot.new" / "tables" / ALPHA), "r+b") as fh:
        fh.seek(1000)
        fh.write(b"\xff\x00")                          # same size, wrong bytes
    (home / "cubebot.new" / "robot" / "marker.py").write_text("")
    rc, out = brick_sh(home, "activate")
    assert rc == 1
    assert "bad {}: sha256".format(ALPHA) in out and "the installed version is untouched" in out
    assert sha256(str(home / "cubebot" / "tables" / ALPHA)) == installed
    assert not (home / "cubebot" / "robot" / "marker.py").exists()


def test_brick_sh_usage_and_missing_upload(tmp_path):
    rc, out = brick_sh(tmp_path, "frobnicate")
    assert rc == 1 and "usage: brick.sh" in out
    rc, out = brick_sh(tmp_path, "activate")
    assert rc == 1 and "nothing uploaded at {}/cubebot.new".format(tmp_path) in out


def test_deploy_refuses_a_host_without_the_key(sshd, source, tmp_path):
    stranger = tmp_path / "stranger_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(stranger)], check=True)
    rc, out = deploy(source, "-p", str(sshd.port), "-i", str(stranger), "--home", str(tmp_path / "h"),
                     "--python", sys.executable, sshd.target, env={"SSH_OPTS": sshd.ssh_opts()})
    assert rc == 1
    assert "ssh-copy-id" in out
    assert not (tmp_path / "h").exists()


def test_dry_run_prints_every_step_and_does_nothing(source, tmp_path):
    os.unlink(str(source / "tables" / BETA))          # a missing table: a real run would build it
    before = sorted(p.relative_to(source).as_posix() for p in source.rglob("*"))
    rc, out = deploy(source, "--dry-run", "nobody@host.invalid")
    assert rc == 0, out
    assert "DRY RUN" in out
    for number in range(1, 6):
        assert "== {}/5 ".format(number) in out
    for command in ["-m cubebot tables build --size N", "--sizes 2,3", "sh -s -- probe", "tar -C", "-czf -",
                    "brick.sh activate",
                    "brick.sh deps", "brick.sh service stop", "brick.sh diag", "brick.sh service start",
                    "BatchMode=yes", "nobody@host.invalid"]:
        assert command in out, command
    after = sorted(p.relative_to(source).as_posix() for p in source.rglob("*"))
    assert after == before


def test_usage_errors_are_one_line_and_exit_2(source):
    rc, out = deploy(source, "--port", "twenty-two")
    assert rc == 2
    assert out.strip().count("\n") == 0 and "port must be a number" in out
    rc, out = deploy(source, "--frobnicate")
    assert rc == 2 and "unknown option --frobnicate" in out
    rc, out = deploy(source, "--sizes", "2,x")
    assert rc == 2 and out.strip().count("\n") == 0 and "--sizes takes cube sizes" in out


def test_default_target_and_help(source):
    rc, out = deploy(source, "--help")
    assert rc == 0
    assert "robot@ev3dev.local" in out and "--dry-run" in out
    rc, out = deploy(source, "--dry-run")
    assert rc == 0 and "robot@ev3dev.local" in out


def unit_sections():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(UNIT)
    return parser


def test_unit_runs_the_app_through_brickrun_as_robot():
    unit = unit_sections()
    service = unit["Service"]
    assert service["User"] == "robot"
    assert service["Restart"] == "on-failure"
    exec_start = service["ExecStart"].split()
    assert exec_start[0] == "/usr/bin/brickrun"
    assert exec_start[1:3] == ["-r", "--"]          # output to the journal; the app's own args follow --
    assert exec_start[-4:] == ["-m", "cubebot", "run", "$CUBEBOT_RUN_ARGS"]    # options from a drop-in
    assert all(os.path.isabs(word) for word in exec_start if "/" in word)
    assert os.path.isabs(service["WorkingDirectory"])
    assert "console-runner@tty5.service" in unit["Unit"]["After"]
    assert int(unit["Unit"]["StartLimitBurst"]) >= 2
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_systemd_analyze_verify_passes(tmp_path):
    if not os.path.exists(SYSTEMD_ANALYZE):
        pytest.skip("systemd-analyze not installed")
    # brickrun and the robot user exist only on the brick: they are swapped for ones that exist here.
    # verify exits 0 on unknown keys and bad values too: it must print nothing at all.
    assert systemd_analyze_verify(open(UNIT).read(), tmp_path) == (0, "")


def test_systemd_analyze_verify_catches_a_broken_copy(tmp_path):
    if not os.path.exists(SYSTEMD_ANALYZE):
        pytest.skip("systemd-analyze not installed")
    text = open(UNIT).read().replace("Restart=on-failure", "Restart=sometimes")
    copy = tmp_path / "cubebot.service"
    copy.write_text(text)
    proc = subprocess.run([SYSTEMD_ANALYZE, "verify", str(copy)], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    assert "sometimes" in proc.stdout
