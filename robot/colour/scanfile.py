"""Scan files: raw colour readings of a whole cube, in five layouts.

The de-facto format of existing cube-robot tools: one object mapping the
facelet numbers "1".."6N^2" to [r, g, b], the faces in the order U, L, F,
R, B, D, each face row-major as drawn in the net (docs/colors.md).

The project's own format keeps several samples per facelet:
  {"format": "cubebot-scan", "version": 1, "size": N, "order": "URFDLB",
   "readings": [[[r, g, b], ...], ...]}
with 6N^2 entries in URFDLB facelet order, each a list of one or more samples.

Three more common layouts are read as they are (`parse_scan`):
- a JSON list of 6N^2 [r, g, b] rows in URFDLB order;
- per-face objects: {"U": [...], "R": [...], ...}, each face N^2 [r, g, b]
  row-major, flat or as N rows of N;
- CSV text: 6N^2 lines "r,g,b" in URFDLB order (blank lines, "#" comments
  and one header line of words are skipped).

Inside the program, readings are a list of 6N^2 lists of (r, g, b) samples,
URFDLB order. Malformed input raises MalformedScan (a ValueError) with one line.
"""

import json
import math

from cubebot.solver.facelets import FACES, MAX_SIZE, MIN_SIZE

from cubebot.robot.inputs import short

DEFACTO_ORDER = "ULFRBD"
MAX_READING = 65535.0         # no sensor reads more (EV3 raw counts ~1020, webcams 255, 16-bit images)
FORMAT = "cubebot-scan"
VERSION = 1


class MalformedScan(ValueError):
    """A scan file or a readings list that does not have the expected shape."""


def _is_number(value):
    # bounds first: an int of 400 digits is out of range, not an OverflowError in isfinite
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and 0 <= value <= MAX_READING and math.isfinite(value))


def _check_rgb(rgb, where):
    if not (isinstance(rgb, (list, tuple)) and len(rgb) == 3 and all(_is_number(c) for c in rgb)):
        raise MalformedScan("{}: {} is not a reading: use [r, g, b], 3 numbers from 0 to {:g}".format(
            where, short(rgb), MAX_READING))
    return tuple(rgb)


def check_readings(readings, n):
    """Normalise `readings` to 6N^2 lists of (r, g, b) tuples; MalformedScan if it cannot.

    A facelet may be given as one (r, g, b) or as a list of samples.
    """
    if not isinstance(readings, (list, tuple)) or len(readings) != 6 * n * n:
        got = len(readings) if isinstance(readings, (list, tuple)) else type(readings).__name__
        raise MalformedScan("readings: got {}, a {}x{}x{} cube needs {} facelets".format(
            got, n, n, n, 6 * n * n))
    out = []
    for i, item in enumerate(readings):
        where = "facelet {}".format(i)
        if isinstance(item, (list, tuple)) and item and all(_is_number(c) for c in item):
            out.append([_check_rgb(item, where)])
        elif isinstance(item, (list, tuple)) and item:
            out.append([_check_rgb(s, where) for s in item])
        else:
            raise MalformedScan("{}: {} holds no reading".format(where, short(item)))
    return out


def size_of_count(count):
    """The N of a scan with `count` facelets; MalformedScan if none fits."""
    for n in range(MIN_SIZE, MAX_SIZE + 1):
        if 6 * n * n == count:
            return n
    raise MalformedScan("scan has {} facelets: a cube needs one of {}".format(
        count, ", ".join(str(6 * n * n) for n in range(MIN_SIZE, MAX_SIZE + 1))))


def _check_size(size):
    """The --size given with a scan: MIN_SIZE..MAX_SIZE, checked before anything is allocated."""
    if size is not None and (isinstance(size, bool) or not isinstance(size, int)
                             or not MIN_SIZE <= size <= MAX_SIZE):
        raise MalformedScan("size {} is not supported: use {} to {}".format(short(size), MIN_SIZE, MAX_SIZE))


