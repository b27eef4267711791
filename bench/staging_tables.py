"""The 6x6x6 centres staged and solved by tables (solver/big/tablestage.py, tablesolve.py).

The first --n states of bench/solver_big.py's 6x6x6 seed are staged by the four searches
(lr-inner, lr-outer, ud-inner, ud-outer; the last one ending the inner wings even, as
the solver runs it), then solved by the three table descents (lr, ud, fb). Each
staging and solve is applied back by the independent model (bench/cube3d.py) and
checked from the facelets. The anchor moves are the reference solver's
(docs/references.md, "Centres staged by tables"). With --solve, the same states
are also solved whole with reduce.TABLE_STAGING on and off (moves, seconds).
Writes the section "staging-tables-6" of docs/benchmarks.md.

Usage: python bench/staging_tables.py [--n 10] [--solve 0] [--no-record]
"""

import argparse
import os
import statistics
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from bench import cube3d  # noqa: E402
from bench.record import record  # noqa: E402
from bench.solver_big import SEEDS, states  # noqa: E402
from cubebot.solver import maskstage  # noqa: E402
from cubebot.solver.big import reduce, tablesolve, tablestage  # noqa: E402
from cubebot.solver.big.views import blown_up  # noqa: E402
from cubebot.solver.moves import format_moves  # noqa: E402

N = tablestage.N
ANCHOR = {"lr-inner": 9, "lr-outer": 10, "ud-inner": 9, "ud-outer": 10}   # docs/references.md
SOLVING = ("lr-solve", "ud-solve", "fb-solve")
SOLVING_ANCHOR = "20 to 25"     # the reference's centre-solving phases, docs/references.md


def stage_each(cubes):
    """{search: [moves]}, [(found, seconds, nodes, beams)] per cube, stagings found, choices
    tried."""
    staging = tablestage.Staging()
    solving = tablesolve.Solving()
    reducer = reduce.Reducer(N)
    odd = lambda cube: 1 if reducer.parity(cube, blown_up(cube, N)) else 0  # noqa: E731
    names = [s[0] for s in staging.searches]
    moves = dict((name, []) for name in names + list(SOLVING))
    per_cube, found_total, tried = [], 0, 0
    for k, state in enumerate(cubes):
        started = time.perf_counter()
        found = staging.solve_all(state, odd)
        seconds = time.perf_counter() - started
        tried += min(len(tablestage.colour_pairs(state)), staging.tried)
        for parts, cube in found:
            after = cube3d.apply(state, format_moves([m for p in parts for m in p]))
            if after != cube or not any(tablestage.staged(after, c) for c in tablestage.colour_pairs(state)):
                raise SystemExit("state {}: a staging is not staged by the independent model".format(k))
            for name, part in zip(names, parts):
                moves[name].append(len(part))
            solved = solving.solve(cube, tablesolve.staged_colours(cube))
            done = cube3d.apply(cube, format_moves([m for p in solved for m in p]))
            if not centres_solved(done):
                raise SystemExit("state {}: the solving leaves a centre unsolved in the independent model".format(k))
            for name, part in zip(SOLVING, solved):
                moves[name].append(len(part))
        found_total += len(found)
        per_cube.append((len(found), seconds, staging.nodes, staging.beams))
        print(k, "stagings", len(found), "[" + " ".join(
            "/".join(str(len(p)) for p in parts) for parts, _ in found) + "]",
            "{:.1f} s".format(seconds), staging.nodes, "nodes", staging.beams, "beams", flush=True)
    return moves, per_cube, found_total, tried


def centres_solved(cube):
    """True if every face's centre facelets show one colour."""
    return all(len(set(cube[maskstage.orbit_facelets(i, j, N)[s]] for i, j in tablesolve.ORBITS
                       for s in range(4 * f, 4 * f + 4))) == 1 for f in range(6))


def solve_each(cubes, staged):
    from cubebot.solver import big
    reduce.TABLE_STAGING = staged
    lengths, seconds = [], []
    for state in cubes:
        started = time.perf_counter()
        moves = big.solve_stages(state).candidates[0]
        seconds.append(time.perf_counter() - started)
        if not cube3d.solves(state, format_moves(moves)):
            raise SystemExit("a solution does not solve its cube in the independent model")
        lengths.append(len(moves))
    return lengths, seconds


