"""The NxNxN pipeline (N >= 6): Reducer(n, directory).solve(state, budget) -> Result.

  view     the smaller cube seen through views.view_rows(n) solved whole by
           the 4x4x4 (even N) or 5x5x5 (odd N) solver, its moves lifted
  slices   many centres outside the view home by steps W S W' that keep it
           (slicebeam.SliceStage, a bounded beam search)
  parity   an odd wing orbit made even by one quarter turn of its slice
  centres  every centre orbit outside the view by table 3-cycles (stages.CentreStage)
  wings    every wing orbit outside the view by table 3-cycles (stages.WingStage)
Every stage is bounded: the smaller solvers bound theirs, each cycle step
puts at least one piece home for good.
"""

import os
from collections import namedtuple

from cubebot.solver import catalog, store
from cubebot.solver.errors import TableError, UnsolvableCube
from cubebot.solver.facelets import FACES, face_index, is_solved
from cubebot.solver.moves import apply, simplify
from cubebot.solver.solve4.model import permutation_parity as wing_parity
from .cycles import orbits, table_name
from .slicebeam import SliceStage
from .stages import CentreStage, WingStage
from .views import lift, slice_turns, view, view_rows

STAGES = ("view", "slices", "parity", "centres", "wings")

Result = namedtuple("Result", ["candidates", "stages", "nodes"])

SMALLER = {0: "cubebot.solver.solve4", 1: "cubebot.solver.solve5"}   # by N % 2


def smaller_size(n):
    return len(view_rows(n))


def face_colours(cube, n):
    """{face letter: colour} read off the corners (in the view: solved by stage 1)."""
    return dict((f, cube[face_index(f, 0, 0, n)]) for f in FACES)


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
        self.slices = SliceStage(n)

    def solve_view(self, cube, budget):
        """Stage 1: the lifted moves that solve the smaller cube's view."""
        import importlib
        engine = importlib.import_module(SMALLER[self.n % 2])
        small = view(cube, self.n)
        if is_solved(small):
            return []
        found = engine.solve_stages(small, budget, self.directory).candidates
        return [lift(m, self.n) for m in min(found, key=len)]

    def parity(self, cube, colours):
        """Stage 2: a slice quarter turn for each wing orbit whose permutation is odd."""
        moves = []
        for index, (kind, k, _) in enumerate(self.orbits):
            if kind == "wing" and wing_parity(self.wings.dest(cube, index, colours)):
                moves += slice_turns("R", k + 1, 1, self.n)
        return moves

    def solve(self, state, budget=None):
        n = self.n
        parts = [self.solve_view(state, budget)]
        cube = apply(state, parts[-1], n)
        colours = face_colours(cube, n)
        parts.append(self.slices.solve(cube, colours))
        cube = apply(cube, parts[-1], n)
        parts.append(self.parity(cube, colours))
        cube = apply(cube, parts[-1], n)
        parts.append(self.centres.solve(cube, colours))
        cube = apply(cube, parts[-1], n)
        parts.append(self.wings.solve(cube, colours))
        cube = apply(cube, parts[-1], n)
        if not is_solved(cube, n):
            raise UnsolvableCube("the {0}x{0}x{0} reduction left the cube unsolved".format(n))
        moves = simplify([m for part in parts for m in part])
        return Result([moves], dict(zip(STAGES, parts)), 0)

