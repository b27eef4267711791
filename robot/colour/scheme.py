"""The cube's colour scheme and typical EV3 colour-sensor readings, in one place.

STANDARD_SCHEME maps each face letter of a solved cube (URFDLB) to the colour
of its stickers on a standard ("Western") cube: U white, R red, F green,
D yellow, L orange, B blue.

EV3_TYPICAL_RAW holds typical RGB-RAW readings (raw counts, 0..~1020 per
channel) of each colour's non-centre facelets on a MINDCUB3R-style robot, as
the project's reference notes (facts.md) summarise one published robot's
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

# Highest raw count the EV3 colour sensor reports on a channel.
RAW_MAX = 1020


def colour_of(name_or_face):
    """The colour name for a colour name or a face letter of the standard scheme."""
    if name_or_face in EV3_TYPICAL_RAW:
        return name_or_face
    if name_or_face in STANDARD_SCHEME:
        return STANDARD_SCHEME[name_or_face]
    raise ValueError("unknown colour {!r}: use a face letter URFDLB or one of {}".format(
        name_or_face, ", ".join(COLOURS)))
