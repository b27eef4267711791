"""5x5x5 solver benchmark: moves per stage, time per solve, peak RSS, tables.

Fixed seed; each state is a uniformly random 5x5x5 (cubebot.solver.scramble.random_state).
Every solution is applied back and checked. Peak RSS is the largest max RSS of
real `cubebot solve` processes (interpreter and the forked 3x3x3 search
children included: getrusage(RUSAGE_CHILDREN) takes the largest descendant).
Table build time is read from a fresh build into a temporary directory.
Writes the "solver5" section of docs/benchmarks.md.

The issue's acceptance run on held-out states, through `cubebot solve --batch -`
and checked by the independent model bench/cube3d.py, is
`python bench/heldout.py --size 5` (section "heldout-5").

Usage: python bench/solver5.py [--n 100] [--rss 50] [--no-record]
       python bench/solver.py --size 5 [--n5 100] [--no-record]   (the same run)
"""

import argparse
import datetime
import os
import platform
import random
import statistics
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from bench.record import record  # noqa: E402
from bench.solver4 import measured_rows, pct, peak_rss_mb, solve_each  # noqa: E402
from cubebot.solver import catalog, scramble, search, solve5, store  # noqa: E402

SEED = 5555
RSS_STATES = 50                 # states solved by `cubebot solve` for the peak RSS
ANCHORS = ("cited, docs/references.md: the Python NxNxN solver 78.9 moves, ~109 s per cube on a laptop, "
           "tables of hundreds of MB to GBs in RAM; the compiled five-phase cube555: 51-52 moves of "
           "reduction + ~20 for the 3x3x3, 1-2 s, 500 MB. Targets: mean <= 90 OBTM (goal 79), "
           "median <= 10 s, p95 <= 30 s, RSS < 64 MB, tables <= 250 MB built in <= 20 min.")


def states(n, seed=SEED):
    rng = random.Random(seed)
    return [scramble.random_state(5, rng) for _ in range(n)]


class Timed(object):
    """solve5 as the engine of solve_each, keeping the CPU seconds of each solve
    (time.process_time: the whole solve runs in this process, the 3x3x3 finish too)."""

    STAGES = solve5.STAGES

    def __init__(self):
        self.cpu = []

    def solve_stages(self, state, budget=None):
        started = time.process_time()
        try:
            return solve5.solve_stages(state, budget)
        finally:
            self.cpu.append(time.process_time() - started)


def build_seconds():
    """Seconds of `store.build` of the 5x5x5 tables into a temporary directory."""
    with tempfile.TemporaryDirectory() as directory:
        started = time.perf_counter()
        store.build(catalog.names(size=5), directory=directory, progress=None)
        return time.perf_counter() - started


def run(n, rss_states=RSS_STATES, record_it=True, build=True):
    """Solve n seeded random states, print and (optionally) record the table; returns its text."""
    cubes = states(n)
    timed = Timed()
    lengths, seconds, per_stage = solve_each(cubes, timed)
    rss_states = min(rss_states, len(cubes))
    rss = peak_rss_mb(cubes[:rss_states])
    names = catalog.names(size=5)
    table_bytes = sum(os.path.getsize(store.table_path(name)) for name in names)
    built = "{:.0f} s".format(build_seconds()) if build else "not measured"
    load = os.getloadavg()[0]
    rows = [
        "Run {} on {} ({}), {} uniformly random 5x5x5 states (seed {}), solver.solve5 default. "
        "Phase 1 (outer4) by the 4x4x4 solver's reduction, phase 2 (middle) by middle.MiddleSolver, the 3x3x3 "
        "finish in this process (the reduced cubes in six views searched at once by the two-phase "
        "search within a node budget where its module is built, else kociemba view by view; no "
        "time budget: the same moves on any machine). Search path {} "
        "(cubebot.solver.search.core_path); load average {:.1f} on {} CPUs shared "
        "with other jobs, so times are noisy.".format(
            datetime.date.today().isoformat(), platform.machine(), platform.python_version(),
            n, SEED, search.core_path(), load, os.cpu_count()),
        "",
        "| measure | value |",
        "|---|---|",
    ] + measured_rows(lengths, seconds, per_stage, solve5.STAGES) + [
        "| CPU a solve (process time): median / p95 / max | {:.1f} s / {:.1f} s / {:.1f} s |".format(
            statistics.median(timed.cpu), pct(timed.cpu, 0.95), max(timed.cpu)),
        "| peak RSS of `cubebot solve` ({} states, largest process) | {:.1f} MB |".format(rss_states, rss),
        "| 5x5x5 tables on disk / build time | {:.2f} MB ({}) / {} |".format(
            table_bytes / 1e6, ", ".join(names), built),
        "",
        "Anchors: " + ANCHORS,
    ]
    text = "\n".join(rows)
    print(text)
    if record_it:
        record("solver5", "## 5x5x5 solver (bench/solver5.py, `bench/solver.py --size 5`)\n\n" + text)
    return text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--rss", type=int, default=RSS_STATES, help="states solved by `cubebot solve` for RSS")
    parser.add_argument("--no-build", action="store_true", help="skip timing a fresh table build")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    run(args.n, args.rss, not args.no_record, not args.no_build)


if __name__ == "__main__":
    main()
