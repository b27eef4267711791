"""`cubebot solve STATE [--size N] [--metric htm|qtm] [--budget S] [--json]`.

Prints the moves on one line (or, with --json, {"moves": [...], "length": L,
"metric": ..., "seconds": t}). `--batch FILE` (FILE may be `-` for stdin)
reads one state per line and prints one JSON line per state, in order; a bad
state gives {"state": ..., "error": "..."} and the batch goes on.
"""

import json
import sys


def register(subparsers):
    parser = subparsers.add_parser("solve", help="solve a cube given as a facelet string")
    parser.add_argument("state", nargs="?", help="the facelet string (URFDLB order, any six symbols)")
    parser.add_argument("--size", type=int, default=None, help="cube size N (default: from the length)")
    parser.add_argument("--metric", choices=("htm", "qtm"), default="htm",
                        help="count moves as half turns (htm, default) or quarter turns (qtm)")
    parser.add_argument("--budget", type=float, default=None, metavar="S",
                        help="search this many seconds for shorter solutions (3x3x3; the "
                             "4x4x4's 3x3x3 finish, default 1)")
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    parser.add_argument("--batch", metavar="FILE", default=None,
                        help="solve one state per line of FILE (- for stdin), JSON lines out")
    parser.set_defaults(run=run)


def result_dict(solution):
    """The JSON object of a Solution."""
    from cubebot.solver.moves import format_move
    return {"moves": [format_move(m) for m in solution.moves], "length": solution.length,
            "metric": solution.metric, "seconds": round(solution.seconds, 6)}


def _dump(obj):
    return json.dumps(obj, sort_keys=True)


def run_batch(args):
    from cubebot.solver.api import solve
    from cubebot.solver.errors import CubeError, TableError
    from cubebot.robot.cli.main import UsageError
    try:
        source = sys.stdin if args.batch == "-" else open(args.batch)
    except (IOError, OSError) as exc:
        raise UsageError("cannot read batch file {}: {}".format(args.batch, exc.strerror or exc))
    with source:
        for line in source:
            state = line.strip()
            if not state:
                continue
            try:
                obj = result_dict(solve(state, size=args.size, metric=args.metric, budget=args.budget))
            except TableError:
                raise                                   # every later state would fail the same way
            except CubeError as exc:
                obj = {"error": str(exc)}
            obj["state"] = state
            sys.stdout.write(_dump(obj) + "\n")
            sys.stdout.flush()
    return 0


def run(args):
    from cubebot.robot.cli.main import UsageError
    if args.batch is not None:
        if args.state is not None:
            raise UsageError("give either STATE or --batch FILE, not both")
        return run_batch(args)
    if args.state is None:
        raise UsageError("give a STATE to solve (or --batch FILE)")
    from cubebot.solver.api import solve
    solution = solve(args.state, size=args.size, metric=args.metric, budget=args.budget)
    if args.json:
        sys.stdout.write(_dump(result_dict(solution)) + "\n")
    else:
        from cubebot.solver.moves import format_moves
        sys.stdout.write(format_moves(solution.moves) + "\n")
    return 0
