"""Benchmark of the virtual brick: the whole job through the real python-ev3dev2.

For fixed seeds of each size: run the job on the virtual brick (fake sysfs +
motor physics, lockstep clock) and on the pure simulation with the same seed.
Reports the wall time of a virtual-brick run on this machine, its robot time
(the brick's clock) against the pure simulation's, and how many solves ended
solved. Writes the "brick" section of docs/benchmarks.md.

Usage: python bench/brick.py [--seeds N] [--no-record]
"""

import argparse
import datetime
import os
import platform
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.record import record  # noqa: E402
from cubebot.robot.job.pipeline import run_job  # noqa: E402
from cubebot.robot.job.robots import make_sim_robot  # noqa: E402
from cubebot.robot.job.robots import open_virtual_robot  # noqa: E402

SEEDS = 10
SIZES = (3, 2)


def one(size, seed):
    t0 = time.perf_counter()
    with open_virtual_robot(size, seed) as vr:
        result = run_job(vr.robot, size)
        steps = vr.brick.sim_time_s / vr.brick.step_s
    wall = time.perf_counter() - t0
    sim = run_job(make_sim_robot(size, seed), size)
    return wall, steps, result, sim


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=SEEDS)
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    rows = []
    for size in SIZES:
        walls, robot, simulated, steps, solved = [], [], [], [], 0
        for seed in range(args.seeds):
            wall, n_steps, result, sim = one(size, seed)
            walls.append(wall)
            steps.append(n_steps)
            robot.append(result["total_seconds"])
            simulated.append(sim["total_seconds"])
            solved += bool(result["solved"])
        rows.append("| {0}x{0}x{0} | {1} | {2}/{1} | {3:.2f} s | {4:.2f} s | {5:.1f} s | {6:.1f} s | {7:.0f} |".format(
            size, args.seeds, solved, statistics.mean(walls), max(walls), statistics.mean(robot),
            statistics.mean(simulated), statistics.mean(walls) * 1e6 / statistics.mean(steps)))
        print(rows[-1], flush=True)
    text = "\n".join([
        "## Virtual brick (python-ev3dev2 on a fake sysfs)",
        "",
        "{}, {} seeds per size, Python {} on {} ({} CPUs). `bench/brick.py`.".format(
            datetime.date.today().isoformat(), args.seeds, platform.python_version(), platform.machine(),
            os.cpu_count()),
        "Each run scans, resolves, solves, plans and turns through the real python-ev3dev2 against the",
        "virtual brick; the robot time is the brick's clock (physics steps of 10 ms, lockstep), the",
        "simulated time that of the pure simulation with the same seed (the same cube and sensor).",
        "",
        "| size | runs | solved | wall time per run (mean) | (max) | robot time, virtual brick | "
        "robot time, pure sim | wall us per physics step |",
        "|---|---|---|---|---|---|---|---|",
    ] + rows)
    if not args.no_record:
        record("brick", text)
    print(text)


if __name__ == "__main__":
    main()
