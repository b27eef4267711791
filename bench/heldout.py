"""Held-out runner: random states solved by `cubebot solve --batch -`, checked by an independent model.

The states are made by bench/cube3d.py (which shares no code with solver/):
from the solved cube, LENGTH random single-layer turns of any layer of any axis
(inner slices and, on odd cubes, the middle slice included, so the centres move
and the whole cube ends in any orientation), no two in a row on one axis,
drawn from random.Random(SEED). LENGTH is 25 for N <= 3 and 20*N above (the
WCA scrambles 40 moves on the 4x4x4 and 60 on the 5x5x5). The default seeds
(SEED_BASE + N) are used by no test and no other bench.

They are piped, one line at a time, into one `cubebot solve --batch -`
subprocess (the console entry as a user runs it: `python -m cubebot`); the wall
time per state is from writing its line to reading its answer line. A sampler
reads the Pss of the process and all its descendants (forked search children
included; /proc/PID/smaps_rollup, shared pages counted once) every SAMPLE_S
seconds and keeps the largest sum, and the largest single-process Rss.
Every answer is applied back to its state by bench/cube3d.py and must leave
each face one colour; its length is counted there too (every non-rotation turn
is 1, as the project's htm/obtm count on big cubes) and must equal what the
solver reports.

Usage: python bench/heldout.py --size N [--count K] [--seed S] [--budget S] [--metric htm|qtm] [--no-record]
Writes the section "heldout-N" of docs/benchmarks.md (unless --no-record); exit 1 if any
state was not solved or an answer did not check.
"""

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if TOP not in sys.path:
    sys.path.insert(0, TOP)

from bench import cube3d, memory  # noqa: E402
from bench.record import record  # noqa: E402

SEED_BASE = 19190           # default seed = SEED_BASE + N; no test or other bench uses 19192..19197
SAMPLE_S = 0.02             # the RSS sampler reads the tree's resident sets this often
TREE_S = 0.25               # and finds the tree's processes again this often


def scramble_length(n):
    return 25 if n <= 3 else 20 * n


def heldout_states(n, count, seed):
    """(state, scramble tokens) pairs made by the independent model."""
    rng = random.Random(seed)
    solved = "".join(face * n * n for face in cube3d.FACE_ORDER)
    out = []
    for _ in range(count):
        tokens = cube3d.random_layer_turns(n, rng, scramble_length(n))
        out.append((cube3d.apply(solved, tokens), tokens))
    return out


def pss_rss_kb(pids):
    """(summed Pss, largest single Rss) in kB of the processes `pids` that still exist."""
    pss_all = rss_one = 0
    for pid in pids:
        try:
            rss, pss = memory.rss_pss_kb(pid)
        except (IOError, OSError, ValueError):
            continue
        pss_all, rss_one = pss_all + pss, max(rss_one, rss)
    return pss_all, rss_one


class TreeSampler(threading.Thread):
    """Keeps the largest summed Pss of `pid` and its descendants (and the largest
    single Rss) seen until stopped.

    Pss counts a page shared copy-on-write by forked children once, as the
    brick's 64 MB does (`bench/arm_memory.py measure`'s guest_peak_pss_all_mb); a sum of
    Rss would count it in every child. The figures are read every SAMPLE_S; the
    process tree (a scan of all of /proc, some ms) is found again every TREE_S,
    often enough for the solver's forked search children, which live for the
    length of a search.
    """

    def __init__(self, pid):
        threading.Thread.__init__(self, daemon=True)
        self.pid, self.peak_kb, self.rss_one_kb, self.samples = pid, 0, 0, 0
        self._stop_event = threading.Event()

    def run(self):
        pids, next_scan = [self.pid], 0.0
        while not self._stop_event.is_set():
            now = time.monotonic()
            if now >= next_scan:
                pids, next_scan = memory.tree(self.pid), now + TREE_S
            pss_all, rss_one = pss_rss_kb(pids)
            self.peak_kb, self.rss_one_kb = max(self.peak_kb, pss_all), max(self.rss_one_kb, rss_one)
            self.samples += 1
            self._stop_event.wait(SAMPLE_S)

    def stop(self):
        self._stop_event.set()
        self.join()


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def turn_count(tokens):
    return sum(1 for t in tokens if t.rstrip("'2") not in ("x", "y", "z"))


def solve_argv(budget=None, metric="htm"):
    """The `cubebot solve --batch -` command line the runner starts."""
    argv = [sys.executable, "-m", "cubebot", "solve", "--batch", "-", "--metric", metric]
    if budget is not None:
        argv += ["--budget", "%g" % budget]
    return argv


