"""`cubebot colors FILE|- [--size N] [--profile P] [--json]`: a scan file to a facelet string.

Reads a scan (the de-facto JSON or the cubebot-scan format, see
cubebot.robot.colour.scanfile) and prints the URFDLB facelet string of the most likely valid
cube. --json prints {"state", "size", "confidence", "doubtful", "facelets"
(per-facelet confidence), "references" (face -> [r, g, b])}.
Exit codes: 0 resolved; 2 malformed input; 3 no valid cube is clearly the
most likely (the doubtful facelet positions, 0-based URFDLB, on stderr).
"""

import json
import sys

from cubebot.robot.inputs import MAX_TEXT_BYTES, BadValue, arg_int, read_text

EXIT_UNRESOLVED = 3           # cubebot.robot.cli.main.EXIT_UNREADABLE_SCAN
MAX_SCAN_BYTES = 4 * MAX_TEXT_BYTES   # a 7x7x7 scan with many samples per facelet stays far below


def register(subparsers):
    parser = subparsers.add_parser("colors", help="resolve a colour scan file into a facelet string")
    parser.add_argument("file", help="scan file (JSON), or - for stdin")
    parser.add_argument("--size", type=scan_size_type(), default=None,
                        help="cube size N (default: from the scan)")
    parser.add_argument("--profile", default=None,
                        help="colour profile from `cubebot calibrate-colors` (default: built-in colours)")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON object with confidences, doubtful facelets and references")
    parser.set_defaults(run=run)


def scan_size_type():
    """type= of --size for a scan: a cube size the scan format knows (bounded before any work)."""
    from cubebot.solver.facelets import MAX_SIZE, MIN_SIZE
    return arg_int(MIN_SIZE, MAX_SIZE)


def read_scan(path, size=None):
    """(readings, N) of a scan file or stdin ("-"); UsageError (one line) if unusable."""
    from cubebot.robot.cli.main import UsageError
    from cubebot.robot.colour.scanfile import MalformedScan, parse_scan
    try:
        text = read_text(path, "scan", MAX_SCAN_BYTES)
    except BadValue as exc:
        raise UsageError(str(exc))
    try:
        return parse_scan(text, size)
    except MalformedScan as exc:
        raise UsageError("scan {}: {}".format(path, exc))


def run(args):
    from cubebot.robot.colour.profile import load_profile
    from cubebot.robot.colour.resolve import resolve
    from cubebot.robot.errors import ScanUnresolved
    readings, n = read_scan(args.file, args.size)
    profile = load_profile(args.profile) if args.profile else None
    try:
        result = resolve(readings, n, profile)
    except ScanUnresolved as exc:
        sys.stderr.write("cubebot: no valid cube: {}; doubtful facelets: {}\n".format(
            exc, " ".join(str(i) for i in exc.doubtful) or "all"))
        if args.json:
            sys.stdout.write(json.dumps({"state": None, "size": n, "error": str(exc),
                                         "doubtful": exc.doubtful}, sort_keys=True) + "\n")
        return EXIT_UNRESOLVED
    if args.json:
        sys.stdout.write(json.dumps({
            "state": result.state, "size": n, "confidence": result.confidence,
            "doubtful": result.doubtful, "facelets": result.facelets,
            "references": result.references}, sort_keys=True) + "\n")
    else:
        sys.stdout.write(result.state + "\n")
    return 0
