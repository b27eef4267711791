"""The resident app's memory over many jobs: N jobs in one app process.

Opens the virtual brick as `cubebot run --virtual-brick` does (the real
python-ev3dev2 on a fake sysfs, cubebot.robot.job.robots.robot_factory, a
RobotService and cubebot.robot.ui.app.App), presses ENTER, waits until the job is
over, and after each job prints one JSON line: the job number, whether it
solved, the process's Pss and Rss now (MB, /proc/self/smaps_rollup) and its
peak Rss during that job (VmHWM, reset before each job through
/proc/self/clear_refs where the kernel allows it, else the peak so far).
Fixed seeds: job k scrambles with seed SEED + k. Linux only.

Usage: python bench/app_jobs.py [--jobs 20] [--size 3] [--seed 1]
"""

import argparse
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

JOBS = 20
SEED = 1
JOB_TIMEOUT_S = 600.0
KB_PER_MB = 1024.0


def status_kb(field):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def reset_peak():
    """Reset VmHWM to the current Rss; False where the kernel does not allow it."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except (IOError, OSError):
        return False


class Enter(object):
    """Buttons: ENTER is held for one poll after press()."""

    def __init__(self):
        self.down = set()

    def pressed(self):
        down, self.down = self.down, set()
        return down


def run(jobs=JOBS, size=3, seed=SEED, out=sys.stdout):
    from bench.memory import rss_pss_kb
    from cubebot.robot.hw.ev3.devices import RealClock
    from cubebot.robot.job.robots import open_backend, robot_factory
    from cubebot.robot.job.service import RobotService
    from cubebot.robot.machine.config import Config
    from cubebot.robot.ui.app import App, Settings
    config = Config()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, open_backend("virtual-brick", config, seed=seed) as opened:
        opened.hw.buttons = Enter()
        service = RobotService(robot_factory(opened, config, seed))
        settings = Settings(os.path.join(tmp, "app.json"))
        settings.size = size
        app = App(service, opened.hw, settings, RealClock(), config.cube_present_cm, poll_s=0.01)
        for job in range(1, jobs + 1):
            resettable = reset_peak()
            opened.hw.buttons.down = {"enter"}
            app.step()
            deadline = time.monotonic() + JOB_TIMEOUT_S
            while (app.mode != "ready" or app.finished_runs < job) and time.monotonic() < deadline:
                app.step()
                time.sleep(0.01)
            rss, pss = rss_pss_kb(os.getpid())
            row = {"job": job, "solved": app.view.last.startswith("solved"),
                   "pss_mb": round(pss / KB_PER_MB, 2), "rss_mb": round(rss / KB_PER_MB, 2),
                   "peak_rss_mb": round(status_kb("VmHWM") / KB_PER_MB, 2),
                   "peak_is_per_job": resettable}
            rows.append(row)
            out.write(json.dumps(row, sort_keys=True) + "\n")
            out.flush()
        service.stop()
        service.wait()
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=JOBS)
    parser.add_argument("--size", type=int, default=3, choices=(2, 3))
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    rows = run(args.jobs, args.size, args.seed)
    return 0 if all(r["solved"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
