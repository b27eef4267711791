"""The last step of the reduction: the reduced 4x4x4 as a 3x3x3, and parity.

A reduced 4x4x4 (centres solved, edges paired, no parity) turns like a
3x3x3 under outer turns: the 3x3x3 facelet at (row, col) of a face is the
4x4x4 facelet at (R[row], R[col]) with R = (0, 1, 3), i.e. a corner, one
wing of each edge and one centre facelet. The 3x3x3 solver (cubebot.solver.solve3)
then finishes it; its outer turns are outer turns of the 4x4x4.
"""

from cubebot.solver.facelets import FACES, face_index

SMALL = 3
ROWS = (0, 1, 3)                # 4x4x4 row/column of each 3x3x3 row/column

def to_3x3(state):
    """The 54-facelet 3x3x3 state of a reduced 96-facelet 4x4x4 state."""
    return "".join(state[face_index(f, ROWS[r], ROWS[c], 4)]
                   for f in FACES for r in range(SMALL) for c in range(SMALL))
