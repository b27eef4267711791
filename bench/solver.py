"""Solver benchmark: moves, time per solve, table open time, peak RSS.

Fixed seeds. 2x2x2: 1000 uniformly random states (random cubie states, not
random moves), HTM and QTM. 3x3x3: 200 uniformly random states, default and
--budget 1. Peak RSS is measured on real `cubebot solve` processes (the
interpreter included) through getrusage(RUSAGE_CHILDREN) in a wrapper
process. Writes the "solver" section of docs/benchmarks.md.

Usage: python bench/solver.py [--size 2..7] [--n2 1000] [--n3 200] [--n4 100] [--n5 100]
                              [--n6 30] [--n7 30] [--budget 1.0] [--no-record]
--size 4 runs bench/solver4.py (100 seeded random 4x4x4 states; its own section);
--size 5 runs bench/solver5.py (100 seeded random 5x5x5 states; its own section);
--size 6 and --size 7 run bench/solver_big.py (30 seeded random states each; sections solver-big-6/-7).
"""

import argparse
import datetime
import os
import platform
import random
import statistics
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from bench import memory  # noqa: E402
from bench.record import record  # noqa: E402
from cubebot.solver import api, moves, facelets, scramble, solve2  # noqa: E402

SEED2 = 2024
SEED3 = 3033
RSS_STATES = 3          # `cubebot solve` processes measured per case
# Cited, not measured here: from docs/references.md ("Cube numbers" and "Anchors"), printed in
# their own table, apart from the measured columns.
ANCHORS = {
    "2-htm": "optimal mean 8.756 HTM (the published 2x2x2 distance distribution)",
    "2-qtm": "optimal mean 10.666 QTM (the published 2x2x2 distance distribution)",
    "3-default": "kociemba package, max_depth 21, 40 random states: mean 20.7 moves, median 14 ms",
    "3-budget": "kociemba package, max_depth 20, 40 random states: mean 19.7 moves, median 134 ms, one state 17 s",
}
TARGETS = {         # the project's targets for the same cases (docs/solver.md)
    "2-htm": "optimal; median <= 1 ms",
    "2-qtm": "optimal",
    "3-default": "mean <= 21.0, median <= 30 ms",
    "3-budget": "mean <= 20.0, no solve over 1.1 s",
}


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run_solves(states, **kwargs):
    lengths, seconds = [], []
    for state in states:
        t = time.perf_counter()
        sol = api.solve(state, **kwargs)
        seconds.append(time.perf_counter() - t)
        assert facelets.is_solved(moves.apply(state, sol.moves)), state
        lengths.append(sol.length)
    return lengths, seconds


def row(name, lengths, seconds, key):
    """A measured row; the case's cited anchor and target go to the anchors table."""
    ROW_KEYS.append((name, key))
    return "| {} | {} | {:.3f} | {} | {:.3f} | {:.3f} | {:.3f} |".format(
        name, len(lengths), statistics.mean(lengths), max(lengths),
        statistics.median(seconds) * 1e3, pct(seconds, 0.95) * 1e3, max(seconds) * 1e3)


ROW_KEYS = []       # (case, anchor key) of the rows written, in order


