"""The pieces of an NxNxN cube, as the colour resolver needs them.

A piece position is a tuple of facelet indices (URFDLB order). `orbits(n)`
groups the positions into orbits, sets of positions that pieces move
between:
  corners  8 positions of 3 facelets (cubebot.solver.cubies order, U/D facelet first)
  edges    12 middle edges of odd cubes (cubebot.solver.cubies order), 2 facelets
  wings    for N >= 4: orbits of 24 edge positions off the middle, each as
           an ordered facelet pair. Ordered so that the cross product of the
           two faces' normals points along the wing's offset from the edge's
           middle; a turn keeps that order, so a wing piece shows its two
           colours in the same order wherever it goes (wings cannot flip).
  centres  for N >= 4: orbits of centre facelets (24 each), grouped by their
           distance from the face's middle; any colour can sit on any of
           them, each colour equally often.
  fixed    the six middle centres of an odd cube (U R F D L B)
"""

from collections import namedtuple

from cubebot.solver.cubies import corner_facelets, cubie_of, edge_facelets, edge_wings
from cubebot.solver.facelets import FACES, NORMALS, geometry

Orbits = namedtuple("Orbits", ["corners", "edges", "wings", "centres", "fixed"])

_CACHE = {}


def _face_of(index, n):
    return FACES[index // (n * n)]


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _wing_order(pair, cubie, n):
    """The facelet pair ordered as described in the module docstring."""
    first, second = pair
    axis = [k for k in range(3) if abs(cubie[k]) != n - 1][0]
    cross = _cross(NORMALS[_face_of(first, n)], NORMALS[_face_of(second, n)])
    if cross[axis] * cubie[axis] > 0:
        return (first, second)
    return (second, first)


def _build(n):
    geo = geometry(n)
    groups = {}
    for index, pos in enumerate(geo.positions):
        groups.setdefault(cubie_of(pos, n), []).append(index)
    mid = (n * n) // 2
    fixed = tuple(k * n * n + mid for k in range(6)) if n % 2 else ()
    centres = {}
    for cubie in sorted(groups):
        members = groups[cubie]
        if len(members) == 1 and members[0] not in fixed:
            index = members[0]
            normal = NORMALS[_face_of(index, n)]
            plane = sorted(abs(c) for c, m in zip(geo.positions[index], normal) if m == 0)
            centres.setdefault(tuple(plane), []).append(index)
    wings = {}
    for pairs in (edge_wings(n) if n >= 4 else []):
        for pair in pairs:
            cubie = cubie_of(geo.positions[pair[0]], n)
            offset = [abs(c) for c in cubie if abs(c) != n - 1][0]
            wings.setdefault(offset, []).append((cubie, _wing_order(pair, cubie, n)))
    return Orbits(
        corners=corner_facelets(n),
        edges=edge_facelets(n) if n % 2 else [],
        wings=[[pair for _, pair in sorted(wings[k])] for k in sorted(wings)],
        centres=[centres[k] for k in sorted(centres)],
        fixed=fixed,
    )


def orbits(n):
    """The (cached) Orbits of an NxNxN cube."""
    if n not in _CACHE:
        _CACHE[n] = _build(n)
    return _CACHE[n]


def solved_pieces(positions, state):
    """The pieces of an orbit as tuples of letters, read off `state` (a solved state)."""
    return [tuple(state[i] for i in pos) for pos in positions]
