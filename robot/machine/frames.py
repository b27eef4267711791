"""Mapping facelets between the cube frame and the robot frame.

A robot-frame state lists the facelet now at each robot position (U under
the sensor); it equals the cube-frame state turned by the whole-cube
rotations that reach the orientation `where` (cubebot.robot.machine.orientation).
"""

from cubebot.solver.moves import Move, apply

from cubebot.robot.machine import orientation

ROTATION_MOVES = {"x": Move("R", 1, None, 1), "y": Move("U", 1, None, 1), "z": Move("F", 1, None, 1)}
_INDEX_BASE = 0x100          # facelet indices as characters, to permute them with cubebot.solver.moves.apply

_PATHS = {}
_MAPS = {}


def _orientation_paths():
    paths = {orientation.IDENTITY: []}
    frontier = [orientation.IDENTITY]
    while frontier:
        nxt = []
        for where in frontier:
            for axis in "xyz":
                target = orientation.rotate(where, axis)
                if target not in paths:
                    paths[target] = paths[where] + [ROTATION_MOVES[axis]]
                    nxt.append(target)
        frontier = nxt
    return paths


def rotation_path(where):
    """Rotation moves (x, y, z as solver Moves) taking the cube frame to `where`."""
    if not _PATHS:
        _PATHS.update(_orientation_paths())
    return _PATHS[where]


def robot_to_cube(where, n):
    """List: for each robot-frame facelet index, the cube-frame facelet index there."""
    key = (where, n)
    mapping = _MAPS.get(key)
    if mapping is None:
        identity = "".join(chr(_INDEX_BASE + i) for i in range(6 * n * n))
        turned = apply(identity, rotation_path(where), n)
        mapping = _MAPS[key] = [ord(c) - _INDEX_BASE for c in turned]
    return mapping
