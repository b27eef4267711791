"""4x4x4 solver benchmark: moves per stage, time per solve, peak RSS, table size.

Fixed seed; each state is a uniformly random 4x4x4 (cubebot.solver.scramble.random_state:
random cubie positions, in the standard colours and orientation). Every solution
is applied back and checked. Peak RSS is measured on real `cubebot solve`
processes (interpreter included) via getrusage(RUSAGE_CHILDREN). Writes the
"solver4" section of docs/benchmarks.md.

--check N is the correctness run: N states from seed CHECK_SEED solved with the
short 3x3x3 finish (budget 0: the two-phase finish, or kociemba's first solution),
every one applied back; it writes the "solver4-check" section.

Usage: python bench/solver4.py [--n 100] [--rss 3] [--no-record]
       python bench/solver.py --size 4 [--n4 100] [--no-record]   (the same run)
       python bench/solver4.py --check 100 [--no-record]          (correctness run)
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
from cubebot.solver import catalog, facelets, moves, scramble, search, solve3, solve4, store  # noqa: E402
from cubebot.solver.solve4.reduce import SECTIONS  # noqa: E402

SEED = 4444
CHECK_SEED = 777
CHECK_BUDGET_S = 0          # the 3x3x3 finish's budget in the correctness run: first solution only
# Cited, not measured here (docs/references.md, "Anchors").
ANCHORS = ("the popular Python NxNxN solver: 65 moves (2017), 50 (2018-2021), 51.6 today (outer and wide "
           "turns); the compiled three-phase solver TPR-4x4x4: 44.39 moves in ~250 ms, <= 30 MB of memory.")
TARGETS = ("mean <= 46 OBTM (aim: under 44.39), median <= 0.3 s here on the compiled path, "
           "RSS < 64 MB (<= 30 MB on 32-bit ARM).")


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def states(n, seed=SEED):
    rng = random.Random(seed)
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
    parser.add_argument("--check", type=int, metavar="N", default=0,
                        help="the correctness run: N states (seed %d), short 3x3x3 finish" % CHECK_SEED)
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    if args.check:
        check(args.check, not args.no_record)
    else:
        run(args.n, args.rss, not args.no_record)


def solve_checked(k, state, budget=None, engine=solve4):
    """(OBTM length, seconds, Result) of one solve by engine (solve4 or solve5); exits if
    it does not solve."""
    t = time.perf_counter()
    result = engine.solve_stages(state, budget)
    seconds = time.perf_counter() - t
    best = result.candidates[0]
    if not facelets.is_solved(moves.apply(state, best)):
        raise SystemExit("state {} not solved: {}".format(k, state))
    return moves.count(best, "obtm"), seconds, result


def check(n, record_it=True):
    """The correctness run: n states from CHECK_SEED, each solved and applied back."""
    lengths, seconds = [], []
    for k, state in enumerate(states(n, CHECK_SEED)):
        length, spent, _ = solve_checked(k, state, CHECK_BUDGET_S)
        lengths.append(length)
        seconds.append(spent)
        print("{:3d} {:3d} moves {:6.2f} s".format(k, length, spent), flush=True)
    text = "\n".join([
        "## 4x4x4 correctness run (`python bench/solver4.py --check {}`)".format(n),
        "",
        "Run {} on {} ({}), {} uniformly random 4x4x4 states (seed {}), 3x3x3 finish: {} "
        "(budget {}), every solution applied back and checked. "
        "Load average (1 min) at the end {:.1f} on {} CPUs.".format(
            datetime.date.today().isoformat(), platform.machine(), platform.python_version(),
            n, CHECK_SEED, solve3.finish_path(), CHECK_BUDGET_S, os.getloadavg()[0],
            os.cpu_count()),
        "",
        "| solved and checked | mean / max moves (OBTM) | median / p95 / max time |",
        "|---|---|---|",
        "| {}/{} | {:.1f} / {} | {:.2f} s / {:.2f} s / {:.2f} s |".format(
            len(lengths), n, statistics.mean(lengths), max(lengths),
            statistics.median(seconds), pct(seconds, 0.95), max(seconds)),
    ])
    print(text)
    if record_it:
        record("solver4-check", text)
    return text


def solve_each(cubes, engine, work=None):
    """Solve every state with engine.solve_stages, check each solution, print a line per
    state; returns (OBTM lengths, seconds, {stage: moves per state}). If the engine's
    Result times its sections (solve4: seconds, stage_nodes) and `work` is a dict,
    work[section] and work[section + " nodes"] collect them per state."""
    lengths, seconds = [], []
    per_stage = dict((name, []) for name in engine.STAGES)
    for k, state in enumerate(cubes):
        length, spent, result = solve_checked(k, state, engine=engine)
        lengths.append(length)
        seconds.append(spent)
        for name in engine.STAGES:
            per_stage[name].append(len(result.stages.get(name, [])))
        timed = getattr(result, "seconds", None) or {}
        nodes = getattr(result, "stage_nodes", None) or {}
        if work is not None:
            for name, value in list(timed.items()) + [(n + " nodes", v) for n, v in nodes.items()]:
                work.setdefault(name, []).append(value)
        print("{:3d} {:3d} moves {:6.2f} s {}{}".format(
            k, lengths[-1], seconds[-1],
            " ".join("{}={}".format(s, per_stage[s][-1]) for s in engine.STAGES),
            "".join(" | {} {:.2f} s".format(n, timed[n]) for n in sorted(timed)) +
            "".join(" | {} {} nodes".format(n, nodes[n]) for n in sorted(nodes))), flush=True)
    return lengths, seconds, per_stage


def work_rows(work):
    """Table rows of the time and nodes per section (solve_each's `work`)."""
    times = [n for n in SECTIONS if n in work]
    nodes = [n for n in SECTIONS if n + " nodes" in work]
    return [
        "| time per section (mean / median / p95) | {} |".format(", ".join(
            "{} {:.2f} / {:.2f} / {:.2f} s".format(n, statistics.mean(work[n]), statistics.median(work[n]),
                                                   pct(work[n], 0.95)) for n in times)),
        "| search nodes per section (mean / max) | {} |".format(", ".join(
            "{} {:.0f} / {}".format(n, statistics.mean(work[n + " nodes"]), max(work[n + " nodes"]))
            for n in nodes)),
    ]


def measured_rows(lengths, seconds, per_stage, stages):
    """The table rows every size's run shares: moves, moves per stage, time."""
    return [
        "| mean / max moves (OBTM) | {:.1f} / {} |".format(statistics.mean(lengths), max(lengths)),
        "| per stage (mean) | {} |".format(", ".join(
            "{} {:.1f}".format(name, statistics.mean(per_stage[name])) for name in stages)),
        "| median / p95 / max time | {:.1f} s / {:.1f} s / {:.1f} s |".format(
            statistics.median(seconds), pct(seconds, 0.95), max(seconds)),
    ]


def run(n, rss_states=3, record_it=True):
    """Solve n seeded random states, print and (optionally) record the table; returns its text."""
    cubes = states(n)
    work = {}
    lengths, seconds, per_stage = solve_each(cubes, solve4, work)
    rss_states = min(rss_states, len(cubes))
    rss = peak_rss_mb(cubes[:rss_states])
    table_bytes = sum(os.path.getsize(store.table_path(name)) for name in catalog.names(size=4))
    rows = [
        "Run {} on {} ({}), {} uniformly random 4x4x4 states (seed {}), "
        "cubebot.solver.solve4 default (3x3x3 finish: {}, cubebot.solver.solve3.finish_path), "
        "search path {} (cubebot.solver.search.core_path). "
        "Load average (1 min) at the end {:.1f} on {} CPUs: times taken under load are "
        "that much slower.".format(
            datetime.date.today().isoformat(), platform.machine(), platform.python_version(),
            n, SEED, solve3.finish_path(), search.core_path(), os.getloadavg()[0], os.cpu_count()),
        "",
        "| measure | value |",
        "|---|---|",
    ] + measured_rows(lengths, seconds, per_stage, solve4.STAGES) + work_rows(work) + [
        "| peak RSS of `cubebot solve` ({} states) | {:.1f} MB |".format(rss_states, rss),
        "| 4x4x4 tables on disk | {:.2f} MB |".format(table_bytes / 1e6),
        "",
        "Cited anchors (docs/references.md, not measured here): " + ANCHORS,
        "",
        "Targets: " + TARGETS,
    ]
    text = "\n".join(rows)
    print(text)
    if record_it:
        record("solver4", "## 4x4x4 solver (bench/solver4.py, `bench/solver.py --size 4`)\n\n" + text)
    return text


if __name__ == "__main__":
    main()
