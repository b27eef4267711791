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
The first four stages run on the cube turned by each of ROTATIONS[:TRIED[n]]
(whole-cube turns: the beams take another path in each orientation); the
later stages go on in the one whose moves so far plus ESTIMATE_CENTRE /
ESTIMATE_WING per facelet not joined is least, and its moves are given back
in the frame of the cube asked (moves.rotated_faces).
Every stage is bounded: the beam by its steps, each cycle step joins at least
one piece for good, the smaller solvers bound theirs.
"""

import os
from collections import namedtuple

from cubebot.solver import catalog, store
from cubebot.solver.errors import TableError, UnsolvableCube
from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import Move, apply, rotated_faces, simplify
from cubebot.solver.solve4.model import permutation_parity as wing_parity
from .cycles import orbits, table_name
from .freebeam import FreeStage
from .insertbeam import InsertStage
from .pairbeam import PairingStage
from .stages import CentreStage, WingStage
from .tablesolve import SOLVINGS, staged_colours
from .tablestage import SIZES as STAGED_SIZES, Staging, available as staging_available
from .views import blown_up, lift, slice_turns, view, view_rows, written

STAGES = ("staging", "solving", "free", "inserts", "pairing", "parity", "centres", "wings", "view")

# The whole-cube turns under which the first four stages are tried, in order
# (all 24 orientations). Their beams break ties by the order of the turns, so
# every orientation takes another path; the one with the best estimate goes on.
ROTATIONS = tuple(" ".join(t for t in (first, then) if t)
                  for then in ("", "y", "y2", "y'")
                  for first in ("", "x", "x2", "x'", "z", "z'"))
TRIED = {6: 12, 7: 8}         # orientations tried per size (1 for sizes not named)
# What the later stages (centres, wings) pay per facelet left not joined after
# the first four, in moves: a least-squares fit over 49 6x6x6 runs (6 states of
# seed 6666 under 8 orientations; residual 5.7 moves against a spread of 15).
ESTIMATE_CENTRE = 1.1
ESTIMATE_WING = 2.1

# The 6x6x6 and 7x7x7 centres staged (tablestage) and solved (tablesolve) by tables instead of
# the free, insert and centre stages, where the compiled staging module is built
# (docs/solver-big.md, "Centres staged and solved by tables"; figures in docs/benchmarks.md,
# "solver-big-6" and "solver-big-7").
TABLE_STAGING = True
# On that path, the wing stage runs in every orientation and the one with the fewest moves
# through it goes on to the view (the estimate's 2.1 moves a wing facelet is a guess).
WINGS_EACH = True
VIEWS_TRIED = 1                # of those, the fewest-move orientations whose view is solved
SOLVED_KEPT = 1                # stagings (tablestage.solve_all) that go on past the solving:
                               # those with the fewest moves through it

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
        self.staged = TABLE_STAGING and n in STAGED_SIZES and staging_available()

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

    def first_stages(self, cubes):
        """[(parts, cube)] for each of `cubes`: the free, inserts, pairing and
        parity stages' moves and the cube after them. Each stage runs on every
        cube before the next starts, so the insert stage's beam and the pairing
        stage's steps are each made once and never held together."""
        n = self.n
        done = self._each([([], cube) for cube in cubes], self.free.solve)
        done = self._each(done, self.inserts.solve, self.inserts.beam())
        done = self._each(done, self.pairing.solve, self.pairing.load_steps())
        return self._each(done, lambda cube: self.parity(cube, blown_up(cube, n)))

    def _each(self, done, stage, *made):
        """Each (parts, cube) of `done` with stage(cube, *made)'s moves added."""
        result = []
        for parts, cube in done:
            moves = stage(cube, *made)
            result.append((parts + [moves], apply(cube, moves, self.n)))
        return result

    def estimate(self, parts, cube):
        """Moves so far plus about what the later stages pay for what is left."""
        return len(simplify([m for part in parts for m in part])) + \
            self.free.score(cube, ESTIMATE_CENTRE, ESTIMATE_WING)

    def staged_stages(self, state):
        """([rotation], [(parts, cube)]) for each staging tablestage finds (every centre
        orbit onto its axis), its centres then solved by tablesolve, under each whole-cube
        turn of ROTATIONS[:TRIED] (a cube with its centres solved stays so turned whole),
        each followed by the pairing and the parity stages; ([], []) if no staging is found.
        The staging ends with the inner wings even (the later turns keep that parity), so the
        parity stage finds nothing to do unless a beam had to end the staging.
        The free and insert stages are left out (parts: staging and solving in the turned
        frame, [], [], pairing, parity)."""
        n = self.n
        rotations, done, found = [], [], []
        odd = lambda cube: 1 if self.parity(cube, blown_up(cube, n)) else 0  # noqa: E731
        # the tables are open for these two stages only: their pages leave the RSS after
        staging, solving = Staging(self.directory, n), None
        try:
            solving = SOLVINGS[n](self.directory)
            for parts, cube in staging.solve_all(state, odd):
                solved = solving.solve(cube, staged_colours(cube))
                if solved is None:          # the 7x7x7's searches ran out of nodes
                    continue
                found.append((parts, solved, apply(cube, [m for part in solved for m in part], n)))
        finally:
            staging.close()
            if solving is not None:
                solving.close()
        if len(found) > SOLVED_KEPT:        # the fewest moves through the solving go on
            found.sort(key=lambda f: len(simplify([m for part in f[0] + f[1] for m in part])))
            del found[SOLVED_KEPT:]
        for staging, solving, cube in found:
            moves = [simplify([m for part in staging for m in part]),
                     simplify([m for part in solving for m in part])]
            for rotation in ROTATIONS[:TRIED.get(n, 1)]:
                back = dict((g, f) for f, g in rotated_faces(rotation).items())
                turned = [[Move(back[m.face], m.first, m.last, m.turns) for m in part] for part in moves]
                rotations.append(rotation)
                done.append((turned + [[], []], apply(cube, rotation, n)))
        if done:
            done = self._each(done, self.pairing.solve, self.pairing.load_steps())
            done = self._each(done, lambda cube: self.parity(cube, blown_up(cube, n)))
        return rotations, done

    def solve(self, state, budget=None):
        """Result: the centres staged and solved by tables where the compiled search runs,
        else the first stages tried under ROTATIONS[:TRIED], the rest
        on the best estimate; every move is given back in the frame of `state`."""
        n = self.n
        turns, staged = self.staged_stages(state) if self.staged else ([], [])
        if staged and WINGS_EACH:
            # every orientation's wings paired by the wing stage: choose by exact moves
            winged = []
            for parts, cube in staged:
                wings = self.wings.solve(cube)
                winged.append((parts + [[], wings], apply(cube, wings, n)))
            lengths = [len(simplify([m for part in parts for m in part])) for parts, _ in winged]
            order = sorted(range(len(winged)), key=lambda k: (lengths[k], k))[:VIEWS_TRIED]
            del staged
            done = []
            for k in order:
                parts, cube = winged[k]
                done.append((turns[k], parts + [self.solve_view(cube, budget)]))
            del winged
            totals = [len(simplify([m for part in parts for m in part])) for _, parts in done]
            rotation, parts = done[totals.index(min(totals))]
            return self._finish(state, rotation, parts)
        if staged:
            estimates = [self.estimate(parts, cube) for parts, cube in staged]
            best = estimates.index(min(estimates))
            rotation, (parts, cube) = turns[best], staged[best]
            del staged
        else:
            rotations = ROTATIONS[:TRIED.get(n, 1)]
            tried = [([[], []] + parts, cube) for parts, cube in
                     self.first_stages([apply(state, rotation, n) for rotation in rotations])]
            estimates = [self.estimate(parts, cube) for parts, cube in tried]
            best = estimates.index(min(estimates))          # the first of the least
            rotation, (parts, cube) = rotations[best], tried[best]
            del tried
        parts.append(self.centres.solve(cube))
        cube = apply(cube, parts[-1], n)
        parts.append(self.wings.solve(cube))
        cube = apply(cube, parts[-1], n)
        parts.append(self.solve_view(cube, budget))
        return self._finish(state, rotation, parts)

    def _finish(self, state, rotation, parts):
        """Result: the stages' moves given back in the frame of `state`, checked."""
        n = self.n
        faces = rotated_faces(rotation)
        parts = [[Move(faces[m.face], m.first, m.last, m.turns) for m in part] for part in parts]
        moves = simplify([m for part in parts for m in part])
        if not is_solved(apply(state, moves, n), n):
            raise UnsolvableCube("the {0}x{0}x{0} reduction left the cube unsolved".format(n))
        return Result([moves], dict(zip(STAGES, parts)), 0)