def run(n, count, seed, budget=None, metric="htm", argv=None):
    """Solve the held-out states with `argv` (default solve_argv()); a dict of results."""
    cases = heldout_states(n, count, seed)
    if argv is None:
        argv = solve_argv(budget, metric)
    start = time.perf_counter()
    child = subprocess.Popen(argv, cwd=TOP, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, universal_newlines=True)
    sampler = TreeSampler(child.pid)
    sampler.start()
    walls, lengths, reported, failures = [], [], [], []
    try:
        child.stdin.write(cube3d.Cube.solved(n).facelets() + "\n")     # start-up, not counted
        child.stdin.flush()
        first = child.stdout.readline()
        startup_s = time.perf_counter() - start
        if not first or json.loads(first).get("moves") != []:
            failures.append((-1, "the solved cube sent first did not come back solved: " + first.strip()))
        for k, (state, _) in enumerate(cases):
            t = time.perf_counter()
            child.stdin.write(state + "\n")
            child.stdin.flush()
            line = child.stdout.readline()
            walls.append(time.perf_counter() - t)
            if not line:
                failures.append((k, "no answer (the process ended)"))
                break
            answer = json.loads(line)
            if answer.get("state") != state:
                failures.append((k, "answer for another state"))
            elif "error" in answer:
                failures.append((k, "error: " + answer["error"]))
            elif not cube3d.solves(state, answer["moves"]):
                failures.append((k, "moves do not solve it: " + " ".join(answer["moves"])))
            else:
                lengths.append(turn_count(answer["moves"]))
                reported.append(answer["length"])
                if metric == "htm" and lengths[-1] != answer["length"]:
                    failures.append((k, "reported length %d, counted %d" % (answer["length"], lengths[-1])))
        child.stdin.close()
        stderr = child.stderr.read()
        code = child.wait()
    finally:
        sampler.stop()
        if child.poll() is None:
            child.kill()
            child.wait()
    return {"n": n, "count": count, "seed": seed, "budget": budget, "metric": metric,
            "argv": argv, "walls": walls, "lengths": lengths, "reported": reported,
            "failures": failures, "exit": code, "stderr": stderr.strip(),
            "peak_mb": sampler.peak_kb / 1024.0, "samples": sampler.samples,
            "rss_one_mb": sampler.rss_one_kb / 1024.0,
            "startup_s": startup_s, "total_s": time.perf_counter() - start}


def command_line(args):
    words = ["python", "bench/heldout.py", "--size", str(args.size), "--count", str(args.count),
             "--seed", str(args.seed)]
    if args.budget is not None:
        words += ["--budget", "%g" % args.budget]
    if args.metric != "htm":
        words += ["--metric", args.metric]
    return " ".join(words)


def section(args, res, load_before):
    n, walls, lengths = res["n"], res["walls"], res["lengths"]
    solved = len(lengths)                   # answers the independent model found solved
    lines = ["## Held-out {0}x{0}x{0} through `cubebot solve --batch -` ({1}, {2}, Python {3})".format(
        n, datetime.date.today().isoformat(), platform.machine(), platform.python_version()), "",
        "`{}`: {} states, each {} random single-layer turns from solved (any layer, inner slices "
        "included) made by the independent model bench/cube3d.py from random.Random({}); every "
        "answer applied back by that model.".format(command_line(args), res["count"], scramble_length(n),
                                                     res["seed"]), "",
        "| solved | mean moves ({}) | max moves | median s | p95 s | max s | peak PSS, process tree |".format(
            res["metric"]),
        "|---|---|---|---|---|---|---|"]
    if lengths:
        lines.append("| {}/{} | {:.2f} | {} | {:.3f} | {:.3f} | {:.3f} | {:.1f} MB |".format(
            solved, res["count"], statistics.mean(lengths), max(lengths), statistics.median(walls),
            pct(walls, 0.95), max(walls), res["peak_mb"]))
    else:
        lines.append("| 0/{} | - | - | - | - | - | {:.1f} MB |".format(res["count"], res["peak_mb"]))
    lines += ["", "Time per state: from writing its line to reading its answer. Not in it: the process "
              "start-up, timed to the answer for a solved cube sent first ({:.2f} s); the first state "
              "still pays opening the tables. Whole run {:.1f} s. Peak PSS: the largest sum of Pss "
              "(shared pages counted once) over `cubebot solve` and all its descendants, sampled every "
              "{:g} s (the tree found again every {:g} s); largest single process Rss "
              "{:.1f} MB. "
              "Machine load average (1 min) {:.1f} before, {:.1f} after, on {} CPUs shared with other "
              "jobs.".format(res["startup_s"], res["total_s"], SAMPLE_S, TREE_S,
                             res["rss_one_mb"], load_before, os.getloadavg()[0], os.cpu_count())]
    for k, why in res["failures"]:
        lines.append("- {} failed: {}".format("state %d" % k if k >= 0 else "start-up", why))
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, required=True, choices=range(2, 8), metavar="N")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=None, help="default SEED_BASE + N")
    parser.add_argument("--budget", type=float, default=None)
    parser.add_argument("--metric", choices=("htm", "qtm"), default="htm")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    if args.seed is None:
        args.seed = SEED_BASE + args.size
    load_before = os.getloadavg()[0]
    res = run(args.size, args.count, args.seed, args.budget, args.metric)
    text = section(args, res, load_before)
    print(text)
    if res["stderr"]:
        print("cubebot stderr: " + res["stderr"])
    if not args.no_record:
        record("heldout-%d" % args.size, text)
    return 1 if res["failures"] or len(res["lengths"]) != args.count else 0


if __name__ == "__main__":
    sys.exit(main())
