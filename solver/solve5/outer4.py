"""Phase 1 of the 5x5x5: its outer 4x4x4 part reduced by the 4x4x4 solver.

The 4x4x4 part of a 5x5x5 is its corners, its 24 wings and its 24
X-centres: drop row 2 and column 2 of every face and a 4x4x4 net is left
(5x5x5 rows/columns ROWS4 = 0, 1, 3, 4 are 4x4x4 rows/columns 0..3). An
outer turn or a two-layer wide turn of the 5x5x5 moves that part exactly as
the same-named turn moves a 4x4x4 (a 4x4x4 3Uw is the 5x5x5's 4Uw), and the
middle slices never touch it (tests/solver/test_outer4.py checks every move).

So `reduce_outer(state)` hands the part to cubebot.solver.solve4.reductions (its
stages 1-5, no 3x3x3 finish); its outer and wide turns, applied to the
5x5x5, leave every face's X-centres one colour, every tredge's two wings
paired (a dedge) and no 4x4x4 parity. The T-centres, the midges and the
fixed centres are left as they fall.

The 4x4x4 solver names its colours from a corner and turns whole-cube
rotations into outer turns, so the X-centres may end up a whole-cube rotation
away from the fixed centres (`matches` tells); phase 2 reads the colours off
the X-centres, so nothing turns them back.
"""

from cubebot.solver.cubies import from_facelets
from cubebot.solver.errors import InvalidCube
from cubebot.solver.facelets import FACES, centre_labels, face_index, relabel
from cubebot.solver.moves import Move
from cubebot.solver.solve4 import reductions as reductions4
from cubebot.solver.solve4.finish import to_3x3 as small_view
from cubebot.solver.solve4.model import Turned
from .model import N, WINGS, X_CENTRES

N4 = 4
ROWS4 = (0, 1, 3, 4)            # 5x5x5 row/column of each 4x4x4 row/column
CENTRE = 2                      # row/column of a fixed centre
SMALL = 3                       # the reduced part read as a 3x3x3


def view(state):
    """The 96-facelet 4x4x4 part of a 150-facelet 5x5x5 state."""
    return "".join(state[face_index(f, ROWS4[r], ROWS4[c], N)]
                   for f in FACES for r in range(N4) for c in range(N4))


def to_5x5(move):
    """The 5x5x5 turn that moves the 4x4x4 part as `move` moves a 4x4x4 (layers
    1..k of the 4x4x4 are layers 1..k of the 5x5x5, 3 of them being 4)."""
    last = move.last + 1 if move.last == 3 else move.last
    return Move(move.face, move.first, last, move.turns)


def paired(state):
    """True if every edge's two wing slots show the same colours, facelet for facelet."""
    return all(state[a] == state[c] and state[b] == state[d]
               for (a, b), (c, d) in zip(WINGS[0::2], WINGS[1::2]))


def part_reduced(state):
    """True if the 4x4x4 part is reduced with no parity: each face's X-centres one
    colour, every tredge's wings paired, and the 3x3x3 they form (lettered by
    its X-centres) a real one (an OLL parity shows there as one flipped edge, a
    PLL parity as odd parity)."""
    if x_colours(state) is None or not paired(state):
        return False
    small = small_view(view(state))
    try:
        from_facelets(relabel(small, centre_labels(small, SMALL)), SMALL)
    except InvalidCube:
        return False
    return True


def reduce_outer(state, directory=None, rotation=None, count=1):
    """Phase 1: [(moves, stages)], up to `count` equally short 4x4x4 reductions of
    the part of `state` (solve4's stage name -> moves count; each leaves another
    reduced part, so the T-centres and midges elsewhere); [([], {})] if the part is
    reduced already.

    rotation: a whole-cube rotation ("x2", ...) to hand solve4 the part seen
    turned, its moves brought back: solve4 keeps the DLB corner still, so a
    rotation that moves another corner there gives another reduction, as
    long but leaving the T-centres and midges elsewhere (PHASE1_ROTATIONS)."""
    if part_reduced(state):
        return [([], {})]
    part = view(state)
    turned = None if rotation is None else Turned(rotation)
    found = []
    for moves, stages in reductions4(part if turned is None else turned.seen(part), directory, count):
        if turned is not None:
            moves = turned.moves_back(moves)
        found.append(([to_5x5(m) for m in moves], stages))
    return found


def x_colours(state):
    """face -> the colour of its X-centres, or None if some face's are not one colour."""
    shown = {}
    for k, f in enumerate(FACES):
        colours = set(state[i] for i in X_CENTRES[4 * k:4 * k + 4])
        if len(colours) != 1:
            return None
        shown[f] = colours.pop()
    return shown


def matches(state):
    """True if every face's X-centres show the colour of its fixed centre."""
    shown = x_colours(state)
    return shown is not None and all(shown[f] == state[face_index(f, CENTRE, CENTRE, N)]
                                     for f in FACES)
