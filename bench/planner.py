"""Planner benchmark: our DP planner against the reference robot's naive one.

Over 200 seeded random 3x3x3 and 2x2x2 cubes, each solved by the project's
solver (cubebot.solver.api.solve when present; otherwise kociemba for the 3x3x3 and
cubebot.solver.solve2 for the 2x2x2), both planners plan the same (shortest) solution from the
same start (identity orientation, flipper away) with the same time model
(cubebot.robot.machine.config defaults). Reports mean/p95 turning seconds, the reduction,
actions per solve and planning milliseconds on this machine, and records
them in docs/benchmarks.md (section "planner"). Every row plans the solver's
first answer (no budget: the same on every run); with a 3x3x3 budget, one
more row shows choose_fastest over the candidates a budget search finds,
which vary with the machine's load (the row says "time-bounded").

What-if rows for the 3x3x3: the fastest of the solution and the ones that
kociemba finds for the cube seen in K - 1 other orientations (of 24), with
what the extra solves cost in compute on the brick (cubebot.robot.job.brick_time's range
from the time measured here).

Lower bounds per solution (cubebot.robot.plan.bound): no plan for the solution can be
faster than the flip bound (twists + the fewest flips, table turns and
flipper strokes free) or the free-table bound (the exact optimum when only
table turns are free); "best possible" is the reduction against naive that
each bound allows. Our DP is the exact optimum of the real time model for
the solution.

Usage: python bench/planner.py [--count 200] [--budget 0.2] [--no-record]
"""

import argparse
import datetime
import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.record import record  # noqa: E402
from cubebot.robot.machine import orientation  # noqa: E402
from cubebot.robot.plan import routes
from cubebot.robot.plan import planner as planner_mod  # noqa: E402
from cubebot.robot.plan.bound import free_table_bound, lower_bound  # noqa: E402
from cubebot.robot.job.brick_time import describe, estimate  # noqa: E402
from cubebot.robot.machine.frames import rotation_path  # noqa: E402
from cubebot.robot.machine.actions import FLIP, ROTATE, TWIST, counts  # noqa: E402
from cubebot.robot.machine.config import Config  # noqa: E402
from cubebot.robot.machine.timing import TimeModel  # noqa: E402
from cubebot.solver.facelets import centre_labels, is_solved, relabel, solved  # noqa: E402
from cubebot.solver.moves import Move, apply, parse  # noqa: E402

SEED = 20261122
SCRAMBLE_LENGTH = 40
WHAT_IF_K = (2, 4, 24)


def scramble(rng, n):
    return apply(solved(n), [Move(rng.choice("URFDLB"), 1, 1, rng.choice((1, 2, 3)))
                             for _ in range(SCRAMBLE_LENGTH)], n)


def make_solver(n, budget):
    """(name, solve(state) -> (solution, candidates)).

    The solution every row but one plans is the solver's first answer (no
    budget: the same moves on every run, whatever the load); the candidates
    are what a time-bounded search finds in `budget` s (3x3x3 only), so the
    choose_fastest row moves with the machine's load.
    """
    try:
        from cubebot.solver import api
    except ImportError:
        api = None
    if api is not None:
        budget = budget if n == 3 else None

        def solve_api(state):
            first = api.solve(state, size=n).moves
            if not budget:
                return first, [first]
            sol = api.solve(state, size=n, budget=budget)
            return first, list(getattr(sol, "candidates", None) or [sol.moves])
        return "cubebot.solver.api.solve", solve_api
    if n == 3:
        import kociemba

        def solve_kociemba(state):
            moves = parse(kociemba.solve(state))
            return moves, [moves]
        return "kociemba.solve", solve_kociemba
    from cubebot.solver.solve2 import Solver2
    s2 = Solver2("htm")

    def solve_optimal(state):
        moves = s2.solve(state)
        return moves, [moves]
    return "cubebot.solver.solve2 (htm, optimal)", solve_optimal


def rotated_candidates(state, wheres):
    """kociemba's solutions of `state` seen in each orientation of `wheres`, mapped back."""
    import kociemba
    result = []
    for where in wheres:
        seen = apply(state, rotation_path(where))
        seen = relabel(seen, centre_labels(seen, 3))
        moves = [Move(orientation.face_at(where, m.face), 1, 1, m.turns) for m in parse(kociemba.solve(seen))]
        result.append(moves)
    return result


def mean(xs):
    return sum(xs) / float(len(xs))


def median(xs):
    s = sorted(xs)
    return s[len(s) // 2]


def p95(xs):
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))]


