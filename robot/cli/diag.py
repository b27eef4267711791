"""`cubebot diag [--quick] [--virtual-brick | --sim]`: check the robot's health.

Prints a readable report (cubebot.robot.tools.diag) and exits 1 on any fault. --quick skips
the motor moves and runs one solver self-test (what deploy.sh runs).
On a virtual brick, --unplug PORT leaves a port empty (to see a failure).
"""

import sys

from cubebot.robot.inputs import arg_choice, arg_seed


def _ports():
    from cubebot.robot.machine.config import INPUT_PORTS, OUTPUT_PORTS
    return OUTPUT_PORTS + INPUT_PORTS


def register(subparsers):
    from cubebot.robot.job.robots import add_backend_arguments
    parser = subparsers.add_parser("diag", help="check battery, motors, sensors, tables, solver, memory")
    parser.add_argument("--quick", action="store_true", help="no motor moves, one solver self-test")
    parser.add_argument("--seed", type=arg_seed(), default=0, help="seed of the self-test cubes")
    parser.add_argument("--unplug", action="append", default=[], metavar="PORT",
                        type=arg_choice(_ports(), "a port"),
                        help="virtual brick only: leave this port empty ({})".format(", ".join(_ports())))
    add_backend_arguments(parser)
    parser.set_defaults(run=run)


def run(args):
    from cubebot.solver.facelets import solved
    from cubebot.robot.tools import diag
    from cubebot.robot.job.robots import VIRTUAL_BRICK, colour_profile, open_backend, robot_config
    from cubebot.robot.cli.main import UsageError
    if args.unplug and args.backend != VIRTUAL_BRICK:
        raise UsageError("--unplug works on the virtual brick only (use --virtual-brick)")
    config = robot_config(args.config, args.backend)
    colour_profile(args.profile, args.backend)      # a bad --profile is refused, not ignored
    opened = open_backend(args.backend, config, state=solved(3), seed=args.seed,
                          missing=tuple(args.unplug), missing_ok=True)
    with opened:
        checks = diag.run_checks(opened.hw, config, quick=args.quick, seed=args.seed)
    sys.stdout.write(diag.report(checks))
    return 1 if diag.has_fault(checks) else 0
