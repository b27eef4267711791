"""Whole-cube orientation on the turntable: which cube face is where.

Two frames:
  cube frame   the frame of the scanned facelet string (and of the solver's
               moves): faces U R F D L B as the cube lay when it was put on
               the table.
  robot frame  fixed to the robot: U is up (under the colour sensor), D is on
               the turntable, B is towards the flipper, F away from it.

An orientation is a 6-letter string `where`: where[k] is the cube-frame face
now at robot position ROBOT_FACES[k]. The identity is "URFDLB".

The mechanism rotates the whole cube in two ways (robot frame):
  flip          x   (the face at the back, by the flipper, lands on the bottom)
  table turn    y^q (q quarter turns clockwise seen from above, cube free)
and turns one layer: with the flipper holding the upper layers, the table
turns the bottom layer, a robot-frame D move.
"""

ROBOT_FACES = "URFDLB"
IDENTITY = ROBOT_FACES

# For a clockwise quarter rotation about each axis: new position -> old position
# (the face that ends at the key came from the value).
_CYCLES = {
    "x": {"U": "F", "F": "D", "D": "B", "B": "U", "R": "R", "L": "L"},
    "y": {"F": "R", "R": "B", "B": "L", "L": "F", "U": "U", "D": "D"},
    "z": {"U": "L", "L": "D", "D": "R", "R": "U", "F": "F", "B": "B"},
}


def rotate(where, axis, quarter_turns=1):
    """The orientation after rotating the cube about a robot axis ("x", "y", "z").

    quarter_turns counts clockwise quarter turns (as the moves x, y, z); any
    integer, taken mod 4.
    """
    cycle = _CYCLES[axis]
    for _ in range(quarter_turns % 4):
        where = "".join(where[ROBOT_FACES.index(cycle[pos])] for pos in ROBOT_FACES)
    return where


def position_of(where, face):
    """The robot position (a letter) of cube face `face`."""
    return ROBOT_FACES[where.index(face)]


def face_at(where, position):
    """The cube face now at robot position `position`."""
    return where[ROBOT_FACES.index(position)]


def all_orientations():
    """The 24 orientations, identity first, in a fixed order."""
    seen = [IDENTITY]
    frontier = [IDENTITY]
    while frontier:
        nxt = []
        for w in frontier:
            for axis in "xyz":
                r = rotate(w, axis)
                if r not in seen:
                    seen.append(r)
                    nxt.append(r)
        frontier = nxt
    return seen
