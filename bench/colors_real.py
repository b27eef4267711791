"""Colour resolution on real recorded scans (tests/data/real-scans), by sensor and size.

Every scan of the manifest is resolved with cubebot.robot.colour.resolve.resolve (no
calibration profile) and counted as *exact* (the labelled cube up to a
renaming of the colours), *resolved* (a valid cube, no label to check it
against), *reported* (ScanUnresolved: facelets named for a rescan) or
*wrong* (a cube unlike its label returned without a report: target 0).
Median CPU ms per resolve (time.process_time: the machine is shared).

Usage: python bench/colors_real.py [DIR ...] [--no-record]
(DIR: folders holding a manifest.json in the format of tests/data/real-scans;
default that folder; only the default run is recorded)
"""

import argparse
import datetime
import json
import os
import sys
import time
from collections import Counter, OrderedDict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.colors import same_cube  # noqa: E402
from bench.record import record  # noqa: E402
from cubebot.robot.colour.resolve import resolve, resolve_counts  # noqa: E402
from cubebot.robot.errors import ScanUnresolved  # noqa: E402
from cubebot.robot.colour.scanfile import parse_scan  # noqa: E402

DEFAULT = os.path.join(ROOT, "tests", "data", "real-scans")


def sensor_group(sensor):
    """The benchmark's sensor column: EV3 (RGB-RAW counts), leJOS (floats or x256), webcam."""
    if sensor.startswith("EV3"):
        return "EV3 RGB-RAW"
    if sensor.startswith("leJOS"):
        return "leJOS RGB"
    return sensor


def outcome(entry, directory, resolver=resolve):
    """(outcome, CPU seconds) of one scan of the manifest."""
    with open(os.path.join(directory, entry["file"])) as fh:
        readings, n = parse_scan(fh.read())
    start = time.process_time()
    try:
        result = resolver(readings, n)
    except ScanUnresolved:
        return "reported", time.process_time() - start
    took = time.process_time() - start
    if entry.get("truth") is None:
        return "resolved", took
    return ("exact" if same_cube(result.state, entry["truth"]) else "wrong"), took


def run(directories):
    rows = OrderedDict()
    for directory in directories:
        with open(os.path.join(directory, "manifest.json")) as fh:
            manifest = json.load(fh)
        for entry in manifest:
            result, took = outcome(entry, directory)
            old, old_took = outcome(entry, directory, resolve_counts)
            key = (sensor_group(entry["sensor"]), entry["size"])
            row = rows.setdefault(key, {"scans": 0, "labelled": 0, "exact": 0, "resolved": 0,
                                        "reported": 0, "wrong": 0, "times": [], "old": Counter(),
                                        "old_times": []})
            row["scans"] += 1
            row["labelled"] += entry.get("truth") is not None
            row[result] += 1
            row["times"].append(took)
            row["old"][old] += 1
            row["old_times"].append(old_took)
            print("{:48s} {}x{}x{} {:22s} {:9s} {:6.0f} ms | previous: {:9s} {:6.0f} ms".format(
                entry["file"], entry["size"], entry["size"], entry["size"], entry["sensor"][:22],
                result, 1000 * took, old, 1000 * old_took))
            sys.stdout.flush()
    return rows


def _median(values):
    values = sorted(values)
    return values[len(values) // 2]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", default=[DEFAULT])
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args(argv)
    rows = run(args.dirs)
    lines = [
        "## Colour resolution on real scans (`bench/colors_real.py`)",
        "",
        "Run {} on this machine (shared, so CPU time per resolve). The real scans of "
        "`tests/data/real-scans` (public EV3 robots and webcam trackers; sources and labels in "
        "its manifest), no calibration profile. *Exact*: the labelled cube up to a renaming of "
        "the colours; *resolved*: a valid cube for a scan without a label; *reported*: named "
        "facelets to rescan; *wrong*: a cube unlike its label without a report (target 0).".format(
            datetime.date.today().isoformat()),
        "",
        "*Previous*: the previous version's resolver (the EV3 count model alone, "
        "`resolve.resolve_counts`) on the same scans in the same run, as the anchor for the "
        "outcomes and the times.",
        "",
        "| sensor | cube | scans | labelled | exact | resolved (no label) | reported | wrong | "
        "previous: exact / resolved / reported / wrong | median ms | previous median ms | max ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    total = dict((k, 0) for k in ("scans", "labelled", "exact", "resolved", "reported", "wrong"))
    old_total = Counter()
    by_size = {}
    for (sensor, n), r in sorted(rows.items()):
        times = sorted(r["times"])
        lines.append("| {} | {n}x{n}x{n} | {} | {} | {} | {} | {} | {} | {} / {} / {} / {} | {:.0f} | "
                     "{:.0f} | {:.0f} |".format(
                         sensor, r["scans"], r["labelled"], r["exact"], r["resolved"], r["reported"],
                         r["wrong"], r["old"]["exact"], r["old"]["resolved"], r["old"]["reported"],
                         r["old"]["wrong"], 1000 * _median(times), 1000 * _median(r["old_times"]),
                         1000 * times[-1], n=n))
        for key in total:
            total[key] += r[key]
        old_total.update(r["old"])
        size = by_size.setdefault(n, ([], []))
        size[0].extend(r["times"])
        size[1].extend(r["old_times"])
    lines.append("| all | | {scans} | {labelled} | {exact} | {resolved} | {reported} | {wrong} | "
                 .format(**total) + "{} / {} / {} / {} | | | |".format(
                     old_total["exact"], old_total["resolved"], old_total["reported"],
                     old_total["wrong"]))
    lines += ["", "Resolve time by size (CPU ms, all sensors; this resolver and the previous one, "
              "same run):", "",
              "| cube | scans | median ms | max ms | previous median ms | previous max ms |",
              "|---|---|---|---|---|---|"]
    for n, (new, old) in sorted(by_size.items()):
        lines.append("| {n}x{n}x{n} | {} | {:.0f} | {:.0f} | {:.0f} | {:.0f} |".format(
            len(new), 1000 * _median(new), 1000 * max(new), 1000 * _median(old), 1000 * max(old),
            n=n))
    text = "\n".join(lines)
    print(text)
    if not args.no_record and args.dirs == [DEFAULT]:
        record("colors-real", text)


if __name__ == "__main__":
    main()
