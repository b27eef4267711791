"""The link while a solve computes: ping latency, stop latency and memory of `serve`.

`cubebot serve --sim` runs as its own process on one end of a pty pair
(cubebot.robot.link.ptypair); the real LinkClient sends a 4x4x4 `solve` (fixed seeds)
and pings every PING_EVERY_S until the reply comes. A sampler reads the peak
PSS (proportional set size: shared pages counted once) of serve's whole
process tree, forked solve child included, every SAMPLE_S. The anchor, measured
in the same run: `cubebot solve` of the same states as one process. Then a
solve stopped after STOP_AFTER_S: how long until its reply and until its child
is gone. Records the "link-solve" section of docs/benchmarks.md.

Usage: python bench/link_solve.py [--seeds N] [--no-record]
"""

import argparse
import datetime
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]   # bench/ holds no `serial`
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from bench.record import record  # noqa: E402
from cubebot.robot.link.client import LinkClient  # noqa: E402
from cubebot.robot.link.ptypair import PtyBridge  # noqa: E402
from cubebot.solver.scramble import scramble  # noqa: E402

SIZE = 4
SEEDS = 5
PING_EVERY_S = 0.05
SAMPLE_S = 0.02
STOP_AFTER_S = 0.5
SOLVE_TIMEOUT_S = 300.0


def _children(pid):
    kids = []
    try:
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, task)) as fh:
                kids += [int(k) for k in fh.read().split()]
    except OSError:
        pass
    return kids


def _pss_kb(pid):
    try:
        with open("/proc/%d/smaps_rollup" % pid) as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree(pid):
    """pid and all its descendants."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += _children(p)
    return found


class PeakPss(object):
    """Samples the summed PSS of a process tree in a thread; `peak_mb`, `max_processes`."""

    def __init__(self, pid):
        self.pid = pid
        self.peak_kb = 0
        self.max_processes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)
        self._thread.daemon = True
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            pids = tree(self.pid)
            self.max_processes = max(self.max_processes, len(pids))
            self.peak_kb = max(self.peak_kb, sum(_pss_kb(p) for p in pids))
            time.sleep(SAMPLE_S)

    def reset(self):
        self.peak_kb, self.max_processes = 0, 0

    def close(self):
        self._stop.set()
        self._thread.join()

    @property
    def peak_mb(self):
        return self.peak_kb / 1024.0


def linked_solve(link, state):
    """(wall s, ping latencies s, reply) of one solve with pings while it computes."""
    box = {}

    def go():
        box["reply"] = link.request_raw("solve", SOLVE_TIMEOUT_S, state=state)
    start = time.perf_counter()
    thread = threading.Thread(target=go)
    thread.start()
    pings = []
    while thread.is_alive():
        t = time.perf_counter()
        link.request("ping", 10)
        pings.append(time.perf_counter() - t)
        time.sleep(PING_EVERY_S)
    thread.join()
    return time.perf_counter() - start, pings, box["reply"]


def direct_solve(state):
    """(wall s, peak PSS MB of the process tree) of `cubebot solve STATE` as one process."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cubebot.robot.cli.main", "solve", state], cwd=ROOT,
                            stdout=subprocess.DEVNULL)
    sampler = PeakPss(proc.pid)
    proc.wait()
    sampler.close()
    return time.perf_counter() - start, sampler.peak_mb