def _from_defacto(obj, size):
    n = size_of_count(len(obj)) if size is None else size
    nn = n * n
    keys = set(str(k) for k in range(1, 6 * nn + 1))
    if set(obj) != keys:
        missing = sorted(keys - set(obj), key=lambda k: int(k))
        extra = sorted(set(obj) - keys)
        what = "missing facelet {}".format(missing[0]) if missing else \
            "unexpected key {}".format(short(extra[0]))
        raise MalformedScan("{}: a {}x{}x{} scan has keys \"1\"..\"{}\"".format(
            what, n, n, n, 6 * nn))
    readings = [None] * (6 * nn)
    for number in range(1, 6 * nn + 1):
        face = DEFACTO_ORDER[(number - 1) // nn]
        index = FACES.index(face) * nn + (number - 1) % nn
        readings[index] = [_check_rgb(obj[str(number)], "facelet \"{}\"".format(number))]
    return readings, n


def _from_own(obj, size):
    if obj.get("version") != VERSION:
        raise MalformedScan("scan version {} is not supported: use {}".format(
            short(obj.get("version")), VERSION))
    if obj.get("order", "URFDLB") != "URFDLB":
        raise MalformedScan("scan order {} is not supported: use \"URFDLB\"".format(
            short(obj.get("order"))))
    n = obj.get("size")
    if not isinstance(n, int) or isinstance(n, bool) or not MIN_SIZE <= n <= MAX_SIZE:
        raise MalformedScan("scan size {} is not supported: use {} to {}".format(
            short(n), MIN_SIZE, MAX_SIZE))
    if size is not None and size != n:
        raise MalformedScan("scan is of a {}x{}x{} cube, not {}x{}x{} (--size)".format(
            n, n, n, size, size, size))
    return check_readings(obj.get("readings"), n), n


def _sized(readings, size, what):
    n = size_of_count(len(readings)) if size is None else size
    if len(readings) != 6 * n * n:
        raise MalformedScan("{}: got {} readings, a {}x{}x{} cube needs {}".format(
            what, len(readings), n, n, n, 6 * n * n))
    return check_readings(readings, n), n


def _from_faces(obj, size):
    readings = []
    for face in FACES:
        rows = obj[face]
        if not isinstance(rows, list):
            raise MalformedScan("face {}: {} is not a list of readings".format(face, short(rows)))
        # N rows of N readings, or N^2 readings.
        if rows and all(isinstance(r, list) and r and isinstance(r[0], list) for r in rows):
            rows = [rgb for row in rows for rgb in row]
        readings.append(rows)
    counts = set(len(rows) for rows in readings)
    if len(counts) != 1:
        raise MalformedScan("faces hold different numbers of readings: {}".format(
            ", ".join("{} {}".format(f, len(r)) for f, r in zip(FACES, readings))))
    return _sized([rgb for rows in readings for rgb in rows], size, "per-face scan")


def _from_csv(text, size):
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        cells = [c.strip() for c in line.replace(";", ",").split(",")]
        try:
            values = [float(c) for c in cells]
        except ValueError:
            if not rows and not any(c.replace(".", "", 1).isdigit() for c in cells):
                continue            # one header line of words
            raise MalformedScan("line {}: {} is not r,g,b".format(number, short(line)))
        if len(values) != 3:
            raise MalformedScan("line {}: {} values, r,g,b needs 3".format(number, len(values)))
        rows.append(_check_rgb(values, "line {}".format(number)))
    if not rows:
        raise MalformedScan("no readings: expected JSON or CSV lines r,g,b")
    return _sized(rows, size, "CSV scan")


def parse_scan(text, size=None):
    """(readings, N) from the text of a scan file in any of the layouts (module doc)."""
    _check_size(size)
    stripped = text.lstrip()
    if not stripped.startswith(("{", "[")):
        return _from_csv(text, size)
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise MalformedScan("not valid JSON: {}".format(str(exc).splitlines()[0][:200]))
    if isinstance(obj, list):
        return _sized(obj, size, "scan list")
    if not isinstance(obj, dict):
        raise MalformedScan("a scan must be a JSON object or list, not {}".format(
            type(obj).__name__))
    if obj.get("format") == FORMAT:
        return _from_own(obj, size)
    if "format" in obj:
        raise MalformedScan("unknown scan format {}: use {!r} or the de-facto "
                            "facelet object".format(short(obj["format"]), FORMAT))
    if obj and set(obj) <= set(FACES):
        if set(obj) != set(FACES):
            raise MalformedScan("per-face scan: missing face {}".format(
                ",".join(f for f in FACES if f not in obj)))
        return _from_faces(obj, size)
    return _from_defacto(obj, size)


def _rounded(rgb):
    return [int(round(c)) if float(c).is_integer() else round(c, 2) for c in rgb]


def dump_defacto(readings, n):
    """The de-facto JSON object (a dict) of `readings`; several samples -> combined (colorspace.combine)."""
    from cubebot.robot.colour.space import combine
    readings = check_readings(readings, n)
    nn = n * n
    out = {}
    for number in range(1, 6 * nn + 1):
        face = DEFACTO_ORDER[(number - 1) // nn]
        index = FACES.index(face) * nn + (number - 1) % nn
        out[str(number)] = _rounded(combine(readings[index]))
    return out


def dump_scan(readings, n):
    """The project's own scan object (a dict), keeping every sample."""
    readings = check_readings(readings, n)
    return {"format": FORMAT, "version": VERSION, "size": n, "order": "URFDLB",
            "readings": [[_rounded(s) for s in samples] for samples in readings]}
