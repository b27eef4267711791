"""The last step of the reduction: the reduced 4x4x4 as a 3x3x3, and parity.

A reduced 4x4x4 (centres solved, edges paired, no parity) turns like a
3x3x3 under outer turns: the 3x3x3 facelet at (row, col) of a face is the
4x4x4 facelet at (R[row], R[col]) with R = (0, 1, 3), i.e. a corner, one
wing of each edge and one centre facelet. The 3x3x3 solver (cubebot.solver.solve3)
then finishes it; its outer turns are outer turns of the 4x4x4.

The finish (reduce.Reducer) is kociemba's first solution in each of FINISH_VIEWS, the
shortest kept, searched with max depth FINISH_DEPTH (22), not 21. kociemba's search meets
phase-1 solutions in a fixed order and stops at the first whose phase 2 fits in the
depth left, so when its first solution within 22 moves has at most 21 it is exactly its
first solution within 21 (found no later). Only when it has 22 would the search within
21 go on, and those are the searches that can run for seconds: the view then offers its
22-move solution. The seventh view (the cube turned by z y2) makes up for the views
whose 21-move solution is no longer looked for.
The Reducer finishes up to reduce.MAX_REDUCED reduced cubes of the same reduction length
this way, in order until one has a finish of at most reduce.GOOD_FINISH moves, and keeps
the shortest whole solution.
"""

from cubebot.solver.facelets import FACES, face_index
from cubebot.solver.solve3 import VIEWS

SMALL = 3
ROWS = (0, 1, 3)                # 4x4x4 row/column of each 3x3x3 row/column
FINISH_DEPTH = 22               # kociemba's max depth in each view of the finish
FINISH_VIEWS = VIEWS + (("z y2", False),)    # solve3's six views and the cube turned by z y2


def to_3x3(state):
    """The 54-facelet 3x3x3 state of a reduced 96-facelet 4x4x4 state."""
    return "".join(state[face_index(f, ROWS[r], ROWS[c], 4)]
                   for f in FACES for r in range(SMALL) for c in range(SMALL))
