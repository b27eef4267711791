"""`cubebot scramble --size N [--seed S] [--json]`: a random state and its scramble.

Prints the state on the first line and the moves that make it from the
solved cube on the second. For the 2x2x2 and 3x3x3 the state is uniformly
random and the scramble is its solution inverted; for N >= 4 it is a random
move sequence.
"""

import json
import random
import sys

from cubebot.robot.inputs import arg_int, arg_seed


def _cube_size():
    from cubebot.solver.facelets import MAX_SIZE, MIN_SIZE
    return arg_int(MIN_SIZE, MAX_SIZE)


def register(subparsers):
    parser = subparsers.add_parser("scramble", help="print a random cube state and its scramble")
    parser.add_argument("--size", type=_cube_size(), default=3, help="cube size N (default 3)")
    parser.add_argument("--seed", type=arg_seed(), default=None, help="random seed (default: random)")
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    parser.set_defaults(run=run)


def run(args):
    from cubebot.solver.facelets import check_size
    from cubebot.solver.scramble import scramble
    check_size(args.size)
    state, moves = scramble(args.size, random.Random(args.seed))
    from cubebot.solver.moves import format_moves
    if args.json:
        sys.stdout.write(json.dumps({"state": state, "scramble": format_moves(moves)}, sort_keys=True) + "\n")
    else:
        sys.stdout.write(state + "\n" + format_moves(moves) + "\n")
    return 0
