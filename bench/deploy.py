"""Time deploy.sh against a real OpenSSH server on 127.0.0.1 (this machine plays the brick).

Deploys a copy of this checkout with its real tables (from where the project finds them,
$CUBEBOT_TABLES included; built first if they do not verify) into a
temporary home, three times: the first deploy (everything sent), an unchanged redeploy
(tables reused), and a redeploy after one table was damaged on the "brick" (that table
set is sent again). Prints and records the wall-clock seconds (median of RUNS) and the
bytes deploy.sh reports sending for each, and the dry run. No randomness: nothing to seed.
Needs /usr/sbin/sshd (openssh-server). Usage: python bench/deploy.py
"""

import datetime
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.record import record  # noqa: E402
from tests.integration.sshd_server import SshServer  # noqa: E402

DEPLOYED = ["robot", "solver", "systemd", "deploy", "setup.py", "deploy.sh"]
RUNS = 3         # repetitions of each case; the median is reported


def checkout_copy(dest, tables):
    """The deployable part of the checkout, with the real tables of the folder `tables`."""
    os.makedirs(dest)
    for name in DEPLOYED:
        path = os.path.join(ROOT, name)
        if os.path.isdir(path):
            shutil.copytree(path, os.path.join(dest, name), ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, os.path.join(dest, name))
    shutil.copytree(os.path.join(ROOT, "tables"), os.path.join(dest, "tables"),
                    ignore=shutil.ignore_patterns("*.tmp", "*.sorted", "*.bin"))
    for name in sorted(os.listdir(tables)):
        if name.endswith(".bin"):
            shutil.copy2(os.path.join(tables, name), os.path.join(dest, "tables", name))


def deploy(src, server, home, *extra):
    env = dict(os.environ, CUBEBOT_LOCAL_PYTHON=sys.executable, CUBEBOT_SYSTEMCTL="/nonexistent/systemctl",
               SSH_OPTS=server.ssh_opts())
    env.pop("CUBEBOT_TABLES", None)             # deploy.sh checks and sends the copy's own tables
    start = time.perf_counter()
    proc = subprocess.run(["bash", os.path.join(src, "deploy.sh"), "-p", str(server.port), "-i", server.user_key,
                           "--home", home, "--python", sys.executable, "--no-diag"] + list(extra) + [server.target],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, env=env)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit("deploy failed:\n" + proc.stdout)
    sent = [line.strip() for line in proc.stdout.splitlines() if line.strip().startswith("sending ")]
    return seconds, (sent[0][len("sending "):] if sent else "")


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def main():
    verify = [sys.executable, "-m", "cubebot", "tables", "verify"]
    if subprocess.run(verify, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
        subprocess.run([sys.executable, "-m", "cubebot", "tables", "build"], cwd=ROOT, check=True)
    from cubebot.solver.store import tables_dir
    tables = tables_dir()                       # where the project finds them ($CUBEBOT_TABLES too)
    table_bytes = sum(os.path.getsize(os.path.join(tables, n)) for n in os.listdir(tables) if n.endswith(".bin"))
    load_before = os.getloadavg()[0]
    work = tempfile.mkdtemp(prefix="bench-deploy-")
    server = SshServer(os.path.join(work, "sshd"))
    try:
        src = os.path.join(work, "src")
        checkout_copy(src, tables)
        cases = {"first deploy (code + tables sent)": [], "redeploy, nothing changed (tables reused)": [],
                 "redeploy after a damaged table on the brick": []}
        notes = {}
        for run in range(RUNS):
            home = os.path.join(work, "home{}".format(run))
            names = list(cases)
            seconds, sent = deploy(src, server, home)
            cases[names[0]].append(seconds)
            notes[names[0]] = sent
            seconds, sent = deploy(src, server, home)
            cases[names[1]].append(seconds)
            notes[names[1]] = sent
            damaged = os.path.join(home, "cubebot", "tables", "2x2-htm.bin")
            os.unlink(damaged)
            with open(damaged, "wb") as fh:
                fh.write(b"\0" * 16)
            seconds, sent = deploy(src, server, home)
            cases[names[2]].append(seconds)
            notes[names[2]] = sent
        start = time.perf_counter()
        subprocess.run(["bash", os.path.join(src, "deploy.sh"), "--dry-run"], stdout=subprocess.DEVNULL, check=True)
        dry = time.perf_counter() - start
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    lines = ["Measured {} on this machine ({}, Python {}), OpenSSH sshd on 127.0.0.1 as the brick, "
             "real tables ({:.2f} MB), `--no-diag`, service step skipped (no systemd); median of {} runs. "
             "`python bench/deploy.py`.".format(datetime.date.today().isoformat(), platform.machine(),
                                                platform.python_version(), table_bytes / 1e6, RUNS),
             "", "| case | seconds | sent |", "|---|---|---|"]
    for name, values in cases.items():
        lines.append("| {} | {:.2f} | {} |".format(name, median(values), notes[name]))
    lines.append("| `--dry-run` (no connection) | {:.2f} | nothing |".format(dry))
    lines += ["", "deploy.sh opens one SSH connection and runs 3 to 5 sessions over it (probe, upload + check, "
              "install; service and diag when there is systemd and diag is wanted); the tables are sent only "
              "when the brick's copy does not verify. Load average (1 min) {:.1f} before, {:.1f} after, on {} "
              "CPUs shared with other jobs.".format(load_before, os.getloadavg()[0], os.cpu_count()),
              "", "On the brick expect far more (not measured here): every python3 start there costs about 2 s "
              "(docs/references.md, from ev3dev issue 937) and deploy.sh starts about five of them (probe, check on "
              "arrival, package check with kociemba's warm-up, compileall, diag); the first deploy compiles "
              "kociemba's C extension (minutes, docs/references.md)."]
    text = "\n".join(lines)
    print(text)
    record("deploy", "## deploy.sh against sshd\n\n" + text)


if __name__ == "__main__":
    main()
