"""The README's results table, generated from the records of docs/benchmarks.md.

Each figure names the record it comes from: a section of docs/benchmarks.md, a table row
(by the start of its first cell) and a column (by its header), or a pattern in the section's
text. The anchors come from the table "Anchors" of docs/references.md, one row a size. The
table sits in README.md between `<!-- figures:results -->` and `<!-- /figures:results -->`.

--write rewrites that block; --check (the default) prints every line that differs from what
the records give and exits 1. tests/docs/test_figures.py runs the check.

Usage: python bench/readme_figures.py [--write | --check] [--readme FILE] [--doc FILE]
"""

import argparse
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if TOP not in sys.path:
    sys.path.insert(0, TOP)

from bench import rerun_check  # noqa: E402

README = os.path.join(TOP, "README.md")
BENCHMARKS = os.path.join(TOP, "docs", "benchmarks.md")
REFERENCES = os.path.join(TOP, "docs", "references.md")
BLOCK = "results"
BEGIN, END = "<!-- figures:{} -->", "<!-- /figures:{} -->"


class FigureError(Exception):
    """A record does not hold the figure asked of it (renamed row, column or section)."""


def tables(text):
    """Every markdown table of `text` as (header cells, [row cells])."""
    out, header, rows = [], None, []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
            elif not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif header is not None:
            out.append((header, rows))
            header, rows = None, []
    return out


def cell(text, row, column):
    """The cell of the row whose first cell starts with `row`, in the column headed `column`."""
    for header, rows in tables(text):
        if column in header:
            for cells in rows:
                if cells[0].startswith(row):
                    return cells[header.index(column)]
    raise FigureError("no row {!r} under a column {!r}".format(row, column))


def found(text, pattern):
    match = re.search(pattern, text)
    if not match:
        raise FigureError("no {!r}".format(pattern))
    return match.group(1)


def first(value):
    """The first of "a / b / c"."""
    return value.split("/")[0].strip()


ARM_RECORDS = ("brick-memory", "brick-memory-core", "brick-memory-big")   # the 32-bit ARM figures


def arm_peak(sections, size):
    """The 32-bit ARM peak of one solve: from "brick-memory-core" or "brick-memory-big" (the
    default path) where one of them has the size, else from "brick-memory"."""
    row = "`cubebot solve`, {0}x{0}x{0}".format(size)
    for name in ARM_RECORDS[1:]:
        if name in sections:
            try:
                return cell(sections[name], row + ", default path", "32-bit ARM peak (MB)")
            except FigureError:
                pass
    return cell(sections["brick-memory"], row, "32-bit ARM peak (MB)")


def solver_row(sections, size):
    """(moves, time, memory here, memory on 32-bit ARM) of one size, each from its record."""
    arm = arm_peak(sections, size)
    if size in (2, 3):
        text, row = sections["solver"], "2x2x2 htm" if size == 2 else "3x3x3 default"
        moves = cell(text, row, "mean moves")
        median = "{:.2g} ms".format(float(cell(text, row, "median ms")))
        label = "2x2x2" if size == 2 else "3x3x3 default"
        memory = found(text, r"peak RSS of `cubebot solve` \({}\): ([\d.]+ MB)".format(re.escape(label)))
        return moves, median, memory, arm + " MB"
    name = {4: "solver4", 5: "solver5", 6: "solver-big-6", 7: "solver-big-7"}[size]
    text = sections[name]
    moves = first(cell(text, "mean / max moves", "value"))
    median = first(cell(text, "median / p95 / max time", "value"))
    memory = cell(text, "peak RSS of `cubebot solve`", "value")
    return moves, median, memory, arm + " MB"


def anchors(references):
    """{size: (anchor, mean moves, time)} from the table "Anchors" of docs/references.md."""
    part = references.split("## Anchors", 1)[1].split("\n## ", 1)[0]
    out = {}
    for header, rows in tables(part):
        if "size" in header and "mean moves" in header:
            for cells in rows:
                size = int(cells[0][0])
                out.setdefault(size, (cells[header.index("anchor")], cells[header.index("mean moves")],
                                      cells[header.index("time")]))
    if not out:
        raise FigureError("docs/references.md has no table of anchors")
    return out


def results(sections, references):
    """The lines of the README's results block."""
    cited = anchors(references)
    lines = ["| cube | mean moves | median time here | peak RSS here | 32-bit ARM, one solve (PSS) "
             "| anchor: mean moves (time) |", "|---|---|---|---|---|---|"]
    for size in range(2, 8):
        moves, median, memory, arm = solver_row(sections, size)
        who, mean, took = cited[size]
        lines.append("| {0}x{0}x{0} | {1} | {2} | {3} | {4} | {5}{6}: {7} |".format(
            size, moves, median, memory, arm, mean, " ({})".format(took) if took else "", who))
    robot = sections["robot"].split("### 3x3x3", 1)[1].split("### ", 1)[0]
    total, scan, turning, check = (first(cell(robot, row, "mean"))
                                   for row in ("total", "scan", "turning", "check at the end"))
    lines += ["", "A whole 3x3x3 run of the simulated robot is estimated at {} for the real one: "
              "scan {}, turning {}, the check at the end {}, the rest compute (records \"robot\", "
              "\"solver\", \"solver4\", \"solver5\", \"solver-big-6\", \"solver-big-7\", {}).".format(
                  total, scan, turning, check,
                  ", ".join("\"{}\"".format(name) for name in ARM_RECORDS if name in sections))]
    return lines


def generated(readme_text, benchmarks_text, references_text):
    """README text with its results block regenerated."""
    sections = rerun_check.sections(benchmarks_text)
    begin, end = BEGIN.format(BLOCK), END.format(BLOCK)
    if begin not in readme_text or end not in readme_text:
        raise FigureError("README.md has no {} ... {} block".format(begin, end))
    head, rest = readme_text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    return head + begin + "\n" + "\n".join(results(sections, references_text)) + "\n" + end + tail


def differences(readme_text, benchmarks_text, references_text):
    """[(line in README, line the records give)] that differ; [] when the README agrees."""
    fresh = generated(readme_text, benchmarks_text, references_text)
    old, new = readme_text.splitlines(), fresh.splitlines()
    if len(old) != len(new):
        return [("(README block of {} lines)".format(len(old)), "(records give {} lines)".format(len(new)))]
    return [(a, b) for a, b in zip(old, new) if a != b]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite the README's results block")
    mode.add_argument("--check", action="store_true", help="compare only (the default)")
    parser.add_argument("--readme", default=README)
    parser.add_argument("--doc", default=BENCHMARKS)
    parser.add_argument("--references", default=REFERENCES)
    args = parser.parse_args(argv)
    texts = [open(p).read() for p in (args.readme, args.doc, args.references)]
    try:
        if args.write:
            from cubebot.solver.tables import write_atomic
            write_atomic(args.readme, [generated(*texts).encode("utf-8")])
            return 0
        diffs = differences(*texts)
    except (FigureError, KeyError) as exc:
        sys.stderr.write("readme_figures: {}\n".format(exc))
        return 1
    for old, new in diffs:
        print("- " + old)
        print("+ " + new)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
