"""`cubebot calibrate [--virtual-brick | --sim] [--size N]`: with a solved cube on
the table, check homing and reach, scan the colours into a profile, and write
the profile and the configuration atomically (previous versions kept as .bak).
See cubebot.robot.tools.calibrate. Exits 1 if a check fails (nothing is written then).
"""

import os
import sys

from cubebot.robot.inputs import arg_writable_dir, writable_file
from cubebot.robot.cli.demo import robot_size_type


def register(subparsers):
    from cubebot.robot.job.robots import add_backend_arguments
    parser = subparsers.add_parser("calibrate", help="check positions, make the colour profile (solved cube)")
    add_backend_arguments(parser)
    parser.add_argument("--size", type=robot_size_type(), default=3, help="size of the solved cube (default 3)")
    parser.add_argument("--output", metavar="DIR", default=None, type=arg_writable_dir("output folder"),
                        help="write config.json and profile.json here instead of to --config / "
                             "--profile (default: those, else ~/.cubebot)")
    parser.set_defaults(run=run)


def _outputs(args):
    """(config path, profile path) to write, each checked writable; BadValue if not."""
    from cubebot.robot.job.robots import CONFIG_FILE, PROFILE_FILE
    if args.output:
        saved = os.path.join(args.output, os.path.basename(CONFIG_FILE))
        profile = os.path.join(args.output, os.path.basename(PROFILE_FILE))
    else:
        saved = os.path.expanduser(args.config or CONFIG_FILE)
        profile = os.path.expanduser(args.profile or PROFILE_FILE)
    return writable_file(saved, "config file"), writable_file(profile, "profile")


def run(args):
    from cubebot.solver.facelets import solved
    from cubebot.robot.tools import calibrate
    from cubebot.robot.job.robots import open_backend, robot_config
    from cubebot.robot.machine.mechanism import Mechanism
    config = robot_config(args.config, args.backend)
    saved, profile = _outputs(args)        # checked writable before any motor moves
    with open_backend(args.backend, config, state=solved(args.size)) as opened:
        cal = calibrate.calibrate(Mechanism(opened.hw, config), args.size)
    sys.stdout.write(cal.report())
    if not cal.ok:
        return 1
    calibrate.save(cal, config, saved, profile)
    sys.stdout.write("wrote {} and {} (previous versions kept as .bak)\n".format(profile, saved))
    return 0
