"""`cubebot calibrate-colors SCAN [--size N] [--output PROFILE]`: a colour profile from a solved cube.

SCAN is a scan file (cubebot.robot.colour.scanfile formats, - for stdin) of a *solved* cube.
The profile (cubebot.robot.colour.profile) is written atomically to PROFILE (default
~/.cubebot/profile.json, where the robot looks for it; checked writable before
anything is read) and its path printed. Exit 2 for bad input (a scan that is
not of a solved cube among it), 3 when the scan does not read as a cube.
"""

import os
import sys


def register(subparsers):
    from cubebot.robot.job.robots import PROFILE_FILE
    from cubebot.robot.cli.colors import scan_size_type
    parser = subparsers.add_parser("calibrate-colors",
                                   help="save a colour profile from a scan of a solved cube")
    parser.add_argument("scan", help="scan file of a solved cube (JSON), or - for stdin")
    parser.add_argument("--size", type=scan_size_type(), default=None, help="cube size N (default: from the scan)")
    parser.add_argument("--output", default=PROFILE_FILE,
                        help="where to write the profile (default: {})".format(PROFILE_FILE))
    parser.set_defaults(run=run)


def run(args):
    from cubebot.robot.cli.main import UsageError
    from cubebot.robot.colour.calibration import make_profile
    from cubebot.robot.colour.profile import save_profile
    from cubebot.robot.cli.colors import EXIT_UNRESOLVED, read_scan
    from cubebot.robot.errors import ScanUnresolved
    from cubebot.robot.inputs import writable_file
    path = writable_file(os.path.expanduser(args.output), "profile")    # before any work
    readings, n = read_scan(args.scan, args.size)
    try:
        profile = make_profile(readings, n)
    except ScanUnresolved as exc:
        sys.stderr.write("cubebot: calibration scan is unclear ({}): rescan the solved cube\n".format(exc))
        return EXIT_UNRESOLVED
    try:
        save_profile(profile, path)
    except (IOError, OSError) as exc:
        from cubebot.robot.cli.main import DISK_FAULTS
        if exc.errno in DISK_FAULTS:
            raise                           # the disk failed during the work: a fault (exit 1)
        raise UsageError("cannot write profile {}: {}".format(path, exc.strerror or exc))
    sys.stdout.write(path + "\n")
    return 0
