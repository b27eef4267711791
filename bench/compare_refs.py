"""Before/after: the robot and solver benches of two git refs, side by side.

Each ref is exported (`git archive REF`, no worktree is registered) into a
temporary folder, and that ref's own bench scripts run there with the same
Python, the same tables ($CUBEBOT_TABLES, or --tables) and the same seeds:

  python bench/robot.py --seeds SEEDS --no-record
  python bench/solver.py --n2 N2 --n3 N3 --no-record

Every table row the two runs print is paired by its heading and first cell,
and the section "compare-refs" of docs/benchmarks.md gets one table per
script: the row, the value before, the value after, and whether it changed.
Counts (moves, flips, solved) must not change for a change that moves code
only; times do change with the load, which is printed with each run: a time
(a column such as "median ms" gets its unit) and every figure of a
time-budgeted row (`--budget` in its label) are shown but not compared.

Usage: python bench/compare_refs.py BEFORE AFTER [--seeds 40] [--n2 200] [--n3 40]
                                   [--tables DIR] [--no-record]
"""

import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if TOP not in sys.path:
    sys.path.insert(0, TOP)

from bench.record import record  # noqa: E402


def export(ref, into):
    """The tree of `ref` written into the folder `into` (through git archive)."""
    archive = os.path.join(into, "tree.tar")
    with open(archive, "wb") as fh:
        subprocess.check_call(["git", "archive", "--format=tar", ref], cwd=TOP, stdout=fh)
    tree = os.path.join(into, "tree")
    os.mkdir(tree)
    with tarfile.open(archive) as tar:
        tar.extractall(tree)
    os.remove(archive)
    return tree


def commit_of(ref):
    return subprocess.check_output(["git", "rev-parse", "--short", ref + "^{commit}"], cwd=TOP,
                                   universal_newlines=True).strip()


def run_script(tree, argv, env):
    """(stdout, load average before, after) of one bench script of the exported tree."""
    load = os.getloadavg()[0]
    out = subprocess.run([sys.executable] + argv, cwd=tree, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True)
    if out.returncode != 0:
        raise RuntimeError("{} failed in {} (exit {}): {}".format(
            " ".join(argv), tree, out.returncode, out.stderr.strip().splitlines()[-1:]))
    return out.stdout, load, os.getloadavg()[0]


TIME_BUDGET = "--budget"                                   # a row label of a time-budgeted run
_UNIT_IN_COLUMN = re.compile(r"\b(ms|s)$")                 # "median ms", "p95 s"
_BARE = re.compile(r"^\d+(?:\.\d+)?$")
_TIME_VALUE = re.compile(r"^\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?\s?(?:ms|s|min)$")


def table_rows(text):
    """{(heading, row label): (header, cells)} of the markdown tables in `text`, in order."""
    rows, order, heading, header = {}, [], "", None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("#"):
            heading = line.lstrip("#").strip().split(" (")[0]       # without a (date, machine) tail
            header = None
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if header is None:
                header = cells
            elif set("".join(cells)) <= set("-: "):
                continue
            else:
                key = (heading, cells[0])
                if key not in rows:
                    order.append(key)
                rows[key] = (header, cells[1:])
        else:
            header = None if not line else header
    return rows, order


def pair(before, after):
    """Markdown rows | table | row | column | before | after | same |, one for each cell of
    every row either run printed (a row missing from one run shows "(none)")."""
    a_rows, a_order = table_rows(before)
    b_rows, b_order = table_rows(after)
    keys = a_order + [k for k in b_order if k not in a_rows]
    lines = ["| table | row | column | before | after | same |", "|---|---|---|---|---|---|"]
    for key in keys:
        heading, label = key
        a, b = a_rows.get(key), b_rows.get(key)
        columns = (a or b)[0][1:]
        for i, column in enumerate(columns):
            va = a[1][i] if a and i < len(a[1]) else "(none)"
            vb = b[1][i] if b and i < len(b[1]) else "(none)"
            if not va and not vb:
                continue
            va, vb = with_unit(va, column), with_unit(vb, column)
            if "(none)" in (va, vb):
                same = "no"                        # a row one run printed and the other did not
            elif TIME_BUDGET in label:
                same = "time-bounded, not compared"   # a search given seconds finds more or less with the load
            elif _TIME_VALUE.search(va) or _TIME_VALUE.search(vb):
                same = "a time, not compared"
            else:
                same = "yes" if va == vb else "no"
            lines.append("| {} | {} | {} | {} | {} | {} |".format(
                heading or "-", label, column, va, vb, same))
    return lines


def with_unit(value, column):
    """`value` with the time unit its column names ("median ms" -> "0.441 ms"), so that a
    reader (and bench/rerun_check.py) sees it is a time; other values unchanged."""
    unit = _UNIT_IN_COLUMN.search(column)
    if unit and _BARE.match(value):
        return "{} {}".format(value, unit.group(1))
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--n2", type=int, default=200)
    parser.add_argument("--n3", type=int, default=40)
    parser.add_argument("--tables", default=os.environ.get("CUBEBOT_TABLES"))
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args(argv)
    if not args.tables:
        parser.error("give --tables DIR or set CUBEBOT_TABLES (both refs must use the same tables)")
    env = dict(os.environ, CUBEBOT_TABLES=os.path.abspath(args.tables))
    env.pop("CUBEBOT_BENCH_DOC", None)
    scripts = [["bench/robot.py", "--seeds", str(args.seeds), "--no-record"],
               ["bench/solver.py", "--n2", str(args.n2), "--n3", str(args.n3), "--no-record"]]
    refs = [(args.before, commit_of(args.before)), (args.after, commit_of(args.after))]
    work = tempfile.mkdtemp(prefix="compare-refs-")
    try:
        trees = []
        for name, _ in refs:
            folder = os.path.join(work, str(len(trees)))
            os.mkdir(folder)
            trees.append(export(name, folder))
        out = ["## Before and after: {} against {} ({}, {}, Python {})".format(
            refs[0][1], refs[1][1], datetime.date.today().isoformat(), platform.machine(),
            platform.python_version()), "",
            "`python bench/compare_refs.py {} {} --seeds {} --n2 {} --n3 {}`: each ref's own bench "
            "scripts, run from an export of that ref with the same tables and seeds; every table row "
            "they print, paired. Counts must match; times move with the load (given per run), and times, "
            "and every figure of a time-budgeted (`--budget`) row, are shown but not compared.".format(
                args.before, args.after, args.seeds, args.n2, args.n3)]
        for script in scripts:
            results = [run_script(tree, script, env) for tree in trees]
            out += ["", "`python {}` (load average before/after: {} {:.1f}/{:.1f}, {} {:.1f}/{:.1f}, "
                    "on {} CPUs):".format(" ".join(script), refs[0][1], results[0][1], results[0][2],
                                          refs[1][1], results[1][1], results[1][2], os.cpu_count()), ""]
            out += pair(results[0][0], results[1][0])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = "\n".join(out) + "\n"
    print(text)
    if not args.no_record:
        record("compare-refs", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
