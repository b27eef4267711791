"""The last step of the reduction: the reduced 4x4x4 as a 3x3x3.

A reduced 4x4x4 (centres solved, edges paired, no parity) turns like a 3x3x3 under outer
turns: the 3x3x3 facelet at (row, col) of a face is the 4x4x4 facelet at (R[row], R[col]) with
R = ROWS = (0, 1, 3). cubebot.solver.solve3 finishes it, and its outer turns are outer turns of
the 4x4x4. Where the compiled two-phase search is built, solve3 searches every reduced cube in
its own six views at once; else the finish is kociemba's first solution within FINISH_DEPTH
(22) moves in each of REDUCED_VIEWS (FINISH_VIEWS for the 5x5x5), the shortest kept;
docs/solver4.md explains why 22 and the views.
"""

from cubebot.solver.facelets import FACES, face_index
from cubebot.solver.solve3 import VIEWS

SMALL = 3
ROWS = (0, 1, 3)                # 4x4x4 row/column of each 3x3x3 row/column
FINISH_DEPTH = 22               # kociemba's max depth in each view of the finish
FINISH_VIEWS = VIEWS + (("z y2", False),)    # solve3's six views and the cube turned by z y2
REDUCED_VIEWS = FINISH_VIEWS + (("y", False),)  # the 4x4x4's: one more, the cube turned by y


def to_3x3(state):
    """The 54-facelet 3x3x3 state of a reduced 96-facelet 4x4x4 state."""
    return "".join(state[face_index(f, ROWS[r], ROWS[c], 4)]
                   for f in FACES for r in range(SMALL) for c in range(SMALL))
