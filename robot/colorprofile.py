"""Colour calibration profiles: the reference readings of the six colours.

A profile is a dict, saved as JSON:
  {"format": "cubebot-colour-profile", "version": 1, "size": N,
   "classes": ["U", "R", "F", "D", "L", "B"],
   "facelets": [[r, g, b] x 6],      mean raw reading of each colour's
                                      non-centre facelets
   "centres": [[r, g, b] x 6] or null}  the middle centres (odd cubes)
Class k is the colour of face k of the solved cube that was scanned. Raw
counts are as read in RGB-RAW mode. Without a profile the resolver uses
`default_profile()`, built on typical EV3 readings (robot.colorscheme).
"""

import json
import math
import os
import tempfile

from .colorscheme import COLOURS, EV3_TYPICAL_RAW, RAW_MAX
from .colorspace import combine, mean_rgb
from .errors import ConfigError
from .inputs import BadValue, read_text, short

FORMAT = "cubebot-colour-profile"
VERSION = 1


def default_profile():
    """The built-in profile: typical EV3 readings, no centre references."""
    return {"format": FORMAT, "version": VERSION, "size": None, "classes": list(COLOURS),
            "facelets": [list(EV3_TYPICAL_RAW[c]) for c in COLOURS], "centres": None}


def make_profile(readings, n):
    """A profile from a scan of a solved cube (readings as for colors.resolve).

    Raises ConfigError if the scan is not of a solved cube.
    """
    from .colors import resolve
    from solver.facelets import FACES, faces_of, is_solved
    result = resolve(readings, n)
    if not is_solved(result.state, n):
        bad = [FACES[k] for k, face in enumerate(faces_of(result.state, n)) if len(set(face)) > 1]
        raise ConfigError("calibration scan is not a solved cube: faces {} show several "
                          "colours".format(",".join(bad)))
    nn = n * n
    mid = nn // 2 if n % 2 else None
    facelets, centres = [], []
    for k in range(6):
        face = [combine(readings[k * nn + j]) for j in range(nn) if j != mid]
        facelets.append([round(v, 1) for v in mean_rgb(face)])
        if mid is not None:
            centres.append([round(v, 1) for v in combine(readings[k * nn + mid])])
    return {"format": FORMAT, "version": VERSION, "size": n, "classes": list(FACES),
            "facelets": facelets, "centres": centres or None}


def _check_rgbs(value, what, path):
    if not isinstance(value, list) or len(value) != 6:
        raise ConfigError("{}: {} must be a list of 6 [r, g, b] readings".format(path, what))
    for rgb in value:
        if not (isinstance(rgb, list) and len(rgb) == 3 and all(
                isinstance(c, (int, float)) and not isinstance(c, bool)
                and 0 <= c <= RAW_MAX and math.isfinite(c) for c in rgb)):
            raise ConfigError("{}: {} holds {}: each reading must be 3 numbers in 0..{}".format(
                path, what, short(rgb), RAW_MAX))


def check_profile(profile, path="profile"):
    """Raise ConfigError unless `profile` is a well-formed profile; return it."""
    if not isinstance(profile, dict) or profile.get("format") != FORMAT:
        raise ConfigError("{}: not a colour profile (format must be {!r})".format(path, FORMAT))
    if profile.get("version") != VERSION:
        raise ConfigError("{}: profile version {} is not supported (use {})".format(
            path, short(profile.get("version")), VERSION))
    classes = profile.get("classes")
    if not isinstance(classes, list) or len(classes) != 6 or len(set(map(str, classes))) != 6:
        raise ConfigError("{}: classes must name 6 different colours".format(path))
    _check_rgbs(profile.get("facelets"), "facelets", path)
    if profile.get("centres") is not None:
        _check_rgbs(profile["centres"], "centres", path)
    return profile


def save_profile(profile, path):
    """Write `profile` to `path` atomically (temp file in the same folder, then rename)."""
    check_profile(profile)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".profile.")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(profile, fh, sort_keys=True)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load_profile(path):
    """Read and check a profile file; ConfigError (one line) if it is unusable."""
    from .config import parse_json
    try:
        text = read_text(path, "colour profile")
    except BadValue as exc:
        raise ConfigError(str(exc))
    return check_profile(parse_json(text, "colour profile " + path), path)
