"""The 6x6x6 and 7x7x7 centres staged and solved by tables (solver/big/tablestage.py, tablesolve.py).

The first --n states of bench/solver_big.py's seed for the size are staged by its searches
(6x6x6: lr-inner, lr-outer, ud-inner, ud-outer; 7x7x7: lr-inner3, lr-bars, lr-outer and the
same on U/D; the last one ending the inner wings even, as the solver runs it), then solved
(6x6x6: the three table descents lr, ud, fb; 7x7x7: a bars and a ring search an axis). Each
staging and solve is applied back by the independent model (bench/cube3d.py) and
checked from the facelets. The anchor moves are the reference solver's
(docs/references.md, "Centres staged by tables"). With --solve, the same states
are also solved whole with reduce.TABLE_STAGING on and off (moves, seconds).
Writes the section "staging-tables-6" or "staging-tables-7" of docs/benchmarks.md.

Usage: python bench/staging_tables.py [--size 6|7] [--n 10] [--solve 0] [--no-record]
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
# per size: the searches' anchor moves (docs/references.md; "" where it states none), their
# sum's, the solving stages' names and the anchor of their sum
ANCHORS = {
    6: ({"lr-inner": "9", "lr-outer": "10", "ud-inner": "9", "ud-outer": "10"}, "38",
        ("lr-solve", "ud-solve", "fb-solve"), "20 to 25"),
    7: ({"lr-inner3": "10", "lr-bars": "13", "lr-outer": "10", "ud-inner3": "", "ud-bars": "9 to 13",
         "ud-outer": ""}, "",
        ("lr-solve-bars", "lr-solve-ring", "ud-solve-bars", "ud-solve-ring", "fb-solve-bars", "fb-solve-ring"), ""),
}
ANCHOR, STAGING_ANCHOR, SOLVING, SOLVING_ANCHOR = ANCHORS[N]


def stage_each(cubes):
    """{search: [moves]}, [(found, seconds, nodes, beams)] per cube, stagings found, choices
    tried."""
    staging = tablestage.Staging(None, N)
    solving = tablesolve.SOLVINGS[N]()
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
    return all(len(set(cube[maskstage.orbit_facelets(i, j, N)[s]] for i, j in tablestage.ORBITS[N]
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
        "{} random {}x{}x{} states (bench/solver_big.py's seed {}), the {} searches of "
        "solver/big/tablestage.py compiled, for each of the {} choices of colour pairs "
        "tried in turn until {} staging is found (at most {} nodes a search and divisor, {} a "
        "cube, then a beam of width {}). Then come the {} solving searches of solver/big/tablesolve.py; "
        "every staging and solve applied back by "
        "bench/cube3d.py and checked from the facelets. Load average {:.1f} on {} CPUs shared "
        "with other jobs.".format(count, N, N, N, SEEDS[N], len(ANCHOR), len(tablestage.colour_pairs(cubes[0])),
                                  tablestage.STAGINGS, tablestage.MAX_NODES, tablestage.TOTAL_NODES,
                                  tablestage.BEAM_WIDTH, len(SOLVING), load, os.cpu_count()),
        "",
        "| search | mean moves | anchor |",
        "|---|---|---|",
    ]
    total = []
    for name in ANCHOR:
        values = moves[name]
        rows.append("| {} | {} | {} |".format(
            name, "{:.1f}".format(statistics.mean(values)) if values else "none", _about(ANCHOR[name])))
    for k in range(len(moves[SOLVING[0]])):
        total.append(sum(moves[name][k] for name in ANCHOR))
    rows.append("| the {} searches (sum) | {} | {} |".format(
        len(ANCHOR), "{:.1f}".format(statistics.mean(total)) if total else "none", _about(STAGING_ANCHOR)))
    for name in SOLVING:
        values = moves[name]
        rows.append("| {} | {} | |".format(name, "{:.1f}".format(statistics.mean(values)) if values else "none"))
    solved = [sum(moves[name][k] for name in SOLVING) for k in range(len(moves[SOLVING[0]]))]
    rows.append("| the solving (sum) | {} | {} |".format(
        "{:.1f}".format(statistics.mean(solved)) if solved else "none", _about(SOLVING_ANCHOR)))
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
        "| searches ended by the beam (of {}) | {} |".format(len(ANCHOR) * count, sum(b for _, _, _, b in per_cube)),
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
        command = "python bench/staging_tables.py --size {} --n {}{}".format(
            N, count, " --solve {}".format(solve) if solve else "")
        record("staging-tables-%d" % N, "## {0}x{0}x{0} centres staged and solved by tables (`{1}`)\n\n".format(
            N, command) + text)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, choices=sorted(ANCHORS), default=6)
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--solve", type=int, default=0, help="states also solved whole, staged and not")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    _use_size(args.size)
    run(args.n, args.solve, not args.no_record)


def _about(anchor):
    return "about " + anchor if anchor else "not stated"


def _use_size(n):
    """Point the module's size constants at size n."""
    global N, ANCHOR, STAGING_ANCHOR, SOLVING, SOLVING_ANCHOR
    N = n
    ANCHOR, STAGING_ANCHOR, SOLVING, SOLVING_ANCHOR = ANCHORS[n]


if __name__ == "__main__":
    main()
