"""The brick-time estimate of a solve, per size, with the compiled core's share.

For each size, seeded random states are solved in this process (each solution applied
back and checked). The time each solve spent in compiled code, inside the compiled core
(cubebot.solver.search.CORE_SECONDS) and in kociemba's C searches run in this process
(cubebot.solver.solve3.KOCIEMBA_SECONDS), is scaled by the compiled-code factor, and the
rest by the integer-Python factor (cubebot.robot.job.brick_time.estimate_solve). The
compiled factor comes from kociemba's C solve: about 1 s on the brick (a fact,
docs/references.md) over its median time here, measured in the same run on
KOCIEMBA_STATES random 3x3x3 states. Writes the "brick-estimate" section of
docs/benchmarks.md.

Usage: python bench/brick_estimate.py [--sizes 2,3,4,5,6,7] [--states N] [--no-record]
CUBEBOT_PURE_PYTHON=1 estimates the pure-Python path instead.
"""

import argparse
import os
import random
import statistics
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from bench.record import record  # noqa: E402
from cubebot.robot.job import brick_time  # noqa: E402
from cubebot.solver import api, facelets, moves, scramble, search, solve3  # noqa: E402

SEED = 4343
KOCIEMBA_STATES = 40
STATES = {2: 20, 3: 20, 4: 10, 5: 4, 6: 1, 7: 1}    # states per size (bigger sizes are slow)


def kociemba_median_s(rng):
    """Median seconds of kociemba's C solve here on random 3x3x3 states."""
    import kociemba
    kociemba.solve(scramble.random_state(3, rng))        # the first solve loads its tables
    times = []
    for _ in range(KOCIEMBA_STATES):
        state = scramble.random_state(3, rng)
        began = time.perf_counter()
        kociemba.solve(state)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def measure(size, count, rng):
    """[(moves, seconds here, seconds in compiled code)] of `count` random states."""
    out = []
    for _ in range(count):
        state = scramble.random_state(size, rng)
        core_before = search.CORE_SECONDS[0] + solve3.KOCIEMBA_SECONDS[0]
        began = time.perf_counter()
        solution = api.solve(state, size=size)
        spent = time.perf_counter() - began
        if not facelets.is_solved(moves.apply(state, solution.moves, size), size):
            raise SystemExit("a {0}x{0}x{0} solution does not solve its state".format(size))
        out.append((solution.length, spent,
                    search.CORE_SECONDS[0] + solve3.KOCIEMBA_SECONDS[0] - core_before))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default=",".join(str(n) for n in sorted(STATES)))
    parser.add_argument("--states", type=int, default=None, help="states per size (default: per size)")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    rng = random.Random(SEED)
    k_here = kociemba_median_s(rng)
    factor = brick_time.compiled_factor(k_here)
    lines = [
        "## Brick-time estimate per size (`python bench/brick_estimate.py`)", "",
        "Search path: **{}**. kociemba's C solve here: median {:.1f} ms over {} random 3x3x3 "
        "states. Compiled code counts {:g} s (its time on the brick, docs/references.md) over "
        "that median: the factor column. Python counts x{:g}-{:g}.".format(
            search.core_path(), k_here * 1000, KOCIEMBA_STATES, brick_time.KOCIEMBA_BRICK_S,
            *brick_time.INT_FACTOR), "",
        "| size | states | mean moves | median time here | compiled share (core, kociemba) | "
        "compiled factor (from kociemba's time) | brick estimate of the median solve (time) |",
        "|---|---|---|---|---|---|---|"]
    for size in [int(s) for s in args.sizes.split(",")]:
        rows = measure(size, args.states or STATES[size], rng)
        total = statistics.median(r[1] for r in rows)
        core = statistics.median(r[2] for r in rows)
        shares = sum(r[2] for r in rows) / max(sum(r[1] for r in rows), 1e-9)
        est = brick_time.estimate_solve(total, min(core, total), k_here)
        lines.append("| {0}x{0}x{0} | {1} | {2:.1f} | {3:.3f} s | {4:.0%} | x{5:.0f} | {6} "
                     "(central {7:.1f} s) |".format(
                         size, len(rows), statistics.mean(r[0] for r in rows), total, shares,
                         factor, brick_time.describe(est), est.central))
        print(lines[-1], flush=True)
    text = "\n".join(lines)
    if args.no_record:
        print(text)
    else:
        record("brick-estimate", text)


if __name__ == "__main__":
    main()