def stopped_solve(link, server_pid, state):
    """(s from stop to the solve's reply, s from stop until serve has no child left)."""
    box = {}

    def go():
        box["reply"] = link.request_raw("solve", SOLVE_TIMEOUT_S, state=state)
        box["at"] = time.perf_counter()
    thread = threading.Thread(target=go)
    thread.start()
    time.sleep(STOP_AFTER_S)
    stop_at = time.perf_counter()
    link.request("stop")
    while len(tree(server_pid)) > 1:
        time.sleep(0.005)
    gone = time.perf_counter() - stop_at
    thread.join()
    return box["at"] - stop_at, gone, box["reply"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=SEEDS)
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args(argv)
    load_start = os.getloadavg()[0]
    from cubebot.solver.facelets import is_solved
    from cubebot.solver.moves import apply
    states = [scramble(SIZE, random.Random(seed))[0] for seed in range(1, args.seeds + 1)]
    rows, anchors = [], []
    with tempfile.TemporaryDirectory() as folder:
        bridge = PtyBridge(folder)
        serve = subprocess.Popen([sys.executable, "-m", "cubebot", "serve", "--sim", "--port", bridge.robot],
                                 cwd=ROOT, stderr=subprocess.DEVNULL)
        try:
            with LinkClient(bridge.laptop, timeout_s=10) as link:
                deadline = time.time() + 30
                while True:
                    try:
                        link.request("ping", 1)
                        break
                    except Exception:
                        if time.time() > deadline:
                            raise
                sampler = PeakPss(serve.pid)
                idle_mb = None
                for seed, state in enumerate(states, 1):
                    time.sleep(0.3)
                    idle_mb = sampler.peak_mb if idle_mb is None else idle_mb
                    sampler.reset()
                    wall, pings, reply = linked_solve(link, state)
                    ok = reply.get("ok") and is_solved(apply(state, " ".join(reply["result"]["moves"]), SIZE), SIZE)
                    rows.append({"seed": seed, "wall": wall, "pings": len(pings), "ping_max": max(pings),
                                 "ping_median": statistics.median(pings), "peak_mb": sampler.peak_mb,
                                 "processes": sampler.max_processes, "solved": bool(ok)})
                    anchors.append(direct_solve(state))
                    print("seed %d: solve %.2f s over the link (%s), %d pings, max %.1f ms, median %.1f ms, "
                          "serve tree peak %.1f MB PSS (%d processes); direct solve %.2f s, %.1f MB" % (
                              seed, wall, "solved" if ok else "NOT solved", len(pings), 1000 * max(pings),
                              1000 * statistics.median(pings), sampler.peak_mb, sampler.max_processes,
                              anchors[-1][0], anchors[-1][1]))
                sampler.close()
                reply_s, gone_s, reply = stopped_solve(link, serve.pid, states[0])
                print("stop after %.1f s: solve answered %.1f ms after the stop (%s), child gone after %.1f ms" % (
                    STOP_AFTER_S, 1000 * reply_s, reply.get("error"), 1000 * gone_s))
        finally:
            serve.terminate()
            serve.wait(30)
            bridge.close()
    today = datetime.date.today().isoformat()
    lines = [
        "## The link while a 4x4x4 solve computes (`python bench/link_solve.py%s`, %s)" % (
            "" if args.seeds == SEEDS else " --seeds %d" % args.seeds, today),
        "",
        "`serve --sim` as its own process behind a pty pair; a `solve` of %d fixed 4x4x4 states "
        "(scramble seeds 1..%d), a `ping` every %d ms until its reply. Memory: peak PSS of serve's whole "
        "process tree (the forked solve child included), sampled every %d ms; anchor: `cubebot solve` of "
        "the same state as one process, same run. Shared machine (other engineers' jobs running): "
        "times are noisy." % (len(states), len(states), PING_EVERY_S * 1000, SAMPLE_S * 1000),
        "",
        "| seed | solve over the link | pings (varies with the solve's time) | ping max | ping median | "
        "serve tree peak PSS | processes | direct solve | its peak PSS |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row, (dwall, dmb) in zip(rows, anchors):
        lines.append("| %d | %.2f s%s | %d | %.1f ms | %.1f ms | %.1f MB | %d | %.2f s | %.1f MB |" % (
            row["seed"], row["wall"], "" if row["solved"] else " (NOT solved)", row["pings"],
            1000 * row["ping_max"], 1000 * row["ping_median"], row["peak_mb"], row["processes"], dwall, dmb))
    lines += ["", "A solve stopped %.1f s in: answered %.1f ms after the `stop` (`failed`, \"%s\"), its "
              "child gone after %.1f ms." % (STOP_AFTER_S, 1000 * reply_s, reply.get("error"), 1000 * gone_s)]
    extra = [row["peak_mb"] - dmb for row, (_, dmb) in zip(rows, anchors)]
    lines += ["", "The link costs %.1f MB to %.1f MB PSS over the direct solve of the same state (serve's "
              "own process: the simulated robot, pyserial, the link threads), %.1f MB to %.1f MB in all on x86-64 "
              "(the limit is 64 MB; not measured on 32-bit ARM here). Read the link and direct columns "
              "against each other, not against other sections: load average (1 min) %.1f at the start, "
              "%.1f at the end, on %d CPUs shared with other jobs." % (
                  min(extra), max(extra), min(r["peak_mb"] for r in rows), max(r["peak_mb"] for r in rows),
                  load_start, os.getloadavg()[0], os.cpu_count())]
    text = "\n".join(lines)
    print(text)
    if not args.no_record:
        record("link-solve", text)
    return 0 if all(r["solved"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