def peak_rss_mb(argv_list):
    """Peak RSS (MB) over `cubebot solve` runs, measured in a fresh wrapper process."""
    code = ("import resource, subprocess, sys, json\n"
            "for argv in json.loads(sys.argv[1]):\n"
            "    subprocess.check_call(argv, stdout=subprocess.DEVNULL)\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    import json
    out = subprocess.check_output([sys.executable, "-c", code, json.dumps(argv_list)], cwd=TOP)
    return int(out.decode().strip()) / 1024.0


def cli(*args):
    return [sys.executable, "-m", "cubebot", "solve"] + list(args)


def bench_2(args, lines):
    rng = random.Random(SEED2)
    states = [scramble.random_state(2, rng) for _ in range(args.n2)]
    opens = []
    for metric in ("htm", "qtm"):
        for _ in range(20):
            t = time.perf_counter()
            s = solve2.Solver2(metric)
            opens.append(time.perf_counter() - t)
            s.close()
        api.solve(states[0], metric=metric)                   # open the cached solver
    for metric in ("htm", "qtm"):
        lengths, seconds = run_solves(states, metric=metric)
        lines.append(row("2x2x2 {}".format(metric), lengths, seconds, "2-" + metric))
    t = time.perf_counter()
    subprocess.check_call(cli(states[1]), cwd=TOP, stdout=subprocess.DEVNULL)
    process = time.perf_counter() - t
    rss = peak_rss_mb([cli(s) for s in states[:RSS_STATES]] + [cli(s, "--metric", "qtm") for s in states[:RSS_STATES]])
    return ["2x2x2 table open (Solver2(), mmap + header + manifest): median {:.2f} ms, max {:.2f} ms".format(
        statistics.median(opens) * 1e3, max(opens) * 1e3),
        "2x2x2 whole `cubebot solve` process (start-up, imports, open, solve): {:.0f} ms".format(process * 1e3),
        "peak RSS of `cubebot solve` (2x2x2): {:.1f} MB".format(rss)]


def bench_3(args, lines):
    rng = random.Random(SEED3)
    states = [scramble.random_state(3, rng) for _ in range(args.n3)]
    api.solve(states[0])                                       # kociemba loads its tables
    lengths, seconds = run_solves(states)
    lines.append(row("3x3x3 default", lengths, seconds, "3-default"))
    lengths, seconds = run_solves(states, budget=args.budget)
    lines.append(row("3x3x3 --budget {:g} (time-bounded)".format(args.budget), lengths, seconds, "3-budget"))
    rss_default = peak_rss_mb([cli(s) for s in states[:RSS_STATES]])
    rss_budget = peak_rss_mb([cli(s, "--budget", str(args.budget)) for s in states[:RSS_STATES]])
    return ["peak RSS of `cubebot solve` (3x3x3 default): {:.1f} MB".format(rss_default),
            "peak RSS of `cubebot solve` (3x3x3 --budget {:g}; the largest single process, forked search "
            "children included): {:.1f} MB".format(args.budget, rss_budget),
            "peak PSS of `cubebot solve` (3x3x3 --budget {:g}; summed over the process tree, shared pages "
            "counted once, bench/memory.py; time-bounded: how many forked children are alive at once, "
            "and how far each has searched, follows the machine's load): {:.1f} MB".format(args.budget, max(
                memory.peak_pss(cli(s, "--budget", str(args.budget))).pss_all_mb
                for s in states[:RSS_STATES]))]


def bench_4(args, lines):
    """The 4x4x4 run of bench/solver4.py (it records its own "solver4" section)."""
    from bench import solver4
    solver4.run(args.n4, RSS_STATES, not args.no_record)
    return ["4x4x4: see the solver4 section (bench/solver4.py, {} states)".format(args.n4)]


def bench_5(args, lines):
    """The 5x5x5 run of bench/solver5.py (it records its own "solver5" section)."""
    from bench import solver5
    solver5.run(args.n5, solver5.RSS_STATES, not args.no_record)
    return ["5x5x5: see the solver5 section (bench/solver5.py, {} states)".format(args.n5)]


def bench_big(args, lines):
    """The 6x6x6/7x7x7 run of bench/solver_big.py (it records its own "solver-big-N" section)."""
    from bench import solver_big
    count = getattr(args, "n%d" % args.size)
    solver_big.run(args.size, count, solver_big.RSS_STATES, not args.no_record)
    return ["{0}x{0}x{0}: see the solver-big-{0} section (bench/solver_big.py, {1} states)".format(
        args.size, count)]


SIZES = {2: bench_2, 3: bench_3, 4: bench_4, 5: bench_5, 6: bench_big, 7: bench_big}
DEFAULT_SIZES = (2, 3)          # a run without --size; the 4x4x4 run takes many minutes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, choices=sorted(SIZES), default=None)
    parser.add_argument("--n2", type=int, default=1000)
    parser.add_argument("--n3", type=int, default=200)
    parser.add_argument("--n4", type=int, default=100)
    parser.add_argument("--n5", type=int, default=100)
    parser.add_argument("--n6", type=int, default=30)
    parser.add_argument("--n7", type=int, default=30)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    lines = ["| case | states | mean moves | max moves | median ms | p95 ms | max ms |",
             "|---|---|---|---|---|---|---|"]
    notes = []
    load_before = os.getloadavg()[0]
    for size in sorted(SIZES):
        if args.size == size or (args.size is None and size in DEFAULT_SIZES):
            notes += SIZES[size](args, lines)
    notes.append("machine load average (1 min) {:.1f} before, {:.1f} after, on {} CPUs (other jobs share "
                 "this machine; times scale with it)".format(load_before, os.getloadavg()[0], os.cpu_count()))
    anchors = ["| case | cited anchor (docs/references.md, not measured here) | target |", "|---|---|---|"]
    anchors += ["| {} | {} | {} |".format(name, ANCHORS[key], TARGETS[key]) for name, key in ROW_KEYS]
    options = "".join(" --{} {:g}".format(k, getattr(args, k)) for k, default in (
        ("n2", 1000), ("n3", 200), ("budget", 1.0)) if getattr(args, k) != default)
    text = ("## Solver ({}, {} {}, Python {})\n\n`python bench/solver.py{}`: uniformly random states "
            "(random cubie states, not random moves), seed {} (2x2x2), seed {} (3x3x3); every solution "
            "applied back and checked.\n\nMeasured:\n\n{}\n\n{}\n\nAnchors and targets:\n\n{}\n").format(
        datetime.date.today().isoformat(), platform.machine(), platform.system(),
        platform.python_version(), options, SEED2, SEED3, "\n".join(lines), "\n".join("- " + n for n in notes),
        "\n".join(anchors))
    print(text)
    if not args.no_record and args.size is None:
        record("solver", text)


if __name__ == "__main__":
    main()
