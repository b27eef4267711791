"""The 5x5x5 solver with its tables open: Reducer(directory).solve(state, budget).

Stages (see docs/solver5.md):
  beam     single turns chosen by a bounded beam search (beam.py) that put
           many centre pieces home; it ends with an even wing permutation,
           or one wide quarter turn (PARITY_MOVE) is added, so that the
           wings can be paired by 3-cycles later (no tredge parity)
  centres  every X- and T-centre home, by table 3-cycles (centrecycles)
  edges    every wing next to its midge, by table 3-cycles (edges)
  3x3x3    the reduced cube, by cubebot.solver.solve3
Each step of the two cycle stages places at least one piece for good, so the
stages end after at most 48 and 24 steps: no solve is unbounded.
"""

from collections import namedtuple

from cubebot.solver import solve3, store
from cubebot.solver.errors import InvalidCube
from cubebot.solver.facelets import FACES, centre_labels, face_index, relabel
from cubebot.solver.moves import Move, apply, count, simplify
from cubebot.solver.solve4.model import permutation_parity
from .beam import CentreBeam
from .centrecycles import TABLE as CENTRE_TABLE, CentreCycles
from .edges import TABLE as WING_TABLE, EdgeStage
from .model import N, T_CENTRES, WINGS, X_CENTRES, colours

STAGES = ("beam", "centres", "edges", "3x3x3")

Result = namedtuple("Result", ["candidates", "stages", "nodes"])

FINISH_BUDGET_S = 1.0          # default seconds for the 3x3x3 finish (solve3's budget search)
PARITY_MOVE = Move("R", 1, 2, 1)   # Rw: a wide quarter turn, an odd permutation of the wings
SMALL = 3
ROWS = (0, 2, 4)               # 5x5x5 row/column of each 3x3x3 row/column
PER_COLOUR = 4                 # facelets of each colour in each centre orbit


def to_3x3(state):
    """The 54-facelet 3x3x3 state of a reduced 150-facelet 5x5x5 state."""
    return "".join(state[face_index(f, ROWS[r], ROWS[c], N)]
                   for f in FACES for r in range(SMALL) for c in range(SMALL))


def label(state):
    """The state lettered URFDLB by its fixed centres; InvalidCube if a centre orbit
    does not hold four facelets of every colour."""
    lettered = relabel(state, centre_labels(state, N))
    for name, slots in (("X", X_CENTRES), ("T", T_CENTRES)):
        shown = colours(lettered, slots)
        for f in FACES:
            if shown.count(f) != PER_COLOUR:
                raise InvalidCube("the {}-centres show colour {} {} times, a 5x5x5 has {}".format(
                    name, state[face_index(f, 2, 2, N)], shown.count(f), PER_COLOUR))
    return lettered


def wing_parity(lettered, wings):
    """Parity of the wing permutation (the piece at each slot vs its home slot)."""
    where = [None] * len(WINGS)
    for s, (p, q) in enumerate(WINGS):
        h = wings.piece((lettered[p], lettered[q]), s)
        if h is None or where[h] is not None:
            raise InvalidCube("the wing at slot {} shows {}{}: no wing of a 5x5x5 shows that "
                              "there, or that wing is on the cube twice".format(s, lettered[p], lettered[q]))
        where[h] = s
    return permutation_parity(where)


class Reducer(object):
    """The 5x5x5 solver with its tables open."""

    def __init__(self, directory=None):
        self.centres = CentreCycles(store.open_records(CENTRE_TABLE, directory))
        self.edges = EdgeStage(store.open_records(WING_TABLE, directory))
        self.beam = CentreBeam()

    def solve(self, state, budget=None):
        cube = label(state)
        parity = wing_parity(cube, self.edges.wings)
        parts = [self.beam.solve(cube, parity)]
        cube = apply(cube, parts[-1], N)
        if wing_parity(cube, self.edges.wings):
            parts[-1] = parts[-1] + [PARITY_MOVE]
            cube = apply(cube, [PARITY_MOVE], N)
        parts.append(self.centres.solve(cube))
        cube = apply(cube, parts[-1], N)
        parts.append(self.edges.solve(cube))
        cube = apply(cube, parts[-1], N)
        reduction = [m for part in parts for m in part]
        finishes = solve3.solve(to_3x3(cube), budget=FINISH_BUDGET_S if budget is None else budget)
        candidates = [simplify(reduction + list(f)) for f in finishes]
        candidates.sort(key=lambda ms: count(ms, "obtm"))
        stage_moves = dict(zip(STAGES, parts + [list(min(finishes, key=len))]))
        return Result(candidates, stage_moves, 0)
