"""`cubebot calibrate [--virtual-brick | --sim] [--size N]`: with a solved cube on
the table, check homing and reach, scan the colours into a profile, and write
the profile and the configuration atomically (previous versions kept as .bak).
See robot.calibrate. Exits 1 if a check fails (nothing is written then).
"""

import os
import sys

DEFAULT_HOME = os.path.join("~", ".cubebot")


def register(subparsers):
    from ..backends import add_backend_arguments
    parser = subparsers.add_parser("calibrate", help="check positions, make the colour profile (solved cube)")
    add_backend_arguments(parser)
    parser.add_argument("--size", type=int, choices=(2, 3), default=3, help="size of the solved cube (default 3)")
    parser.add_argument("--profile", default=os.path.join(DEFAULT_HOME, "profile.json"),
                        help="colour profile to write (default: %(default)s)")
    parser.add_argument("--save-config", default=os.path.join(DEFAULT_HOME, "config.json"),
                        help="configuration file to write (default: %(default)s)")
    parser.set_defaults(run=run)


def run(args):
    from solver.facelets import solved
    from .. import calibrate
    from ..backends import open_backend
    from ..config import load_config
    from ..mechanism import Mechanism
    config = load_config(args.config)
    with open_backend(args.backend, config, state=solved(args.size)) as opened:
        cal = calibrate.calibrate(Mechanism(opened.hw, config), args.size)
    sys.stdout.write(cal.report())
    if not cal.ok:
        return 1
    profile = os.path.expanduser(args.profile)
    saved = os.path.expanduser(args.save_config)
    calibrate.save(cal, config, saved, profile)
    sys.stdout.write("wrote {} and {} (previous versions kept as .bak)\n".format(profile, saved))
    return 0
