"""The cube's colour scheme and typical EV3 colour-sensor readings, in one place.

STANDARD_SCHEME maps each face letter of a solved cube (URFDLB) to the colour
of its stickers on a standard ("Western") cube: U white, R red, F green,
D yellow, L orange, B blue.

EV3_TYPICAL_RAW holds typical RGB-RAW readings (raw counts, 0..~1020 per
channel) of each colour's non-centre facelets on a MINDCUB3R-style robot, as
docs/references.md summarise one published robot's
recordings; not checked here against real scans (see docs/colors.md). The
channels have very different
gains: white is not grey. These are the built-in references used when no
calibration profile is given; the sensor model builds its readings on them.
"""

COLOURS = ("white", "red", "green", "yellow", "orange", "blue")

STANDARD_SCHEME = {
    "U": "white", "R": "red", "F": "green",
    "D": "yellow", "L": "orange", "B": "blue",
}

EV3_TYPICAL_RAW = {
    "white": (260, 430, 250),
    "yellow": (240, 250, 22),
    "orange": (240, 90, 17),
    "red": (180, 48, 18),
    "green": (28, 230, 36),
    "blue": (27, 108, 120),
}

# Colours of non-standard cubes, in the same units: approximate EV3 RGB-RAW
# readings scaled from their sRGB look against the white above (not measured).
EXTRA_RAW = {
    "pink": (300, 170, 190),
    "purple": (80, 60, 130),
    "cyan": (40, 300, 250),
}

# Colour schemes: face letter of a solved cube -> colour name. "japanese" puts
# blue opposite white; "pastel" has pink, purple and cyan stickers.
SCHEMES = {
    "standard": STANDARD_SCHEME,
    "japanese": {"U": "white", "R": "red", "F": "green", "D": "blue", "L": "orange", "B": "yellow"},
    "pastel": {"U": "white", "R": "pink", "F": "cyan", "D": "yellow", "L": "orange", "B": "purple"},
}

# Real EV3 readings (cavenel/ev3dev_examples, tests/data/real-scans): the body
# facelets' mean per colour, averaged over its six labelled scans; a darker
# robot than EV3_TYPICAL_RAW, with a blue that reads barely above black.
EV3_REAL_RAW = {
    "white": (222, 351, 251),
    "yellow": (133, 162, 34),
    "orange": (149, 73, 25),
    "red": (115, 48, 22),
    "green": (24, 131, 49),
    "blue": (24, 73, 76),
}

# Highest raw count the EV3 colour sensor reports on a channel.
RAW_MAX = 1020


def colour_of(name_or_face, scheme=None):
    """The colour name for a colour name or a face letter of `scheme` (default standard)."""
    if name_or_face in EV3_TYPICAL_RAW or name_or_face in EXTRA_RAW:
        return name_or_face
    scheme = STANDARD_SCHEME if scheme is None else scheme
    if name_or_face in scheme:
        return scheme[name_or_face]
    raise ValueError("unknown colour {!r}: use a face letter URFDLB or one of {}".format(
        name_or_face, ", ".join(COLOURS + tuple(sorted(EXTRA_RAW)))))


def typical_raw(name):
    """Typical EV3 RGB-RAW reading of a colour name (standard or EXTRA_RAW)."""
    return EV3_TYPICAL_RAW[name] if name in EV3_TYPICAL_RAW else EXTRA_RAW[name]
