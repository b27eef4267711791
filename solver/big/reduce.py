"""The NxNxN pipeline (N >= 6): Reducer(n, directory).solve(state, budget) -> Result.

  free     many facelets joined to their group's view facelet by free turns
           (freebeam.FreeStage, a bounded beam search)
  inserts  more centre facelets joined by short inserts X Y X' and W S W',
           the wings let go (insertbeam.InsertStage)
  pairing  wings outside the view paired by outer turns and "slice, flip,
           slice back" steps that keep every centre facelet joined
           (pairbeam.PairingStage)
  parity   a wing orbit whose permutation (against the goal) is odd made even
           by one quarter turn of its slice
  centres  every centre orbit outside the view joined by block commutators
           and table 3-cycles (stages.CentreStage; closing outer turns left
           out)
  wings    every wing orbit outside the view joined by table 3-cycles
           (stages.WingStage)
  view     the cube is now blown up (views.blown_up): the smaller cube seen
           through views.view_rows(n), solved whole by the 4x4x4 (even N) or
           5x5x5 (odd N) solver, its moves lifted to the grouped layers
Every stage takes its goal afresh from the cube (views.blown_up; outer turns
move the view, keeping every joined piece joined).
Every stage is bounded: the beam by its steps, each cycle step joins at least
one piece for good, the smaller solvers bound theirs.
"""

import os
from collections import namedtuple

from cubebot.solver import catalog, store
from cubebot.solver.errors import TableError, UnsolvableCube
from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply, simplify
from cubebot.solver.solve4.model import permutation_parity as wing_parity
from .cycles import orbits, table_name
from .freebeam import FreeStage
from .insertbeam import InsertStage
from .pairbeam import PairingStage
from .stages import CentreStage, WingStage
from .views import blown_up, lift, slice_turns, view, view_rows, written

STAGES = ("free", "inserts", "pairing", "parity", "centres", "wings", "view")

Result = namedtuple("Result", ["candidates", "stages", "nodes"])

SMALLER = {0: "cubebot.solver.solve4", 1: "cubebot.solver.solve5"}   # by N % 2


def smaller_size(n):
    return len(view_rows(n))


class Reducer(object):
    """The NxNxN solver with its cycle table open."""

    def __init__(self, n, directory=None):
        self.n = n
        self.directory = directory
        for name in catalog.names(size=n):
            path = store.table_path(name, directory)
            if not os.path.exists(path):
                raise TableError("table {} is missing ({}): run `cubebot tables build --size {}`".format(
                    name, path, n))
        table = store.open_records(table_name(n), directory)
        self.orbits = orbits(n)
        self.centres = CentreStage(n, table, self.orbits)
        self.wings = WingStage(n, table, self.orbits)
        self.free = FreeStage(n)
        self.inserts = InsertStage(n)
        self.pairing = PairingStage(n)

    def solve_view(self, cube, budget):
        """The last stage: the lifted moves that solve the smaller cube's view."""
        import importlib
        engine = importlib.import_module(SMALLER[self.n % 2])
        small = view(cube, self.n)
        if is_solved(small):
            return []
        found = engine.solve_stages(small, budget, self.directory).candidates
        return written([lift(m, self.n) for m in min(found, key=len)], self.n)

    def parity(self, cube, goal):
        """A slice quarter turn for each wing orbit whose permutation is odd."""
        moves = []
        for index, (kind, k, _) in enumerate(self.orbits):
            if kind == "wing" and wing_parity(self.wings.dest(cube, index, goal)):
                moves += slice_turns("R", k + 1, 1, self.n)
        return moves

    def solve(self, state, budget=None):
        n = self.n
        parts = [self.free.solve(state)]
        cube = apply(state, parts[-1], n)
        parts.append(self.inserts.solve(cube))
        cube = apply(cube, parts[-1], n)
        parts.append(self.pairing.solve(cube))
        cube = apply(cube, parts[-1], n)
        goal = blown_up(cube, n)
        parts.append(self.parity(cube, goal))
        cube = apply(cube, parts[-1], n)
        parts.append(self.centres.solve(cube))
        cube = apply(cube, parts[-1], n)
        parts.append(self.wings.solve(cube))
        cube = apply(cube, parts[-1], n)
        parts.append(self.solve_view(cube, budget))
        cube = apply(cube, parts[-1], n)
        if not is_solved(cube, n):
            raise UnsolvableCube("the {0}x{0}x{0} reduction left the cube unsolved".format(n))
        moves = simplify([m for part in parts for m in part])
        return Result([moves], dict(zip(STAGES, parts)), 0)
