"""A colour profile from a scan of a solved cube (what calibration makes).

Readings in, a profile (cubebot.robot.colour.profile's format) out: the cube
is resolved first, to check that every face shows one colour.
"""

from cubebot.robot.colour.profile import FORMAT, VERSION
from cubebot.robot.colour.resolve import resolve
from cubebot.robot.colour.space import combine, mean_rgb
from cubebot.robot.errors import ConfigError
from cubebot.solver.facelets import FACES, faces_of, is_solved


def make_profile(readings, n):
    """A profile from a scan of a solved cube (readings as for colors.resolve).

    Raises ConfigError if the scan is not of a solved cube.
    """
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
