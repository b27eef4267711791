"""Mechanism actions: what the robot does to the cube, in the robot frame.

An Action is (kind, quarter_turns):
  flip      the flipper tips the cube over: robot-frame x (the face at the
            back, by the flipper, lands on the bottom). quarter_turns is 1.
  rotate    the table turns the whole cube (flipper away): robot-frame y^q,
            q = 1, 2, 3 meaning y, y2, y' (clockwise seen from above). The
            table turns whichever way is shorter: see `table_quarters`.
  twist     the flipper holds the upper layers and the table turns the bottom
            layer: robot-frame D^q, q = 1, 2, 3 meaning D, D2, D'.

Rotations (flip, rotate) change the orientation `where` (cubebot.robot.machine.orientation);
a twist leaves it unchanged and turns the cube face that is at the bottom.
"""

from collections import namedtuple

from cubebot.solver.moves import Move, apply

from cubebot.robot.machine import orientation

FLIP = "flip"
ROTATE = "rotate"
TWIST = "twist"
KINDS = (FLIP, ROTATE, TWIST)

Action = namedtuple("Action", ["kind", "quarter_turns"])

_SUFFIX = {1: "", 2: "2", 3: "'"}

# Each kind as a robot-frame move of cubebot.solver.moves: x, y^q, D^q.
_ROBOT_MOVE = {
    FLIP: lambda q: Move("R", 1, None, q),
    ROTATE: lambda q: Move("U", 1, None, q),
    TWIST: lambda q: Move("D", 1, 1, q),
}


def flip():
    """The flip action (robot-frame x)."""
    return Action(FLIP, 1)


def rotate(quarter_turns):
    """A table turn of the whole cube: y^quarter_turns (taken mod 4, not 0)."""
    return Action(ROTATE, _check_turns(quarter_turns))


def twist(quarter_turns):
    """A held bottom-layer turn: D^quarter_turns (taken mod 4, not 0)."""
    return Action(TWIST, _check_turns(quarter_turns))


def _check_turns(quarter_turns):
    q = quarter_turns % 4
    if q == 0:
        raise ValueError("an action of {} quarter turns does nothing: use 1, 2 or 3".format(quarter_turns))
    return q


def table_quarters(quarter_turns):
    """Signed table quarter turns for q = 1, 2, 3: 1, 2, -1 (the short way round).

    Positive is clockwise seen from above (like y), as Mechanism.turn_table and
    turn_bottom take it.
    """
    q = quarter_turns % 4
    return q - 4 if q == 3 else q


def robot_moves(actions):
    """The actions as cubebot.solver.moves Moves in the robot frame (x, y^q, D^q)."""
    return [_ROBOT_MOVE[a.kind](a.quarter_turns) for a in actions]


def apply_actions(state, actions, n=None):
    """The robot-frame facelet state after `actions` (U = up, B = by the flipper)."""
    return apply(state, robot_moves(actions), n)


def next_where(where, action):
    """The orientation after `action` (a twist leaves it unchanged)."""
    if action.kind == FLIP:
        return orientation.rotate(where, "x", 1)
    if action.kind == ROTATE:
        return orientation.rotate(where, "y", action.quarter_turns)
    return where


def final_where(where, actions):
    """The orientation after a list of actions."""
    for a in actions:
        where = next_where(where, a)
    return where


def format_action(action):
    """Short text: "flip", "y", "y2", "y'", "D", "D2", "D'"."""
    if action.kind == FLIP:
        return FLIP
    letter = "y" if action.kind == ROTATE else "D"
    return letter + _SUFFIX[action.quarter_turns]


def format_actions(actions):
    """The space-separated text of an action list."""
    return " ".join(format_action(a) for a in actions)


def counts(actions):
    """{kind: number of actions of that kind} for every kind (zeros included)."""
    result = dict((k, 0) for k in KINDS)
    for a in actions:
        result[a.kind] += 1
    return result
