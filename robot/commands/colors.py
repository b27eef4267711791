"""`cubebot colors FILE|- [--size N] [--profile P] [--json]`: a scan file to a facelet string.

Reads a scan (the de-facto JSON, the cubebot-scan format, a JSON list of 6N^2
[r, g, b] rows in URFDLB order, per-face objects {"U": [...], ...}, or CSV
lines r,g,b; see robot.scanfile) and prints the URFDLB facelet string of the most likely valid
cube. --json prints {"state", "size", "confidence", "doubtful", "facelets"
(per-facelet confidence), "references" (face -> [r, g, b])}.
Exit codes: 0 resolved; 2 malformed input; 3 no valid cube is clearly the
most likely (the doubtful facelet positions, 0-based URFDLB, on stderr).
"""

import json
import sys

EXIT_UNRESOLVED = 3


def register(subparsers):
    parser = subparsers.add_parser("colors", help="resolve a colour scan file into a facelet string")
    parser.add_argument("file", help="scan file (JSON or CSV r,g,b lines), or - for stdin")
    parser.add_argument("--size", type=int, default=None, help="cube size N (default: from the scan)")
    parser.add_argument("--profile", default=None,
                        help="colour profile from `cubebot calibrate-colors` (default: none, "
                             "the colours are learned from the scan)")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON object with confidences, doubtful facelets and references")
    parser.set_defaults(run=run)


def read_scan(path, size=None):
    """(readings, N) of a scan file or stdin ("-"); UsageError (one line) if unusable."""
    from robot.cli import UsageError
    from robot.scanfile import MalformedScan, parse_scan
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path) as fh:
                text = fh.read()
    except (IOError, OSError) as exc:
        raise UsageError("cannot read scan {}: {}".format(path, exc.strerror or exc))
    except UnicodeDecodeError:
        raise UsageError("scan {}: not a text file".format(path))
    try:
        return parse_scan(text, size)
    except MalformedScan as exc:
        raise UsageError("scan {}: {}".format(path, exc))


def run(args):
    from robot.colorprofile import load_profile
    from robot.colors import resolve
    from robot.errors import ScanUnresolved
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
