"""Write one benchmark's section into docs/benchmarks.md (atomically).

Each benchmark owns the text between `<!-- bench:NAME -->` and
`<!-- /bench:NAME -->`, ending with a line that names the commit measured and the date;
other sections are left as they are. The environment
variable CUBEBOT_BENCH_DOC names another file to write instead (bench/rerun_check.py
runs the scripts into a copy and compares).
"""

import datetime
import os
import subprocess
import tempfile

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "benchmarks.md")
DOC_ENV = "CUBEBOT_BENCH_DOC"
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def provenance():
    """One line naming the commit measured and the date: `Measured at `abc1234` on 2026-11-28.`

    "(with uncommitted changes)" follows the commit when the tree differs from it."""
    def git(*args):
        try:
            return subprocess.check_output(("git", "-C", TOP) + args, stderr=subprocess.DEVNULL,
                                           universal_newlines=True).strip()
        except (OSError, subprocess.CalledProcessError):
            return ""
    commit = git("rev-parse", "--short=7", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "solver", "robot", "bench", "tables")
    return "Measured at `%s`%s on %s." % (commit, " (with uncommitted changes)" if dirty else "",
                                          datetime.date.today().isoformat())


def record(name, markdown, path=None):
    """Replace (or append) the section `name` with `markdown` (in `path`, else $CUBEBOT_BENCH_DOC,
    else docs/benchmarks.md)."""
    if path is None:
        path = os.environ.get(DOC_ENV) or DOC
    begin, end = "<!-- bench:%s -->" % name, "<!-- /bench:%s -->" % name
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    block = "%s\n%s\n\n%s\n%s" % (begin, markdown.strip(), provenance(), end)
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        tail = rest.split(end, 1)[1]
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".benchmarks.")
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)
