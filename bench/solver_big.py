"""6x6x6 / 7x7x7 solver benchmark (solver/big): moves per stage, time per solve, peak RSS, tables.

Fixed seeds (SEEDS[N]); each state is cubebot.solver.scramble.random_state(N)
(20 x (N-2) random outer and wide turns). Every solution is applied back and
checked. Peak RSS is the largest max RSS of real `cubebot solve` processes
(forked 3x3x3 search children included: getrusage(RUSAGE_CHILDREN)). The
build time is that of the size's own table (NxN-cycles) into a temporary
directory; the smaller sizes' tables it reads are timed in their sections.
Writes the section "solver-big-N" of docs/benchmarks.md.

The held-out check through `cubebot solve --batch -` and the independent model
is `python bench/heldout.py --size N`.

Usage: python bench/solver_big.py --size 6|7 [--n 30] [--rss 5] [--no-build] [--no-record]
       python bench/solver.py --size 6|7 [--n6 30] [--n7 30] [--no-record]   (the same run)
"""

import argparse
import datetime
import os
import platform
import random
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from bench.record import record  # noqa: E402
from bench.solver4 import measured_rows, peak_rss_mb, solve_each  # noqa: E402
from cubebot.solver import big, catalog, scramble, store  # noqa: E402
from cubebot.solver.big.cycles import table_name  # noqa: E402
from cubebot.solver.big import reduce, tablestage  # noqa: E402
from cubebot.solver.big.reduce import TRIED  # noqa: E402

SEEDS = {6: 6666, 7: 7777}
RSS_STATES = 5                  # states solved by `cubebot solve` for the peak RSS
TARGETS = {6: 150, 7: 215}      # mean OBTM the issue asks for
MEDIAN_TARGET_S = {6: 10, 7: 20}
ANCHORS = {6: 135.7, 7: 193.8}  # cited, docs/references.md: the Python NxNxN solver, tables in the GBs


STAGED = ("The centres are staged and solved by tables (tablestage, tablesolve; the compiled "
          "staging module), then the pairing beam and parity run in {} whole-cube orientations. "
          "A cube that is not staged goes through all the stages below. ")


def staged(n):
    """True where the solver stages the size's centres by tables."""
    return reduce.TABLE_STAGING and n in tablestage.SIZES and tablestage.available()


def states(n, count, seed=None):
    rng = random.Random(SEEDS[n] if seed is None else seed)
    return [scramble.random_state(n, rng) for _ in range(count)]


def build_seconds(n):
    """Seconds of `store.build` of the size's own table into a temporary directory."""
    with tempfile.TemporaryDirectory() as directory:
        started = time.perf_counter()
        store.build([table_name(n)], directory=directory, progress=None)
        return time.perf_counter() - started


def run(n, count=30, rss_states=RSS_STATES, record_it=True, build=True):
    """Solve `count` seeded random states, print and (optionally) record the table; returns its text."""
    cubes = states(n, count)
    load_before = os.getloadavg()[0]
    lengths, seconds, per_stage = solve_each(cubes, big)
    rss_states = min(rss_states, len(cubes))
    rss = peak_rss_mb(cubes[:rss_states])
    own = os.path.getsize(store.table_path(table_name(n)))
    names = catalog.names(size=n)
    table_bytes = sum(os.path.getsize(store.table_path(name)) for name in names)
    built = "{:.0f} s".format(build_seconds(n)) if build else "not measured"
    rows = [
        "Run {} on {} ({}), {} random {}x{}x{} states (scramble.random_state, seed {}), solver.big "
        "default. {}The stages: the free beam, the insert beam (centres only), "
        "the pairing beam (slice-flip-slice), parity "
        "(these four in {} whole-cube orientations, the best estimate going on), centre "
        "blocks, multi-cycles and 3-cycles, wing 3-cycles (both open: closing outer turns left out), "
        "then the blown-up {}x{}x{} view solved by {}. Load "
        "average {:.1f} before, {:.1f} after, on {} CPUs shared with other jobs, so times are "
        "noisy.".format(
            datetime.date.today().isoformat(), platform.machine(), platform.python_version(),
            count, n, n, n, SEEDS[n], STAGED.format(TRIED.get(n, 1)) if staged(n) else "",
            TRIED.get(n, 1), *((4,) * 3 if n % 2 == 0 else (5,) * 3),
            "solve4" if n % 2 == 0 else "solve5", load_before, os.getloadavg()[0], os.cpu_count()),
        "",
        "| measure | value | target / anchor |",
        "|---|---|---|",
    ]
    shared = measured_rows(lengths, seconds, per_stage, big.STAGES)
    extra = [" <= {} (anchor {}, cited) |".format(TARGETS[n], ANCHORS[n]), " |",
             " median <= {} s |".format(MEDIAN_TARGET_S[n])]
    rows += [line + tail for line, tail in zip(shared, extra)]
    rows += [
        "| peak RSS of `cubebot solve` ({} states, largest process) | {:.1f} MB | < 64 MB |".format(
            rss_states, rss),
        "| new table {} / with the smaller sizes' | {:.2f} MB / {:.2f} MB | new <= 250 MB |".format(
            table_name(n), own / 1e6, table_bytes / 1e6),
        "| build time of {} | {} | |".format(table_name(n), built),
        "",
        "Anchor (cited from docs/references.md, not measured here): the best-known Python NxNxN solver "
        "averages {} moves on the {}x{}x{}, with tables in the GBs; it no longer runs on an "
        "EV3.".format(ANCHORS[n], n, n, n),
    ]
    text = "\n".join(rows)
    print(text)
    if record_it:
        record("solver-big-%d" % n, "## {0}x{0}x{0} solver (bench/solver_big.py, `bench/solver.py "
               "--size {0}`)\n\n".format(n) + text)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, choices=sorted(SEEDS), required=True)
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--rss", type=int, default=RSS_STATES, help="states solved by `cubebot solve` for RSS")
    parser.add_argument("--no-build", action="store_true", help="skip timing a fresh table build")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    run(args.size, args.n, args.rss, not args.no_record, not args.no_build)


if __name__ == "__main__":
    main()
