"""The cube as a net of text: ANSI colours on a terminal, plain letters otherwise.

    render_net(state, color=False) -> str
    color_wanted(stream) -> bool   ANSI colours only on a terminal, never with
                                   NO_COLOR set (not empty) or TERM=dumb

lays the facelet string out as the URFDLB net of docs/architecture.md (U on
top, then L F R B, then D). With color=True each facelet is a coloured
block (the standard scheme: U white, R red, F green, D yellow, L orange,
B blue) with its letter on it. Used by `cubebot demo` and the serial watch view.
"""

import os

from cubebot.solver.facelets import FACES, size_from_length

from cubebot.robot.colour.scheme import STANDARD_SCHEME

# ANSI background (256-colour) and a readable foreground per colour.
ANSI_BACKGROUND = {"white": 231, "red": 160, "green": 34, "yellow": 226, "orange": 208, "blue": 27}
ANSI_FOREGROUND = {"white": 16, "red": 231, "green": 231, "yellow": 16, "orange": 16, "blue": 231}
RESET = "\x1b[0m"
NET_ROWS = ("U", "LFRB", "D")


def color_wanted(stream, environ=None, tty=None):
    """True if `stream` is a terminal that should get ANSI codes (https://no-color.org).

    tty: whether the stream is a terminal, when the caller knows better (tests).
    """
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    if tty is not None:
        return bool(tty)
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _cell(symbol, color, width=1, label=True):
    text = symbol.center(width) if label else " " * width
    if not color:
        return text
    name = STANDARD_SCHEME.get(symbol)
    if name is None:
        return text
    return "\x1b[38;5;{}m\x1b[48;5;{}m{}{}".format(
        ANSI_FOREGROUND[name], ANSI_BACKGROUND[name], text, RESET)


def render_net(state, color=False, scale=1):
    """The net of `state` (6N^2 facelets, URFDLB) as lines of text.

    scale: each facelet `2*scale - 1` characters wide and `scale` lines tall
    (bigger nets for a projector; 1 is the compact default).
    """
    n = size_from_length(len(state))
    nn = n * n
    width = 2 * scale - 1
    faces = dict((f, state[k * nn:(k + 1) * nn]) for k, f in enumerate(FACES))
    pad = " " * ((width + 1) * n + 1)
    lines = []
    for band in NET_ROWS:
        for row in range(n):
            for sub in range(scale):
                parts = []
                for face in band:
                    symbols = faces[face][row * n:(row + 1) * n]
                    label = sub == scale // 2 or not color    # coloured blocks carry one letter
                    cells = [_cell(s, color, width, label) for s in symbols]
                    parts.append(" ".join(cells))
                prefix = pad if len(band) == 1 else ""
                lines.append((prefix + "  ".join(parts)).rstrip())
    return "\n".join(lines)
