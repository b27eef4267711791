"""Re-run bench scripts into a copy of docs/benchmarks.md and show what changed besides times.

For each chosen section, the command it names (the first `python bench/...`
or `bench/...` in backquotes) runs again from the checkout, writing into a
temporary copy of docs/benchmarks.md (bench/record.py honours
$CUBEBOT_BENCH_DOC); then the section is compared with the committed one
with the things a re-run may change masked:

- dates (YYYY-MM-DD) and load averages;
- figures with a time unit (ms, s, us, min; a range such as 2.1-6.4 s too);
- whole table columns whose header names a time (ms, s, time, wall, seconds)
  or CPU, or says the column "varies" (e.g. bytes of JSON that carries times);
- memory figures (MB, KiB, kB, and bare numbers in a column headed "(MB)") count as the same within MEMORY_TOLERANCE or
  MEMORY_SLACK_MB (a process's Pss shifts with what else on the machine maps
  the same libraries);
- lines that say "time-bounded" (a search given a time budget finds more or
  less with the machine's load, so its counts move too; the scripts label
  such rows) are masked whole.

It prints, per section, "same" or the committed and new lines that differ,
and exits 1 if any section changed or a script failed. The committed file
is never written.

Usage: python bench/rerun_check.py [SECTION ...] [--list] [--keep FILE] [--timeout S]
Without SECTION: the cheap set DEFAULT_SECTIONS.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if TOP not in sys.path:
    sys.path.insert(0, TOP)

from bench import record as record_mod  # noqa: E402

DEFAULT_SECTIONS = ("robot", "planner", "serial", "solver", "deploy", "brick", "heldout-2", "heldout-3")
MEMORY_TOLERANCE = 0.10       # memory figures this close (relative) count as the same,
MEMORY_SLACK_MB = 1.5         # ... or this close: Pss shifts with what else maps the same libraries
TIMEOUT_S = 3600              # one script at most
TIME_BOUNDED = "time-bounded"  # the mark of a line whose counts depend on a time budget
PROVENANCE = "Measured at "    # record.py's line naming the commit and date: differs by run

_SECTION = re.compile(r"<!-- bench:(?P<name>[^ ]+) -->\n(?P<body>.*?)\n<!-- /bench:(?P=name) -->", re.S)
_COMMAND = re.compile(r"`((?:nice )?(?:python )?bench/[a-z0-9_]+\.py[^`]*)`")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_NUM = r"\d+(?:\.\d+)?"
_TIME = re.compile(r"(?:x)?{0}(?:\s?(?:-|to|/)\s?{0})*\s?(?:ms|s|us|min|seconds)\b".format(_NUM))
_LOAD = re.compile(r"(?i)load(?: average)?[^;|\n]*")
_MEMORY = re.compile(r"({0})\s?(MB|KiB|kB|KB)\b".format(_NUM))
_TIME_HEADER = re.compile(r"(?i)\bms\b|\bs\b|time|wall|seconds|\bcpu\b|\bus\b|\bvaries\b")
_MEMORY_HEADER = re.compile(r"\(MB\)")       # a column of bare numbers in MB, e.g. "peak (MB)"
_BARE_NUMBER = re.compile(r"^\s*({0})\s*$".format(_NUM))


def sections(text):
    """{name: body} of every recorded section."""
    return dict((m.group("name"), m.group("body")) for m in _SECTION.finditer(text))


def command_of(body):
    """The argv a section names for itself, or None."""
    m = _COMMAND.search(body)
    if not m:
        return None
    words = shlex.split(m.group(1))
    if words[0] == "nice":                  # niced only to share the machine: run it plainly
        words = words[1:]
    if words[0] == "python":
        words = words[1:]
    return [sys.executable] + words


def _mask_line(line, time_columns, memory_columns=()):
    """(masked text, memory figures) of one line; time_columns: indices of table cells to drop;
    memory_columns: indices of cells whose bare numbers are MB figures."""
    if TIME_BOUNDED in line:
        return "<time-bounded>", []
    if line.startswith(PROVENANCE):
        return PROVENANCE, []
    column_memory = []
    if line.startswith("|") and (time_columns or memory_columns):
        cells = line.strip().strip("|").split("|")
        for i, c in enumerate(cells):
            bare = _BARE_NUMBER.match(c)
            if i in time_columns:
                cells[i] = "<time>"
            elif i in memory_columns and bare:
                column_memory.append(float(bare.group(1)))
                cells[i] = "<MB>"
        line = "|" + "|".join(cells) + "|"
    line = _DATE.sub("<date>", line)
    line = _LOAD.sub("<load>", line)
    line = _TIME.sub("<time>", line)
    memory = column_memory + [float(m.group(1)) / (1.0 if m.group(2) == "MB" else 1024.0)
                              for m in _MEMORY.finditer(line)]
    line = _MEMORY.sub(r"<\2>", line)
    return line, memory


def masked(body):
    """[(original line, masked line, memory figures)] of a section."""
    out, time_columns, memory_columns = [], set(), set()
    for line in body.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if set("".join(cells)) <= set("-: "):
                out.append((line, line, []))
                continue
            if not out or not out[-1][0].startswith("|"):           # a header row
                time_columns = set(i for i, c in enumerate(cells) if _TIME_HEADER.search(c))
                memory_columns = set(i for i, c in enumerate(cells) if _MEMORY_HEADER.search(c))
        else:
            time_columns, memory_columns = set(), set()
        text, memory = _mask_line(line, time_columns, memory_columns)
        out.append((line, text, memory))
    return out


def _same_memory(a, b):
    return len(a) == len(b) and all(abs(x - y) <= max(MEMORY_SLACK_MB, MEMORY_TOLERANCE * max(abs(x), abs(y)))
                                    for x, y in zip(a, b))


def compare(old, new):
    """[(old line or None, new line or None)] that differ after masking; [] if the same."""
    import difflib
    a, b = masked(old), masked(new)
    matcher = difflib.SequenceMatcher(None, [t for _, t, _ in a], [t for _, t, _ in b], autojunk=False)
    diffs = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            for k in range(i2 - i1):
                if not _same_memory(a[i1 + k][2], b[j1 + k][2]):
                    diffs.append((a[i1 + k][0], b[j1 + k][0]))
            continue
        olds, news = a[i1:i2], b[j1:j2]
        for k in range(max(len(olds), len(news))):
            diffs.append((olds[k][0] if k < len(olds) else None, news[k][0] if k < len(news) else None))
    return diffs


def rerun(name, committed, copy, timeout):
    """(status, detail lines) of re-running the section `name` into `copy`."""
    body = committed.get(name)
    if body is None:
        return "missing", ["no section {!r} in the committed file".format(name)]
    argv = command_of(body)
    if argv is None:
        return "no command", ["the section names no `python bench/...` command"]
    env = dict(os.environ, **{record_mod.DOC_ENV: copy})
    started = time.monotonic()
    try:
        done = subprocess.run(argv, cwd=TOP, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "failed", ["{} ran over {} s".format(" ".join(argv[1:]), timeout)]
    took = time.monotonic() - started
    head = "{} ({:.0f} s)".format(" ".join(["python"] + argv[1:]), took)
    if done.returncode != 0:
        return "failed", [head, "exit {}: {}".format(done.returncode, done.stderr.strip()[-400:])]
    with open(copy) as fh:
        new = sections(fh.read()).get(name)
    if new is None:
        return "failed", [head, "the script did not record the section"]
    diffs = compare(body, new)
    if not diffs:
        return "same", [head]
    lines = [head]
    for old, fresh in diffs:
        lines.append("  - " + (old if old is not None else "(no line)"))
        lines.append("  + " + (fresh if fresh is not None else "(no line)"))
    return "changed", lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", metavar="SECTION")
    parser.add_argument("--list", action="store_true", help="list the sections and their commands")
    parser.add_argument("--keep", metavar="FILE", help="also save the re-run copy as FILE")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_S)
    parser.add_argument("--doc", default=record_mod.DOC, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    with open(args.doc) as fh:
        text = fh.read()
    committed = sections(text)
    if args.list:
        for name in committed:
            argv_ = command_of(committed[name])
            print("{:<22} {}".format(name, " ".join(["python"] + argv_[1:]) if argv_ else "(names no command)"))
        return 0
    chosen = args.sections or list(DEFAULT_SECTIONS)
    work = tempfile.mkdtemp(prefix="rerun-check-")
    copy = os.path.join(work, "benchmarks.md")
    with open(copy, "w") as fh:
        fh.write(text)
    worst = 0
    try:
        for name in chosen:
            status, lines = rerun(name, committed, copy, args.timeout)
            print("{}: {}".format(name, status))
            for line in lines:
                print("  " + line)
            sys.stdout.flush()
            worst = max(worst, 0 if status == "same" else 1)
        if args.keep:
            shutil.copyfile(copy, args.keep)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return worst


if __name__ == "__main__":
    sys.exit(main())
