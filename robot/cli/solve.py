"""`cubebot solve STATE|-|--file FILE [--size N] [--metric htm|qtm] [--budget S] [--json]`.

Prints the moves on one line, or "already solved" for a solved cube (with
--json, {"moves": [...], "length": L, "metric": ..., "seconds": t, "core": path, "solve5": path,
"finish": path}). STATE
`-` reads the state from stdin, `--file FILE` from a file (its first line
that is not blank or a # comment: a 7x7x7 state is 294 symbols long). `--batch FILE` (FILE may be `-` for stdin)
reads one state per line and prints one JSON line per state, in order;
blank lines and lines starting with `#` are skipped; a bad state gives
{"state": ..., "error": "..."} and the batch goes on. A batch with no state
at all is an error (2); when any state failed, one line on stderr says how
many and the exit code is 2 if they were bad input, else 1.

Missing tables: when a person runs the command in a terminal (stdin and
stderr are terminals, no --json, and a --batch writes to a terminal too),
the missing tables of the cube's size are built first, with a progress bar
on stderr. Otherwise the solve fails with one line naming
`cubebot tables build --size N` (cubebot.solver.store.require_tables).
"""

import json
import sys

from cubebot.robot.inputs import BadValue, arg_seconds, arg_size, decode, read_text, stdin_bytes

MAX_LINE_BYTES = 4096         # a batch line: a 7x7x7 state has 294 facelets
COMMENT = "#"


def _solvable_sizes():
    from cubebot.solver.api import solvable_sizes
    return solvable_sizes()


def _max_budget_s():
    from cubebot.solver.api import MAX_BUDGET_S
    return MAX_BUDGET_S


def register(subparsers):
    parser = subparsers.add_parser("solve", help="solve a cube given as a facelet string")
    parser.add_argument("state", nargs="?", help="the facelet string (URFDLB order, any six symbols), "
                                                 "or - to read it from stdin")
    parser.add_argument("--size", type=arg_size(_solvable_sizes, "with a solver"), default=None,
                        help="cube size N (default: from the length; sizes with a solver: {})".format(
                            ", ".join(str(n) for n in _solvable_sizes())))
    parser.add_argument("--metric", choices=("htm", "qtm"), default="htm",
                        help="count moves as half turns (htm, default) or quarter turns (qtm)")
    parser.add_argument("--budget", type=arg_seconds(0, _max_budget_s()), default=None, metavar="S",
                        help="search this many seconds for shorter solutions (3x3x3; the 4x4x4 tries "
                             "the views of its 3x3x3 finish within S s, default all six; at most {:g})".format(
                                 _max_budget_s()))
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    parser.add_argument("--file", metavar="FILE", default=None,
                        help="read the state from FILE (its first line that is not blank or a # comment)")
    parser.add_argument("--batch", metavar="FILE", default=None,
                        help="solve one state per line of FILE (- for stdin), JSON lines out; "
                             "# starts a comment line")
    parser.set_defaults(run=run)


def result_dict(solution):
    """The JSON object of a Solution; "core" names the path the searches took
    (cubebot.solver.search.core_path: "compiled" or "python"), "solve5" that of the
    5x5x5's phase-2 loops (the same two names) and "finish" the search that finishes
    the reduced cubes of the 4x4x4 and bigger (solve3.finish_path: "two-phase
    (compiled)" or "kociemba")."""
    from cubebot.solver import solve3
    from cubebot.solver.moves import format_move
    from cubebot.solver.search import COMPILED, PYTHON, core_path
    from cubebot.solver.solve5.midges import native
    return {"moves": [format_move(m) for m in solution.moves], "length": solution.length,
            "metric": solution.metric, "seconds": round(solution.seconds, 6), "core": core_path(),
            "solve5": COMPILED if native() is not None else PYTHON,
            "finish": solve3.finish_path()}


def _dump(obj):
    return json.dumps(obj, sort_keys=True)


def batch_states(lines, name):
    """(line number, state) for each state line of a batch: bytes lines in, comments and
    blank lines skipped; BadValue (one line, naming the line) for text that is not UTF-8
    or a line longer than MAX_LINE_BYTES."""
    for number, raw in enumerate(lines, 1):
        if len(raw) > MAX_LINE_BYTES:
            raise BadValue("batch {} line {} is longer than {} bytes: not a cube state".format(
                name, number, MAX_LINE_BYTES))
        state = decode(raw, "batch {} line {}".format(name, number)).strip()
        if state and not state.startswith(COMMENT):
            yield number, state


