"""Benchmark of the whole robot job on the simulated MINDCUB3R.

For seeds 0..199 of each size: scramble, scan (the synthetic sensor model, moderate noise),
resolve, solve, plan, execute, check. Each seed runs once more with the slip fault (a held
turn leaves its layer a quarter off): the check must catch it and the run end solved after a
retry. What-ifs run the 3x3x3 with other node budgets of the compiled two-phase candidate
search (WHAT_IF_NODES, `search_nodes_3x3`; 0 is kociemba's one solution alone) on the first
WHAT_IF_SEEDS seeds (more candidates: more turning saved, more compute). Reports the mean and p95 of the estimated
robot times (scan, compute on the brick = cubebot.robot.job.brick_time's central estimate
from the CPU time here, with its range, turning, total), flips per solve, and our planner against the naive planner (the
reference robot's fixed recipe) on the same solutions in the same time
model. Writes the "robot" section of docs/benchmarks.md.

Usage: python bench/robot.py [--seeds N] [--no-record]
"""

import argparse
import datetime
import importlib.util
import os
import platform
import random
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
# This script is called robot.py: keep its folder off the path so that
# `import robot` finds the package.
sys.path[:] = [ROOT] + [p for p in sys.path if os.path.abspath(p or ".") != BENCH]
_spec = importlib.util.spec_from_file_location("bench_record", os.path.join(BENCH, "record.py"))
_record_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_record_module)
record = _record_module.record

from cubebot.robot.colour.joint import compiled as compiled_colour_search  # noqa: E402
from cubebot.robot.job import brick_time  # noqa: E402
from cubebot.robot.job.pipeline import run_job  # noqa: E402
from cubebot.robot.colour.scheme import SCHEMES  # noqa: E402
from cubebot.robot.hw.sim.sensor_model import SensorModel  # noqa: E402
from cubebot.robot.job.robots import SENSOR_SEED_OFFSET, SLIP_AT_HELD_TURN, make_sim_robot  # noqa: E402
from cubebot.robot.machine.config import Config  # noqa: E402
from cubebot.robot.plan import search3  # noqa: E402

SEEDS = 200
SIZES = (3, 2)
WHAT_IF_SEEDS = 40
WHAT_IF_NODES = (0, 100000, 1000000)     # the 3x3x3 what-ifs: the candidate search's node budget
TARGET_TOTAL_3X3_S = 45.0
TARGET_TURN_SAVING = {3: 0.20, 2: 0.33}      # turning below the naive recipe, per size
PUBLISHED_RANGE = "about 90 s, up to 300 s in other reports (MINDCUB3R, cited in docs/references.md)"


def mean(values):
    return sum(values) / float(len(values))


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def load_average():
    """The 1-minute load average as text ("?" where the OS does not tell)."""
    try:
        return "{:.1f}".format(os.getloadavg()[0])
    except (AttributeError, OSError):
        return "?"


def run_size(size, seeds, scheme="standard", real=False, fault=None, config=None):
    rows = []
    for seed in range(seeds):
        sensor = None
        if scheme != "standard" or real:
            sensor = SensorModel(random.Random(seed + SENSOR_SEED_OFFSET), scheme=scheme, real=real)
        robot = make_sim_robot(size, seed, sensor_model=sensor, fault=fault, config=config)
        result = run_job(robot, size)
        result["seed"] = seed
        result["slipped"] = bool(robot.world.slips)      # the slip fault's held turn came
        rows.append(result)
    return rows