def run(count, solve, record_it):
    if maskstage.compiled() is None:
        raise SystemExit("the compiled staging module (cubebot.solver._stage) is not built")
    cubes = states(N, count)
    load = os.getloadavg()[0]
    moves, per_cube, found, tried = stage_each(cubes)
    rows = [
        "{} random 6x6x6 states (bench/solver_big.py's seed {}), the four searches of "
        "solver/big/tablestage.py compiled, for each of the {} choices of colour pairs "
        "tried in turn until {} staging is found (at most {} nodes a search and divisor, {} a "
        "cube, then a beam of width {}). Then come the three descents of solver/big/tablesolve.py; "
        "every staging and solve applied back by "
        "bench/cube3d.py and checked from the facelets. Load average {:.1f} on {} CPUs shared "
        "with other jobs.".format(count, SEEDS[N], len(tablestage.colour_pairs(cubes[0])),
                                  tablestage.STAGINGS, tablestage.MAX_NODES, tablestage.TOTAL_NODES,
                                  tablestage.BEAM_WIDTH, load, os.cpu_count()),
        "",
        "| search | mean moves | anchor |",
        "|---|---|---|",
    ]
    total = []
    for name in ANCHOR:
        values = moves[name]
        rows.append("| {} | {} | about {} |".format(
            name, "{:.1f}".format(statistics.mean(values)) if values else "none", ANCHOR[name]))
    for k in range(len(moves["lr-inner"])):
        total.append(sum(moves[name][k] for name in ANCHOR))
    rows.append("| all four (sum) | {} | about 38 |".format(
        "{:.1f}".format(statistics.mean(total)) if total else "none"))
    for name in SOLVING:
        values = moves[name]
        rows.append("| {} | {} | |".format(name, "{:.1f}".format(statistics.mean(values)) if values else "none"))
    solved = [sum(moves[name][k] for name in SOLVING) for k in range(len(moves["lr-solve"]))]
    rows.append("| the three descents (sum) | {} | about {} |".format(
        "{:.1f}".format(statistics.mean(solved)) if solved else "none", SOLVING_ANCHOR))
    staged_cubes = sum(1 for f, _, _, _ in per_cube if f)
    rows += [
        "",
        "| measure | value |",
        "|---|---|",
        "| stagings found / choices tried | {} / {} |".format(found, tried),
        "| states with a staging | {} of {} |".format(staged_cubes, count),
        "| seconds a state (all choices), median / max | {:.1f} / {:.1f} |".format(
            statistics.median(s for _, s, _, _ in per_cube), max(s for _, s, _, _ in per_cube)),
        "| nodes a state, median | {:.0f} |".format(statistics.median(n for _, _, n, _ in per_cube)),
        "| searches ended by the beam (of {}) | {} |".format(4 * count, sum(b for _, _, _, b in per_cube)),
    ]
    if solve:
        on = solve_each(cubes[:solve], True)
        off = solve_each(cubes[:solve], False)
        rows += [
            "",
            "The first {} states solved whole (applied back by bench/cube3d.py):".format(solve),
            "",
            "| path | moves each | mean moves | median seconds |",
            "|---|---|---|---|",
        ]
        for label, (lengths, seconds) in (("TABLE_STAGING on (the default: staging, solving, pairing, ...)", on),
                                          ("TABLE_STAGING off (free, inserts, pairing, centres, ...)", off)):
            rows.append("| {} | {} | {:.1f} | {:.1f} |".format(
                label, " ".join(map(str, lengths)), statistics.mean(lengths), statistics.median(seconds)))
    text = "\n".join(rows)
    print(text)
    if record_it:
        command = "python bench/staging_tables.py --n {}{}".format(count, " --solve {}".format(solve) if solve else "")
        record("staging-tables-6", "## 6x6x6 centres staged and solved by tables (`{}`)\n\n".format(command) + text)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--solve", type=int, default=0, help="states also solved whole, staged and not")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    run(args.n, args.solve, not args.no_record)


if __name__ == "__main__":
    main()
