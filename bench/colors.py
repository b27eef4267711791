"""Colour resolution benchmark: synthetic scans through cubebot.robot.hw.sim.sensor_model.

For each size and noise level, COUNT random cubes are scanned by a fresh
simulated sensor (fixed seeds) and resolved with cubebot.robot.colour.resolve.resolve (no
calibration profile: the built-in references). Reports % exact, % reported
doubtful (ScanUnresolved), % wrong without a report (must be 0) and the
median CPU ms per resolve (time.process_time: the machine is shared).
Anchor: a plain nearest-colour classifier (each facelet alone, white-balanced,
CIE Lab), as robots without the cube's constraints do.

Each scan then goes through the robot's rescan loop (cubebot.robot.colour.rescan): the
reported facelets are read again and the scan resolved again, and the
final outcome is reported as well.

Usage: python bench/colors.py [--count N] [--samples-count N] [--big-count N]
       [--sizes N ...] [--levels L ...] [--samples K ...] [--jobs J] [--no-record] [--previous]
(only a full run is recorded; --previous runs the previous resolver on the same scans; the
first K scans of a row are the same whatever the count)
"""

import argparse
import datetime
import multiprocessing
import os
import random
import sys
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.record import record  # noqa: E402
from cubebot.robot.colour.profile import default_profile  # noqa: E402
from cubebot.robot.colour.resolve import resolve, resolve_counts  # noqa: E402
from cubebot.robot.colour.space import channel_gain, combine, distance2, lab, scale  # noqa: E402
from cubebot.robot.machine.config import Config  # noqa: E402
from cubebot.robot.errors import ScanUnresolved  # noqa: E402
from cubebot.robot.colour.rescan import RESCAN_SAMPLES  # noqa: E402
from cubebot.robot.hw.sim.sensor_model import PRESETS, SensorModel, rescan  # noqa: E402
from cubebot.solver.facelets import solved  # noqa: E402
from cubebot.solver.moves import apply, face_turns  # noqa: E402

LEVELS = ("low", "moderate", "high")
SCRAMBLE = 60


def same_cube(a, b):
    """The same cube up to renaming the six symbols."""
    mapping = {}
    for x, y in zip(a, b):
        if mapping.setdefault(x, y) != y:
            return False
    return len(set(mapping.values())) == len(mapping)


def nearest_only(scan):
    """The anchor: every facelet alone to its nearest reference colour."""
    refs = default_profile()["facelets"]
    readings = [combine(s) for s in scan]
    gain = channel_gain(readings, refs)
    white = max(refs, key=sum)
    ref_lab = [lab(r, white) for r in refs]
    out = []
    for x in readings:
        c = lab(scale(x, gain), white)
        out.append("URFDLB"[min(range(6), key=lambda k: distance2(c, ref_lab[k]))])
    return "".join(out)


def resolve_with_rescans(sensor, state, n, scan, max_rescans, times, resolver=resolve):
    """(first outcome, final outcome, facelets reread): outcomes are
    "exact", "doubtful" or "wrong"; the robot's loop of resolve and rescan."""
    outcomes, reread = [], 0
    for attempt in range(max_rescans + 1):
        start = time.process_time()
        try:
            result = resolver(scan, n)
        except ScanUnresolved as err:
            times.append(time.process_time() - start)
            outcomes.append("doubtful")
            if attempt < max_rescans:
                reread += rescan(sensor, state, n, scan, err.doubtful)
            continue
        times.append(time.process_time() - start)
        outcomes.append("exact" if same_cube(result.state, state) else "wrong")
        break
    return outcomes[0], outcomes[-1], reread


