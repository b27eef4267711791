"""Colour calibration profiles: the reference readings of the six colours.

A profile is a dict, saved as JSON:
  {"format": "cubebot-colour-profile", "version": 1, "size": N,
   "classes": ["U", "R", "F", "D", "L", "B"],
   "facelets": [[r, g, b] x 6],      mean raw reading of each colour's
                                      non-centre facelets
   "centres": [[r, g, b] x 6] or null}  the middle centres (odd cubes)
Class k is the colour of face k of the solved cube that was scanned. Raw
counts are as read in RGB-RAW mode. Without a profile the resolver uses
`default_profile()`, built on typical EV3 readings (cubebot.robot.colour.scheme).
"""

import json
import math

from cubebot.robot.colour.scheme import COLOURS, EV3_TYPICAL_RAW, RAW_MAX
from cubebot.robot.errors import ConfigError
from cubebot.robot.inputs import BadValue, read_text, short

FORMAT = "cubebot-colour-profile"
VERSION = 1


def default_profile():
    """The built-in profile: typical EV3 readings, no centre references."""
    return {"format": FORMAT, "version": VERSION, "size": None, "classes": list(COLOURS),
            "facelets": [list(EV3_TYPICAL_RAW[c]) for c in COLOURS], "centres": None}


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
    from cubebot.solver.tables import write_text_atomic
    check_profile(profile)
    write_text_atomic(path, json.dumps(profile, sort_keys=True) + "\n")


def load_profile(path):
    """Read and check a profile file; ConfigError (one line) if it is unusable."""
    from cubebot.robot.inputs import parse_json
    try:
        text = read_text(path, "colour profile")
    except BadValue as exc:
        raise ConfigError(str(exc))
    return check_profile(parse_json(text, "colour profile " + path), path)
