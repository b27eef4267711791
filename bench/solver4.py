"""4x4x4 solver benchmark: moves per stage, time per solve, peak RSS, table size.

Fixed seed; each state is a uniformly random 4x4x4 (cubebot.solver.scramble.random_state),
turned and recoloured at random. Every solution is applied back and checked.
Peak RSS is measured on real `cubebot solve` processes (interpreter included)
via getrusage(RUSAGE_CHILDREN). Writes the "solver4" section of docs/benchmarks.md.

Usage: python bench/solver4.py [--n 100] [--rss 3] [--no-record]
       python bench/solver.py --size 4 [--n4 100] [--no-record]   (the same run)
"""

import argparse
import datetime
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from bench.record import record  # noqa: E402
from cubebot.solver import catalog, facelets, moves, scramble, solve4, store  # noqa: E402

SEED = 4444
ANCHORS = ("Python reduction solver (2017/2018): ~65 / ~63 moves, ~500 MB RAM; "
           "compiled three-phase solver: ~44.5 moves, ~0.3 s, ~30 MB. "
           "Targets: mean <= 55 OBTM (goal 48), median <= 5 s, p95 <= 20 s, RSS < 64 MB, tables <= 150 MB.")


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def states(n):
    rng = random.Random(SEED)
    return [scramble.random_state(4, rng) for _ in range(n)]


def peak_rss_mb(sample):
    """Largest max RSS (MB) of `cubebot solve STATE` child processes."""
    for state in sample:
        subprocess.check_call([sys.executable, "-m", "cubebot", "solve", state], cwd=TOP,
                              stdout=subprocess.DEVNULL)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--rss", type=int, default=3, help="states solved by `cubebot solve` for RSS")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    run(args.n, args.rss, not args.no_record)


def solve_each(cubes, engine):
    """Solve every state with engine.solve_stages, check each solution, print a line per
    state; returns (OBTM lengths, seconds, {stage: moves per state})."""
    lengths, seconds = [], []
    per_stage = dict((name, []) for name in engine.STAGES)
    for k, state in enumerate(cubes):
        t = time.perf_counter()
        result = engine.solve_stages(state)
        seconds.append(time.perf_counter() - t)
        best = result.candidates[0]
        if not facelets.is_solved(moves.apply(state, best)):
            raise SystemExit("state {} not solved: {}".format(k, state))
        lengths.append(moves.count(best, "obtm"))
        for name in engine.STAGES:
            per_stage[name].append(len(result.stages.get(name, [])))
        print("{:3d} {:3d} moves {:6.2f} s {}".format(
            k, lengths[-1], seconds[-1],
            " ".join("{}={}".format(s, per_stage[s][-1]) for s in engine.STAGES)), flush=True)
    return lengths, seconds, per_stage


def run(n, rss_states=3, record_it=True):
    """Solve n seeded random states, print and (optionally) record the table; returns its text."""
    cubes = states(n)
    lengths, seconds, per_stage = solve_each(cubes, solve4)
    rss_states = min(rss_states, len(cubes))
    rss = peak_rss_mb(cubes[:rss_states])
    table_bytes = sum(os.path.getsize(store.table_path(name)) for name in catalog.names(size=4))
    rows = [
        "Run {} on {} ({}), {} uniformly random 4x4x4 states (seed {}), "
        "cubebot.solver.solve4 default (3x3x3 finish with its default 1 s budget search).".format(
            datetime.date.today().isoformat(), platform.machine(), platform.python_version(),
            n, SEED),
        "",
        "| measure | value |",
        "|---|---|",
        "| mean / max moves (OBTM) | {:.1f} / {} |".format(statistics.mean(lengths), max(lengths)),
        "| per stage (mean) | {} |".format(", ".join(
            "{} {:.1f}".format(n, statistics.mean(per_stage[n])) for n in solve4.STAGES)),
        "| median / p95 / max time | {:.1f} s / {:.1f} s / {:.1f} s |".format(
            statistics.median(seconds), pct(seconds, 0.95), max(seconds)),
        "| peak RSS of `cubebot solve` ({} states) | {:.1f} MB |".format(rss_states, rss),
        "| 4x4x4 tables on disk | {:.2f} MB |".format(table_bytes / 1e6),
        "",
        "Anchors: " + ANCHORS,
    ]
    text = "\n".join(rows)
    print(text)
    if record_it:
        record("solver4", "## 4x4x4 solver (bench/solver4.py, `bench/solver.py --size 4`)\n\n" + text)
    return text


if __name__ == "__main__":
    main()