def summarise(size, rows):
    solved = [r for r in rows if r["solved"]]
    lines = ["### {0}x{0}x{0}: {1} seeds, {2} solved".format(size, len(rows), len(solved)), ""]
    lines.append("| estimated robot time | mean | p95 |")
    lines.append("|---|---|---|")
    for key, name in (("scan_seconds", "scan"), ("compute_seconds", "compute (brick estimate, central)"),
                      ("turn_seconds", "turning"), ("check_seconds", "check at the end"),
                      ("total_seconds", "total"),
                      ("overlapped_seconds", "compute while the mechanism moved (not in the total)")):
        values = [r[key] for r in solved]
        lines.append("| {} | {:.1f} s | {:.1f} s |".format(name, mean(values), p95(values)))
    for key, name in (("compute_range_seconds", "compute, brick range"), ("total_range_seconds", "total, brick range")):
        low, high = [r[key][0] for r in solved], [r[key][1] for r in solved]
        lines.append("| {} | {:.1f}-{:.1f} s | {:.1f}-{:.1f} s |".format(
            name, mean(low), mean(high), p95(low), p95(high)))
    ours = [r["planned_seconds"] for r in solved]
    naive = [r["naive_seconds"] for r in solved]
    saving = 1.0 - sum(ours) / sum(naive)
    lines += [
        "",
        "| per solve | mean | p95 |",
        "|---|---|---|",
        "| moves | {:.1f} | {} |".format(mean([len(r["moves"]) for r in solved]),
                                        p95([len(r["moves"]) for r in solved])),
        "| flips (our planner) | {:.1f} | {} |".format(mean([r["flips"] for r in solved]),
                                                      p95([r["flips"] for r in solved])),
        "| flips (naive planner) | {:.1f} | {} |".format(mean([r["naive_flips"] for r in solved]),
                                                        p95([r["naive_flips"] for r in solved])),
        "| table turns / held turns | {:.1f} / {:.1f} | |".format(
            mean([r["actions"]["rotate"] for r in solved]), mean([r["actions"]["twist"] for r in solved])),
        "| turning, our planner | {:.1f} s | {:.1f} s |".format(mean(ours), p95(ours)),
        "| turning, naive planner | {:.1f} s | {:.1f} s |".format(mean(naive), p95(naive)),
        "| rescans | {:.2f} | {} |".format(mean([r["rescans"] for r in rows]), p95([r["rescans"] for r in rows])),
        "| facelets read by the check | {:.1f} | {} |".format(
            mean([r["check"]["read"] for r in solved]), p95([r["check"]["read"] for r in solved])),
        "| retries (a check that saw a slip) | {:.2f} | {} |".format(
            mean([r["retries"] for r in rows]), p95([r["retries"] for r in rows])),
        "",
        "Check at the end: {} of {} runs passed it; {} ended truly solved (the simulated world's "
        "own answer); {} passed it on a cube that was not solved.".format(
            len(solved), len(rows), sum(1 for r in rows if r.get("truly_solved")),
            sum(1 for r in solved if not r.get("truly_solved"))),
        "Our planner turns {:.1%} faster than the naive planner (target >= {:.0%}).".format(
            saving, TARGET_TURN_SAVING[size]),
    ]
    failed = [r for r in rows if not r["solved"]]
    if failed:
        lines.append("Not solved: " + ", ".join("seed {} ({})".format(r["seed"], r.get("error", "wrong cube"))
                                              for r in failed))
    return lines, saving, mean([r["total_seconds"] for r in solved]) if solved else None, len(failed)


def summarise_slips(size, rows):
    """The slip-fault runs: slips made, caught (a check saw one), retried and solved."""
    slipped = [r for r in rows if r["slipped"]]
    caught = [r for r in slipped if r.get("retries", 0) >= 1]
    solved = [r for r in caught if r["solved"] and r.get("truly_solved")]
    line = ("Slip fault ({0}x{0}x{0}, held turn {1} of each run left a quarter off): {2} of {3} runs "
            "slipped (the others had fewer held turns); {4} of those {2} slips caught; {5} of those "
            "runs then rescanned, solved again and passed the check; mean total {6:.1f} s.".format(
                size, SLIP_AT_HELD_TURN, len(slipped), len(rows), len(caught), len(solved),
                mean([r["total_seconds"] for r in rows])))
    return [line, ""], len(slipped) - len(caught)