def run_size(n, count, model, what_if, budget):
    name, solve = make_solver(n, budget)
    rng = random.Random(SEED + n)
    rows = {"ours": [], "naive": [], "cand": [], "flip bound": [], "free-table bound": []}
    bound_flips = []
    flips = {"ours": [], "naive": []}
    rotates = {"ours": [], "naive": []}
    lengths, plan_ms, cold_ms, n_cands = [], [], [], []
    what = dict((k, []) for k in (what_if if n == 3 else ()))
    what_ms = []          # kociemba in max(what) orientations, ms here per cube
    for _ in range(count):
        state = scramble(rng, n)
        moves, cands = solve(state)
        assert is_solved(apply(state, moves, n), n)
        for cand in cands:
            assert is_solved(apply(state, cand, n), n)
        lengths.append(len(moves))
        n_cands.append(len(cands))
        planner_mod._ROUTERS.clear()            # cold: the reorientation routes are built anew
        t0 = time.perf_counter()
        ours = planner_mod.plan(moves, orientation.IDENTITY, model, size=n)
        cold_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        ours = planner_mod.plan(moves, orientation.IDENTITY, model, size=n)
        plan_ms.append((time.perf_counter() - t0) * 1000)
        naive = planner_mod.plan_naive(moves, orientation.IDENTITY, model, size=n)
        for key, p in (("ours", ours), ("naive", naive)):
            rows[key].append(p.seconds)
            c = counts(p.actions)
            flips[key].append(c[FLIP])
            rotates[key].append(c[ROTATE])
            assert c[TWIST] == len(moves)
        best = planner_mod.choose_fastest(cands, orientation.IDENTITY, model, size=n)
        rows["cand"].append(planner_mod.plan(best, orientation.IDENTITY, model, size=n).seconds)
        rows["free-table bound"].append(free_table_bound(moves, model, size=n))
        if n == 3:
            bound, fewest = lower_bound(moves, model)
            rows["flip bound"].append(bound)
            bound_flips.append(fewest)
        if what:
            # The solution above stands for the cube as it lies; k - 1 more orientations.
            t0 = time.perf_counter()
            alts = rotated_candidates(state, orientation.all_orientations()[1:max(what)])
            what_ms.append((time.perf_counter() - t0) * 1000 / len(alts))
            secs = [ours.seconds]
            for alt in alts:
                assert is_solved(apply(state, alt, n), n)
                secs.append(planner_mod.plan(alt, orientation.IDENTITY, model, size=n).seconds)
            for k in what:
                what[k].append(min(secs[:k]))
    return name, rows, flips, rotates, lengths, plan_ms, cold_ms, n_cands, what, bound_flips, what_ms


def fmt_size(n, result, budget):
    name, rows, flips, rotates, lengths, plan_ms, cold_ms, n_cands, what, bound_flips, what_ms = result
    naive_mean = mean(rows["naive"])
    lines = [
        "**%dx%dx%d** (%d cubes, solutions by %s, its first answer: mean %.2f moves)" % (
            n, n, n, len(lengths), name, mean(lengths)),
        "",
        "| planner | turning s mean | p95 | vs naive | flips/solve | table turns/solve |",
        "|---|---|---|---|---|---|",
    ]

    def row(label, secs, fl=None, rot=None):
        red = 100.0 * (1 - mean(secs) / naive_mean)
        lines.append("| %s | %.2f | %.2f | %s | %s | %s |" % (
            label, mean(secs), p95(secs), "-" if label == "naive (reference)" else "%.1f%% lower" % red,
            "-" if fl is None else "%.1f" % mean(fl), "-" if rot is None else "%.1f" % mean(rot)))

    row("naive (reference)", rows["naive"], flips["naive"], rotates["naive"])
    row("ours (DP)", rows["ours"], flips["ours"], rotates["ours"])
    if max(n_cands) > 1:
        row("ours + choose_fastest over the %.1f candidates (mean) of a %.2f s budget search "
            "(time-bounded: varies with the load)" % (mean(n_cands), budget), rows["cand"])
    for k in sorted(what):
        # k - 1 more solves on the brick, from the measured time of one here
        brick = estimate(mean(what_ms) / 1000.0 * (k - 1))
        row("what-if: ours, fastest of this and kociemba's in %d more orientations "
            "(+%s compute on the brick)" % (k - 1, describe(brick)), what[k])
    for key in ("free-table bound", "flip bound"):
        if rows[key]:
            row("lower bound: %s (best possible)" % key, rows[key], bound_flips if key == "flip bound" else None)
    lines.append("")
    lines.append("Planning time per solution on this machine: median %.2f ms (mean %.2f ms) with the routes "
                 "cached, median %.2f ms (mean %.2f ms) cold, routes built anew; on the brick "
                 "(cubebot.robot.job.brick_time) %s cached, %s cold." % (
                     median(plan_ms), mean(plan_ms), median(cold_ms), mean(cold_ms),
                     describe(estimate(median(plan_ms) / 1000.0)),
                     describe(estimate(median(cold_ms) / 1000.0))))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--no-record", action="store_true")
    ap.add_argument("--budget", type=float, default=0.2,
                    help="3x3x3 solver budget in seconds (several candidates); 0 for the first solution")
    args = ap.parse_args(argv)
    config = Config()
    model = TimeModel.from_config(config)
    routes.orientations()
    parts = []
    for n in (3, 2):
        parts.append(fmt_size(n, run_size(n, args.count, model, WHAT_IF_K, args.budget or None), args.budget))
    head = ("Run %s on %s (Python %s), seed %d. Time model: cubebot.robot.machine.config defaults (%s). "
            "Same solution, same start (identity orientation, flipper away), same time model for "
            "both planners; the naive planner is the reference robot's per-face recipe "
            "(B: flip; U: flip flip; L: y flip; R: y' flip; F: y2 flip). Targets (bench/robot.py): "
            "turning at least 20%% (3x3x3) and 33%% (2x2x2) lower than naive." % (
                datetime.date.today().isoformat(), platform.machine(), platform.python_version(), SEED,
                ", ".join("%s=%s" % (k, getattr(config, k)) for k in (
                    "table_speed_dps", "flipper_speed_dps", "table_overshoot_deg", "settle_s",
                    "flip_settle_s"))))
    text = head + "\n\n" + "\n\n".join(parts)
    print(text)
    if not args.no_record:
        command = "python bench/planner.py" + ("" if args.count == 200 else " --count %d" % args.count) + (
            "" if args.budget == 0.2 else " --budget %g" % args.budget)
        record("planner", "## Planner (`%s`)\n\n" % command + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