def _bounded_lines(stream):
    """The byte lines of a binary stream, each cut at MAX_LINE_BYTES + 1 (memory stays bounded)."""
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            yield line                              # too long: batch_states refuses it
            return
        yield line


def _is_tty(stream):
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):                   # a closed stream
        return False


def at_terminal(args):
    """True when a person runs the command in a terminal (see the module docstring)."""
    if args.json or not (_is_tty(sys.stdin) and _is_tty(sys.stderr)):
        return False
    return args.batch is None or _is_tty(sys.stdout)


def build_missing_tables(args, state):
    """At a terminal, build the tables of `state`'s size that are missing (a progress bar)."""
    if not at_terminal(args):
        return
    from cubebot.solver import store
    from cubebot.solver.api import ENGINES
    from cubebot.solver.errors import CubeError
    from cubebot.solver.facelets import check_counts
    try:
        size = check_counts(state, args.size)
    except CubeError:
        return                                      # the solve names what is wrong
    missing = store.missing_tables(size) if size in ENGINES else []
    if missing:
        from cubebot.robot.cli.tables import build_with_bar
        sys.stderr.write("the {0}x{0}x{0} tables are not built: building {1} now (once)\n".format(
            size, len(missing)))
        build_with_bar(missing)


def run_batch(args):
    from cubebot.solver.api import solve
    from cubebot.solver.errors import CubeError, InvalidCube, NoSolver, TableError
    from cubebot.robot.cli.main import EXIT_FAULT, EXIT_USAGE, STDOUT_NAME, UsageError, write_output
    try:
        source = stdin_bytes() if args.batch == "-" else open(args.batch, "rb")
    except (IOError, OSError) as exc:
        raise UsageError("cannot read batch file {}: {}".format(args.batch, exc.strerror or exc))
    done, bad_input, failed = 0, 0, 0
    try:
        for _, state in batch_states(_bounded_lines(source), args.batch):
            done += 1
            try:
                build_missing_tables(args, state)
                obj = result_dict(solve(state, size=args.size, metric=args.metric, budget=args.budget))
            except TableError:
                raise                                   # every later state would fail the same way
            except (InvalidCube, NoSolver) as exc:
                bad_input += 1
                obj = {"error": str(exc)}
            except CubeError as exc:
                failed += 1
                obj = {"error": str(exc)}
            obj["state"] = state
            try:
                write_output(_dump(obj) + "\n")
            except EnvironmentError as exc:
                raise OSError(exc.errno, exc.strerror, "the batch " + STDOUT_NAME)
    except (IOError, OSError) as exc:
        if str(exc.filename).endswith(STDOUT_NAME):
            raise                           # the output failed, not the batch file
        raise UsageError("cannot read batch file {}: {}".format(args.batch, exc.strerror or exc))
    finally:
        if args.batch != "-":
            source.close()
    if not done:
        raise UsageError("batch {} holds no cube state (only blank or # lines)".format(args.batch))
    if bad_input or failed:
        sys.stderr.write("cubebot: error: {} of {} states failed ({} not valid cubes, {} unsolved)\n".format(
            bad_input + failed, done, bad_input, failed))
        return EXIT_USAGE if bad_input and not failed else EXIT_FAULT
    return 0


def _read_state(path):
    """The state read for `solve -` (stdin) or `--file FILE`: the first line that is not
    blank or a comment."""
    from cubebot.robot.cli.main import UsageError
    where = "stdin" if path == "-" else "file " + path
    text = read_text(path, "state from", MAX_LINE_BYTES * 4)
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(COMMENT):
            return line
    raise UsageError("no cube state in {}".format(where))


def run(args):
    from cubebot.robot.cli.main import UsageError
    given = [x for x in (args.state, args.file, args.batch) if x is not None]
    if len(given) > 1:
        raise UsageError("give one of STATE, --file FILE or --batch FILE")
    if args.batch is not None:
        return run_batch(args)
    if not given:
        raise UsageError("give a STATE to solve (or --file FILE, or --batch FILE)")
    if args.file is not None:
        state = _read_state(args.file)
    else:
        state = _read_state("-") if args.state == "-" else args.state
    from cubebot.solver.api import solve
    build_missing_tables(args, state)
    solution = solve(state, size=args.size, metric=args.metric, budget=args.budget)
    if args.json:
        sys.stdout.write(_dump(result_dict(solution)) + "\n")
    elif not solution.moves:
        sys.stdout.write("already solved\n")
    else:
        from cubebot.solver.moves import format_moves
        sys.stdout.write(format_moves(solution.moves) + "\n")
    return 0
