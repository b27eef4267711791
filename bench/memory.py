"""Peak memory of a command's whole process tree, sampled from outside.

peak_pss(argv) runs argv and every SAMPLE_S seconds sums the Pss of every
process in its tree (/proc/PID/smaps_rollup: forked children share pages
copy-on-write and Pss counts each page once). Returns a Peak: the summed Pss
at its highest (MB), the largest single-process Rss (MB), the wall time (s)
and the exit code. This is the native (x86-64) counterpart of
`bench/arm_memory.py measure`'s guest_peak_pss_all_mb. Linux only.

Pss counts the table pages a process maps, not those it reads with pread
(solver.tables.ReadDenseTable): those sit in the page cache, which the brick's
free memory holds too. evict_cache(files) drops the files' pages from the cache
before a run and cached_mb(files) counts what the run brought back in (through
util-linux's fincore), so a figure can name both.

Usage: python bench/memory.py CMD ARGS...   (prints the figures)
"""

import collections
import os
import subprocess
import sys
import time

SAMPLE_S = 0.005               # seconds between samples
KB_PER_MB = 1024.0

Peak = collections.namedtuple("Peak", ["pss_all_mb", "rss_one_mb", "wall_s", "returncode"])


def table_files(folder):
    """The table files (*.bin) of a tables folder, sorted."""
    return sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".bin"))


def evict_cache(files):
    """Drop the clean page-cache pages of `files` (posix_fadvise DONTNEED)."""
    for path in files:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def cached_mb(files):
    """MB of `files` in the page cache now (fincore), or None where fincore is missing."""
    if not files:
        return 0.0
    try:
        out = subprocess.run(["fincore", "--bytes", "--noheadings", "--output", "RES"] + list(files),
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             universal_newlines=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return sum(int(word) for word in out.split()) / KB_PER_MB / KB_PER_MB


def _children():
    kids = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as fh:
                text = fh.read()
            parent = int(text[text.rindex(")") + 2:].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        kids.setdefault(parent, []).append(int(d))
    return kids


def tree(root):
    """root and every process below it."""
    kids = _children()
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, ()))
    return out


def rss_pss_kb(pid):
    """(Rss, Pss) of one process in kB."""
    rss = pss = 0
    with open("/proc/%d/smaps_rollup" % pid) as fh:
        for line in fh:
            if line.startswith("Rss:"):
                rss = int(line.split()[1])
            elif line.startswith("Pss:"):
                pss = int(line.split()[1])
    return rss, pss


def peak_pss(argv, stdin=None, stdout=subprocess.DEVNULL, env=None):
    """Run argv to the end, sampling its tree; a Peak."""
    started = time.monotonic()
    child = subprocess.Popen(argv, stdin=stdin, stdout=stdout, env=env)
    peak_all = peak_one = 0
    while child.poll() is None:
        now = 0
        for pid in tree(child.pid):
            try:
                rss, pss = rss_pss_kb(pid)
            except OSError:
                continue
            now += pss
            peak_one = max(peak_one, rss)
        peak_all = max(peak_all, now)
        time.sleep(SAMPLE_S)
    return Peak(peak_all / KB_PER_MB, peak_one / KB_PER_MB, time.monotonic() - started,
                child.returncode)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        sys.stderr.write("usage: python bench/memory.py CMD ARGS...\n")
        return 2
    peak = peak_pss(argv, stdout=None)
    print("peak_pss_all_mb={:.1f} peak_rss_one_mb={:.1f} wall_s={:.2f} exit={}".format(*peak))
    return 0


if __name__ == "__main__":
    sys.exit(main())
