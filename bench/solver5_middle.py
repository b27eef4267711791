"""5x5x5 phase 2 benchmark: the middle pieces after the 4x4x4 part (solve5.middle).

Fixed seed; each state is the solved cube after 40-100 random outer turns and
middle slices (the phase-2 group: its 4x4x4 part stays reduced). Every
solution is applied back and checked (stages.check_done: every centre
home, every midge in its dedge; the tests check it apart). Reports written
turns (a slice = 2: 3Rw Rw') per stage, seconds per solve, the peak RSS of a
fresh process solving every state, the tables' sizes and build time. The
anchor, measured in the same run on the same states: the
cycles-only path (fixed centres by slices, then the T-centres by the pure
3-cycles of 5x5-centre-cycles, then the midges), which is what phase 2 does
when T-pairs are split. Writes the "solver5-middle" section of
docs/benchmarks.md.

Usage: nice python bench/solver5_middle.py [--n 50] [--no-build] [--no-record]
"""

import argparse
import datetime
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from bench.record import record  # noqa: E402
from cubebot.solver import moves, store  # noqa: E402
from cubebot.solver.solve5 import stages  # noqa: E402
from cubebot.solver.solve5.slices import MOVES, written  # noqa: E402

SEED = 17017
N = 5
TABLES = ("5x5-middle-axes", "5x5-middle-pairs", "5x5-midge-cycles", "5x5-midge-cores")
SOLVED = "".join(f * N * N for f in "URFDLB")
SOLVER = stages.MiddleSolver()


def states(n, seed=SEED):
    rng = random.Random(seed)
    result = []
    for _ in range(n):
        turns = [rng.choice(MOVES) for _ in range(rng.randint(40, 100))]
        result.append(moves.apply(SOLVED, written(turns), N))
    return result


def cycles_only(solver, state):
    """The anchor: {stage: moves} of the cycle path (as for split T-pairs)."""
    from cubebot.solver.solve5.centrecycles import CentreCycles
    from cubebot.solver.solve5.midges import MidgeStage
    cube = solver.relabel(state)
    tables = stages._tables()
    fixed = stages.fixed_stage(cube)
    cube = moves.apply(cube, written(fixed), N)
    tcs = CentreCycles(tables["5x5-centre-cycles"]).solve(cube)
    cube = moves.apply(cube, tcs, N)
    mid = MidgeStage(tables["5x5-midge-cycles"]).solve(cube)
    return {"fixed": fixed, "tcentres": tcs, "midges": mid}


def run(all_states, solve):
    """(turns per state, (wall, CPU) seconds per state, mean turns per stage); every solution
    checked."""
    counts, seconds, cpu, per = [], [], [], {}
    for state in all_states:
        started, used = time.perf_counter(), time.process_time()
        found = solve(state)
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
        total = []
        for name, ms in found.items():
            per[name] = per.get(name, 0) + len(written(ms))
            total += ms
        turns = written(total)
        # every centre home and every midge in its dedge (the 4x4x4 part stays reduced)
        stages.check_done(SOLVER.relabel(moves.apply(state, turns, N)))
        counts.append(len(turns))
    return counts, (seconds, cpu), dict((k, v / len(all_states)) for k, v in per.items())


CHILD = """
import resource, sys
sys.path.insert(0, {top!r})
from bench.solver5_middle import states
from cubebot.solver.solve5.middle import solve_middle
for s in states({n}):
    solve_middle(s)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_rss_mb(n):
    out = subprocess.check_output([sys.executable, "-c", CHILD.format(top=TOP, n=n)])
    return int(out.split()[-1]) / 1024.0


def build_seconds():
    with tempfile.TemporaryDirectory() as directory:
        started = time.perf_counter()
        store.build(list(TABLES), directory=directory, progress=None)
        return time.perf_counter() - started


def table_bytes():
    return dict((name, os.path.getsize(store.table_path(name))) for name in TABLES)


def fmt_stats(values):
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return "%.3f / %.3f / %.3f" % (statistics.median(values), p95, max(values))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--no-build", action="store_true", help="skip the fresh table build")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args(argv)

    all_states = states(args.n)
    solver = stages.MiddleSolver()
    counts, seconds, per = run(all_states, solver.stages)
    a_counts, a_seconds, a_per = run(all_states, lambda s: cycles_only(solver, s))
    rss = peak_rss_mb(args.n)
    sizes = table_bytes()
    built = None if args.no_build else build_seconds()
    load = os.getloadavg()[0]

    def stage_text(p):
        return ", ".join("%s %.1f" % (k, v) for k, v in sorted(p.items()) if v)

    lines = [
        "Phase 2 of the 5x5x5 (T-centres, fixed centres, midges; `solve5.middle.solve_middle`), "
        "measured %s on %s (Python %s), load average %.1f on 2 CPUs shared with other jobs: "
        "times are noisy." % (datetime.date.today().isoformat(), platform.machine(),
                              platform.python_version(), load),
        "",
        "`nice python bench/solver5_middle.py --n %d` (seed %d: solved, then 40-100 random outer "
        "turns and middle slices; every solution applied back and checked reduced)." % (args.n, SEED),
        "",
        "| path | mean / max turns (a slice = 2) | per stage (mean) | median / p95 / max s, wall "
        "| the same, CPU of this process |",
        "|---|---|---|---|---|",
        "| pair stages + midges (phase 2) | %.1f / %d | %s | %s | %s |" % (
            statistics.mean(counts), max(counts), stage_text(per), fmt_stats(seconds[0]),
            fmt_stats(seconds[1])),
        "| anchor, same run: fixed + T-centre cycles + midges | %.1f / %d | %s | %s | %s |" % (
            statistics.mean(a_counts), max(a_counts), stage_text(a_per), fmt_stats(a_seconds[0]),
            fmt_stats(a_seconds[1])),
        "",
        "Peak RSS of a fresh process solving all %d states: %.1f MB. Tables: %s; %s." % (
            args.n, rss, ", ".join("%s %d B" % (k, v) for k, v in sorted(sizes.items())),
            "built in %.0f s (fresh build, niced)" % built if built is not None else "build not timed"),
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_record:
        record("solver5-middle", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