def run(n, level, count, samples, seed, max_rescans, previous=False):
    rng = random.Random(seed)
    turns = face_turns(n)
    first, final = Counter(), Counter()
    anchor = wild = clean_exact = reread = 0
    times = []
    for _ in range(count):
        state = apply(solved(n), [rng.choice(turns) for _ in range(SCRAMBLE)], n)
        sensor = SensorModel(random.Random(rng.random()), level)
        scan = sensor.scan(state, n, samples)
        is_wild = sensor.wild_count > 0
        wild += is_wild
        anchor += same_cube(nearest_only(scan), state)
        one, last, k = resolve_with_rescans(sensor, state, n, scan, max_rescans, times,
                                            resolve_counts if previous else resolve)
        first[one] += 1
        final[last] += 1
        reread += k
        clean_exact += one == "exact" and not is_wild
    times.sort()
    pct = lambda k: 100.0 * k / count  # noqa: E731
    return {"n": n, "level": level, "samples": samples, "count": count, "seed": seed,
            "wrong_n": first["wrong"], "final_wrong_n": final["wrong"],
            "exact": pct(first["exact"]), "doubtful": pct(first["doubtful"]),
            "wrong": pct(first["wrong"]), "anchor": pct(anchor), "wild": pct(wild),
            "clean_exact": "{:.1f}%".format(100.0 * clean_exact / (count - wild))
            if count > wild else "n/a",
            "final_exact": pct(final["exact"]), "final_wrong": pct(final["wrong"]),
            "reread": float(reread) / count,
            "median_ms": 1000.0 * times[len(times) // 2], "max_ms": 1000.0 * times[-1]}


def _run_row(task):
    return run(*task)


def summary(rows):
    """The headline: scans in all, wrong cubes returned silently, and where."""
    total = sum(r["count"] for r in rows)
    first = sum(r["wrong_n"] for r in rows)
    final = [r for r in rows if r["final_wrong_n"]]
    where = "; ".join("{n}x{n}x{n} {level} noise, {samples} sample(s): {final_wrong_n} of {count}".format(**r)
                      for r in final)
    return ("In all: {} synthetic scans; {} wrong cubes returned silently by the first resolve; {} after "
            "the rescan loop{}.".format(total, first, sum(r["final_wrong_n"] for r in final),
                                        " ({})".format(where) if where else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="scans per 2x2x2/3x3x3 row")
    parser.add_argument("--samples-count", type=int, default=300,
                        help="scans per row with 3 samples per facelet")
    parser.add_argument("--big-count", type=int, default=1000, help="scans per 4x4x4/5x5x5 row")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=LEVELS)
    parser.add_argument("--samples", type=int, nargs="+", default=[1, 3],
                        help="samples per facelet, one row each")
    parser.add_argument("--jobs", type=int, default=1,
                        help="rows run in this many processes at once (the rows and their "
                             "seeds are the same whatever the number)")
    parser.add_argument("--no-record", action="store_true", help="print only")
    parser.add_argument("--previous", action="store_true",
                        help="resolve with the previous resolver (resolve.resolve_counts, the EV3 "
                             "count model alone) instead, to compare on the same scans (not recorded)")
    args = parser.parse_args()
    if args.previous:
        args.no_record = True
    rows = []
    max_rescans = Config().max_rescans
    plan = [(n, level, samples) for n in (2, 3, 4, 5) for samples in (1, 3) for level in LEVELS]
    todo = []
    for k, (n, level, samples) in enumerate(plan):
        if n not in args.sizes or level not in args.levels or samples not in args.samples:
            continue
        if samples > 1:
            count = args.samples_count
        else:
            count = args.big_count if n > 3 else args.count
        todo.append((n, level, count, samples, 1000 + k, max_rescans, args.previous))
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    results = pool.imap(_run_row, todo) if pool else map(_run_row, todo)
    for row in results:
        rows.append(row)
        print("{n}x{n}x{n} {level:8s} samples={samples} n={count}: exact {exact:.1f}% "
              "doubtful {doubtful:.1f}% wrong {wrong:.1f}% | with a wild reading {wild:.1f}%, exact "
              "without {clean_exact} | after rescans exact {final_exact:.1f}% wrong {final_wrong:.1f}% "
              "({reread:.2f} facelets reread) | nearest-only {anchor:.1f}% | "
              "median {median_ms:.1f} ms, max {max_ms:.0f} ms".format(**row))
        sys.stdout.flush()
    if pool:
        pool.close()
        pool.join()
    lines = [
        "## Colour resolution (`bench/colors.py`)",
        "",
        "`python bench/colors.py`, run {} on this machine (shared, so CPU time per resolve). "
        "**Synthetic** scans, not real ones: random cubes ({} random face turns from solved) read "
        "by the simulated sensor of `robot/hw/sim/sensor_model.py` at the noise preset of each row, "
        "a fresh simulated sensor per scan, no calibration profile. The presets (its PRESETS): {}. Each row "
        "has its own seed (column *seed*). *Wrong* = a wrong cube returned without a report "
        "(target 0). *Nearest-only* is a baseline computed here: each facelet alone to its "
        "nearest colour, how robots without the cube's constraints read.".format(
            datetime.date.today().isoformat(), SCRAMBLE, "; ".join(
                "{} {}".format(level, ", ".join("{} {}".format(k, v) for k, v in sorted(PRESETS[level].items())))
                for level in LEVELS)),
        "",
        "*Wild* = scans with at least one wild reading (another colour's reading or junk, "
        "`SensorModel.wild_count`); *exact w/o wild* = % exact among the other scans. "
        "*After rescans*: the robot's loop (robot/job/scan.py): the facelets a report names, "
        "plus those whose own samples disagree, are read {} more times each at displaced "
        "spots and the scan is resolved again, at most {} times (config `max_rescans`); "
        "*reread* = facelets read again per scan. Times are per resolve call.".format(
            RESCAN_SAMPLES, max_rescans),
        "",
        "| cube | noise | samples/facelet | seed | scans | exact | reported doubtful | wrong | "
        "wild | exact w/o wild | exact after rescans | wrong after rescans | reread | "
        "nearest-only exact | median ms | max ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append("| {n}x{n}x{n} | {level} | {samples} | {seed} | {count} | {exact:.1f}% | {doubtful:.1f}% | "
                     "{wrong:.1f}% | {wild:.1f}% | {clean_exact} | {final_exact:.1f}% | "
                     "{final_wrong:.1f}% | {reread:.2f} | {anchor:.1f}% | "
                     "{median_ms:.1f} | {max_ms:.0f} |".format(**r))
    lines += ["", summary(rows)]
    print(lines[-1])
    if not args.no_record and len(rows) == len(plan):
        record("colors", "\n".join(lines))


if __name__ == "__main__":
    main()
