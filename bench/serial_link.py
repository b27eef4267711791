"""Serial link numbers over a pty pair: ping latency, events and bytes per run.

Real pyserial on both ends of cubebot.robot.link.ptypair, the real LinkServer with
`serve --sim`'s service, the real LinkClient. Fixed seeds. Prints a table
and records it in docs/benchmarks.md (section serial).
"""

import datetime
import json
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]   # bench/ holds no `serial`
sys.path.insert(0, os.path.dirname(HERE))

from bench.record import record  # noqa: E402
from cubebot.robot.cli.serve import link_server, sim_service  # noqa: E402
from cubebot.robot.link.client import LinkClient  # noqa: E402
from cubebot.robot.link.ptypair import PtyBridge  # noqa: E402

PINGS = 1000
SEEDS = (1, 2, 3, 4, 5)
UART_BAUD = 115200            # what the bytes of a run would cost on a plain UART (10 bits a byte)


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def one_run(link, bridge, seed):
    before = dict(bridge.carried)
    link.drain_events()
    start = time.perf_counter()
    link.request("run", seed=seed)
    counts = {}
    longest = 0
    last = None
    while True:              # until the state event that follows finished/error
        message = link.next_event(60)
        if message is None:
            raise RuntimeError("no event for 60 s")
        name = message["event"]
        counts[name] = counts.get(name, 0) + 1
        longest = max(longest, len(json.dumps(message, separators=(",", ":"), sort_keys=True)))
        if name in ("finished", "error"):
            last = message
        elif last is not None and name == "state":
            break
    wall = time.perf_counter() - start
    message = last
    down = bridge.carried["to_laptop"] - before["to_laptop"]
    return {"seed": seed, "events": sum(counts.values()), "counts": counts, "wall": wall, "bytes": down,
            "longest": longest, "solved": message["data"].get("solved"),
            "moves": len(message["data"].get("moves") or []),
            "robot_s": message["data"].get("total_seconds", 0.0)}


def main():
    folder = tempfile.mkdtemp(prefix="cubebot-serial-")
    bridge = PtyBridge(folder)
    service = sim_service(3)
    server = link_server(service, bridge.robot).start()
    server.connected.wait(5)
    rows = []
    with LinkClient(bridge.laptop, timeout_s=10) as link:
        for _ in range(50):
            link.request("ping")
        times = []
        for _ in range(PINGS):
            t0 = time.perf_counter()
            link.request("ping")
            times.append(1000.0 * (time.perf_counter() - t0))
        for seed in SEEDS:
            rows.append(one_run(link, bridge, seed))
            service.wait(60)
    server.close(5)
    bridge.close()
    os.rmdir(folder)

    lines = ["Serial link over a pty pair (`python bench/serial_link.py`, {}): real pyserial both ends, "
             "`serve --sim`'s service, 3x3x3; load average (1 min) {:.1f} at the end, on {} CPUs shared "
             "with other jobs.".format(datetime.date.today().isoformat(), os.getloadavg()[0], os.cpu_count()),
             "",
             "| measure | value |", "|---|---|",
             "| ping round trip, median ({} pings) | {:.3f} ms |".format(PINGS, statistics.median(times)),
             "| ping round trip, 95th percentile | {:.3f} ms |".format(percentile(times, 0.95)),
             "| ping round trip, max | {:.3f} ms |".format(max(times)), "",
             "| seed | solved | moves | events | scan_progress | move_progress | bytes to laptop (varies "
             "by a few: the JSON carries times) | longest line (varies, likewise) | at {} baud | run "
             "here (wall) | robot time (simulated) |".format(UART_BAUD),
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| {} | {} | {} | {} | {} | {} | {} | {} B | {:.1f} s | {:.2f} s | {:.1f} s |".format(
            r["seed"], r["solved"], r["moves"], r["events"], r["counts"].get("scan_progress", 0),
            r["counts"].get("move_progress", 0), r["bytes"], r["longest"], 10.0 * r["bytes"] / UART_BAUD,
            r["wall"], r["robot_s"]))
    lines += ["", "Events per run = one per facelet read (54) + one per move + 4 state changes + solution + "
              "finished. `run here` is the wall time on this machine (the simulated robot does not wait "
              "for its simulated clock); `robot time` is what the run would take on the robot "
              "(`total_seconds` of `finished`). At {} baud a whole run's traffic takes well under a "
              "second of line time, spread over a run of a minute or more (RFCOMM is faster still).".format(
                  UART_BAUD)]
    text = "\n".join(lines)
    print(text)
    record("serial", text)


if __name__ == "__main__":
    main()