def summarise_what_if(rows, nodes):
    ours = sum(r["planned_seconds"] for r in rows)
    naive = sum(r["naive_seconds"] for r in rows)
    return ["What-if, 3x3x3 seeds 0..{} with the candidate search's node budget "
            "`search_nodes_3x3` = {}: turning {:.1f} s, {:.1%} below the naive recipe on the "
            "solver's first solution; compute {:.1f} s; total {:.1f} s (mean).".format(
                len(rows) - 1, nodes, mean([r["planned_seconds"] for r in rows]),
                1.0 - ours / naive, mean([r["compute_seconds"] for r in rows]),
                mean([r["total_seconds"] for r in rows])), ""]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=SEEDS)
    parser.add_argument("--scheme", default="standard", choices=sorted(SCHEMES),
                        help="colour scheme of the scanned cube (printed, not recorded)")
    parser.add_argument("--real-sensor", action="store_true",
                        help="the simulated sensor with the real EV3's traits (printed, not recorded)")
    parser.add_argument("--what-if-seeds", type=int, default=WHAT_IF_SEEDS,
                        help="seeds of the 3x3x3 what-ifs with other candidate-search budgets (0: none)")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args(argv)
    if args.scheme != "standard" or args.real_sensor:
        args.no_record = True
    t0 = time.time()
    load_before = load_average()
    sections = []
    verdicts = []
    for size in SIZES:
        rows = run_size(size, args.seeds, args.scheme, args.real_sensor)
        lines, saving, total, failed = summarise(size, rows)
        sections += lines + [""]
        slip_lines, missed = summarise_slips(size, run_size(size, args.seeds, args.scheme, args.real_sensor,
                                                            fault="slip"))
        sections += slip_lines
        verdicts.append("{}x{}x{}: {} not solved; turning {:.1%} below naive (target >= {:.0%}); {} slips "
                        "missed".format(size, size, size, failed, saving, TARGET_TURN_SAVING[size], missed))
        if size == 3 and args.what_if_seeds:
            for nodes in WHAT_IF_NODES:
                sections += summarise_what_if(run_size(3, args.what_if_seeds, args.scheme, args.real_sensor,
                                                       config=Config(search_nodes_3x3=nodes)), nodes)
        if size == 3 and total is not None:
            verdicts.append("3x3x3 mean estimated full run {:.1f} s (target <= {:.0f} s; a real LEGO robot "
                            "{})".format(total, TARGET_TOTAL_3X3_S, PUBLISHED_RANGE))
    head = ["Run {} on {} (Python {}), {:.0f} s of real time for {} runs; load average {} at the "
            "start, {} at the end.".format(
                datetime.date.today().isoformat(), platform.machine(), platform.python_version(),
                time.time() - t0, args.seeds * len(SIZES), load_before, load_average()), "",
        "`python bench/robot.py{}`, seeds 0..{} of each size: scramble, scan with the synthetic "
        "sensor model (robot/hw/sim/sensor_model.py, noise preset moderate, not fitted to real "
        "scans), resolve, solve, choose and plan, execute and check on the simulated MINDCUB3R "
        "with the default config (docs/robot.md). Times are estimates for the real robot in the "
        "time model of docs/robot.md (\"The time model and its basis\"): motor moves from speeds "
        "and angles plus settle_s, a flip's flip_settle_s, 10 ms per colour reading. Compute is "
        "the CPU time here (of the "
        "process and the solver's child processes, cubebot.robot.job.pipeline.cpu_seconds: other load "
        "on the machine inflates it less than wall-clock time) through the brick-time estimator "
        "(cubebot.robot.job.brick_time: integer work x{:g}-{:g}, colour resolution as floating "
        "point x{:g}-{:g}, its joint search in C as compiled floating point x{:g}-{:g}; "
        "docs/brick.md). The 3x3x3 candidate search in C counts as compiled code x{:.0f}-{:.0f}. "
        "Compiled colour search: {}. Compiled two-phase candidate search: {} (`search_nodes_3x3` = {}, "
        "`search_slack_3x3` = {}, `planned_candidates_3x3` = {}). Resolution that runs while the last face's "
        "moves do, and the check's preparation and the naive baseline that run while the cube "
        "turns, count only where they outlast those moves.".format(
            "" if args.seeds == SEEDS else " --seeds {}".format(args.seeds), args.seeds - 1,
            *(brick_time.INT_FACTOR + brick_time.FLOAT_FACTOR + brick_time.COMPILED_FLOAT_FACTOR
              + brick_time.COMPILED_FACTOR
              + ("built" if compiled_colour_search() is not None else "not built",
                 "built" if search3.available() else "not built", Config().search_nodes_3x3,
                 Config().search_slack_3x3, Config().planned_candidates_3x3))),
        ""]
    text = "\n".join(["## Robot (simulated MINDCUB3R)", ""] + head + sections + ["Summary:", ""]
                     + ["- " + v for v in verdicts])
    print(text)
    if not args.no_record:
        record("robot", text)


if __name__ == "__main__":
    main()
