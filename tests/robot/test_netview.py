"""cubebot.robot.ui.netview: the net layout, plain and coloured."""

from cubebot.robot.ui.netview import render_net
from cubebot.solver.facelets import solved
from cubebot.solver.moves import apply


def test_plain_net_of_a_3x3x3():
    state = apply(solved(3), "R")
    lines = render_net(state).splitlines()
    assert len(lines) == 9
    assert lines[0] == "       U U F"          # R brings F's colour up on the right column
    assert lines[3].split("  ") == ["L L L", "F F D", "R R R", "U B B"]
    assert lines[8] == "       D D B"


def test_plain_net_of_a_2x2x2_and_colour_codes():
    lines = render_net(solved(2)).splitlines()
    assert lines == ["     U U", "     U U", "L L  F F  R R  B B", "L L  F F  R R  B B", "     D D", "     D D"]
    coloured = render_net(solved(2), color=True)
    assert "\x1b[48;5;" in coloured and coloured.count("\x1b[0m") == 24
