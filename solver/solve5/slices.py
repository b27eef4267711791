"""The model of 5x5x5 phase 2: the middle pieces, once the 4x4x4 part is reduced.

The "4x4x4 part" (corners, the 24 wings, the 24 X-centres) is reduced when
every face's X-centres show one colour and the two wings of every edge are
paired (a dedge). Outer turns and the middle slices (layer 3: 3R = M', 3U =
E', 3F = S) keep it so. Under them the rest of the cube is a puzzle of its
own, read here relative to the 4x4x4 part:

  targets     the face each colour belongs on: the face whose X-centres show it
  T-centres   the 24 T-centre slots (model.T_CENTRES), each holding the target
              face of its colour; outer turns move them within a face, middle
              slices across faces
  fixed       the 6 fixed centres: fixed[f] = target face of the colour at the
              centre of face f; only middle slices move them (24 rotations)
  midges      the 12 midge slots relative to the dedges (midges.py)

Goal: every T-centre and fixed centre on its target face, every midge next
to its own dedge and the right way round. Then the cube is a 3x3x3.

The entry point is middle.solve_middle (stages.MiddleSolver). Here: the
moves (OUTER, SLICES, MOVES), their costs, how a slice is written (3R =
3Rw Rw', counted 2, no whole-cube turn to track), and reading a state
(targets, T-centre and fixed-centre target faces, the dedge check).
"""

from cubebot.solver.errors import InvalidCube
from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, format_move, simplified_length, simplify
from .model import MIDGES, N, T_CENTRES, WINGS, X_CENTRES

FACE_AREA = N * N
MIDDLE = 3                     # the middle layer of a 5x5x5, counted from any face
CENTRE = FACE_AREA // 2        # the fixed centre's index within a face (row 2, column 2)
TURNS = (1, 2, 3)
HALF = 2
SLICE_COST = 2                 # a middle slice is written as two turns
OUTER_COST = 1
SLICE_FACES = ("U", "R", "F")  # one face per axis names its middle slice

OUTER = tuple(Move(f, 1, 1, t) for f in FACES for t in TURNS)
SLICES = tuple(Move(f, MIDDLE, MIDDLE, t) for f in SLICE_FACES for t in TURNS)
MOVES = OUTER + SLICES         # the phase-2 generators: 18 outer turns, 9 middle slices


def cost(move):
    """The move's cost in written turns: 2 for a middle slice, 1 for an outer turn."""
    return SLICE_COST if move.first == MIDDLE else OUTER_COST


def is_slice(move):
    return move.first == MIDDLE


def written(moves):
    """The moves as outer and wide turns: each middle slice kXw-style (3Rw Rw'), merged."""
    result = []
    for m in moves:
        if is_slice(m):
            result += [Move(m.face, 1, MIDDLE, m.turns), Move(m.face, 1, 2, 4 - m.turns)]
        else:
            result.append(m)
    return simplify(result)


def written_length(moves):
    """len(written(moves)), without building the moves (moves.simplified_length over
    the written turns as tuples)."""
    return simplified_length(_written_parts(moves))


def _written_parts(moves):
    for m in moves:
        if m.first == MIDDLE:
            yield m.face, 1, MIDDLE, m.turns
            yield m.face, 1, 2, 4 - m.turns
        else:
            yield m


def names(moves):
    """The written turns of a phase-2 solution, as move names."""
    return [format_move(m) for m in written(moves)]


def targets(state):
    """{colour: target face index}: the face whose X-centres show each colour.

    Raises InvalidCube if a face's X-centres are not one colour, or two faces
    show the same one (the 4x4x4 part is then not reduced).
    """
    result = {}
    for f in range(len(FACES)):
        shown = set(state[x] for x in X_CENTRES[4 * f:4 * f + 4])
        if len(shown) != 1:
            raise InvalidCube("the X-centres of face {} are not one colour: the 4x4x4 part "
                              "is not reduced".format(FACES[f]))
        colour = shown.pop()
        if colour in result:
            raise InvalidCube("faces {} and {} both have {} X-centres".format(
                FACES[result[colour]], FACES[f], colour))
        result[colour] = f
    return result


def check_dedges(state):
    """Raise InvalidCube unless the two wings of every edge show the same colours."""
    for e in range(len(MIDGES)):
        (a, b), (c, d) = WINGS[2 * e], WINGS[2 * e + 1]
        if (state[a], state[b]) != (state[c], state[d]):
            raise InvalidCube("the wings of edge {} are not paired: the 4x4x4 part is not "
                              "reduced".format(e))


def t_targets(state, where):
    """The target face index of every T-centre slot."""
    return tuple(where[state[f]] for f in T_CENTRES)


def fixed_targets(state, where):
    """fixed[f]: the target face index of the fixed centre of face f."""
    return tuple(where[state[f * FACE_AREA + CENTRE]] for f in range(len(FACES)))
