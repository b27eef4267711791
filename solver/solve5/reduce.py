"""The 5x5x5 solver with its tables open: Reducer(directory).solve(state, budget).

Stages (see docs/solver5.md):
  outer4   phase 1: the 4x4x4 part (corners, wings, X-centres) reduced by
           the 4x4x4 solver (outer4.reduce_outer): X-centres solved, every
           tredge's wings paired, no 4x4x4 parity; run as is and seen
           turned (PHASE1_ROTATIONS: solve4 keeps another corner still, so
           another reduction), the next stages choosing between them; each
           written in the VARIANTS ways (COMPILED_VARIANTS where phase 2's
           loops are compiled; widechoice.variants: which wide turns
           take the middle slice along, free on that part) whose T-centres
           the T-pair table rates cheapest
  tpairs   every T-pair (two T-centres across a fixed centre) one colour,
           by conjugated slices W S W' that keep the 4x4x4 part
           (tpairs.TPairStage, a bounded beam search guided by the table
           5x5-tpair-sets), so that phase 2 takes its quick way; its
           cheapest solutions after every phase-1 reduction are pooled; phase
           2's centre stages run after the MIDDLE_TRIES shortest so far, and
           its midge stage after the MIDGE_RUNS best of their plans (the
           COMPILED_ counts where phase 2's loops are compiled); the
           shortest in all is kept
  middle   phase 2: the T-centres and fixed centres with the X-centres, every
           midge in its dedge (middle.MiddleSolver; colours read off the
           X-centres, node-bounded with a fallback of its own)
  3x3x3    the reduced cubes (up to MAX_REDUCED, at most FINISH_SLACK turns
           longer than the shortest), by cubebot.solver.solve3 in this
           process, in order until one finishes in GOOD_FINISH moves: the
           first solution of each of the seven views of solve4's finish, the
           shortest whole solution kept (with a budget, the views that fit in
           it): the same answer on any machine, and no forked child
The whole solution is simplified: adjacent moves merged, and each run of turns
about one axis rewritten with the fewest turns (axisruns.shortest), which
merges the stages where they meet.
"""

import heapq
import os
from collections import namedtuple

from cubebot.solver import catalog, solve3, store
from cubebot.solver.errors import InvalidCube, TableError
from cubebot.solver.facelets import FACES, centre_labels, face_index, relabel
from cubebot.solver.moves import apply, count
from cubebot.solver.solve4.finish import FINISH_VIEWS
from .axisruns import shortest
from .model import N, T_CENTRES, X_CENTRES, colours
from .outer4 import reduce_outer
from .middle import MiddleSolver, joined, written
from .midges import native
from .tpairs import TPairStage
from .widechoice import variants

STAGES = ("outer4", "tpairs", "middle", "3x3x3")

Result = namedtuple("Result", ["candidates", "stages", "nodes"])

SMALL = 3
ROWS = (0, 2, 4)               # 5x5x5 row/column of each 3x3x3 row/column
PER_COLOUR = 4                 # facelets of each colour in each centre orbit
OUTER_SIZE = 4                 # phase 1 reads the tables of the 4x4x4 solver
PHASE1_ROTATIONS = (None, "x2", "y2", "z2")  # whole-cube turns phase 1 is run in (outer4.reduce_outer):
                                             # each moves another corner to solve4's fixed DLB
PHASE1_REDUCTIONS = 2          # equally short 4x4x4 reductions of each rotation (solve4.reductions):
                               # each leaves the T-centres and midges elsewhere
VARIANTS = 3                   # of each rotation's phase-1 moves, the ways to write its wide turns
                               # (widechoice.variants) handed on to the T-pair stage
COMPILED_VARIANTS = 6          # the same where phase 2's loops are compiled (midges.native)
MIDDLE_TRIES = 24              # (phase 1, T-pair) solutions phase 2's centre stages run after
MIDGE_RUNS = 16                # of their centre solutions (pooled), the ones the midge stage runs after
COMPILED_MIDDLE_TRIES = 64     # MIDDLE_TRIES and MIDGE_RUNS where phase 2's loops are compiled:
COMPILED_MIDGE_RUNS = 32       # more candidates for the same time (docs/solver5.md)
MAX_REDUCED = 4                # reduced cubes finished (the shortest reductions, at most FINISH_SLACK
FINISH_SLACK = 1               # turns longer than the shortest), in order until one has a
GOOD_FINISH = 19               # 3x3x3 finish of at most GOOD_FINISH moves (unmerged)


def by_path(python, compiled):
    """The candidate count for the path phase 2's loops take here: `compiled` where
    they run in C (midges.native), else `python` (sized to Python's speed)."""
    return python if native() is None else compiled


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


class Reducer(object):
    """The 5x5x5 solver with its tables open (the 4x4x4 ones are mapped by phase 1
    while it runs)."""

    def __init__(self, directory=None):
        self.directory = directory
        for name in catalog.names(size=OUTER_SIZE):
            path = store.table_path(name, directory)
            if not os.path.exists(path):
                raise TableError("table {} is missing ({}): the 5x5x5 solver reads the 4x4x4 tables "
                                 "for its outer part: run `cubebot tables build --size 5`".format(
                                     name, path))
        self.tpairs = TPairStage.opened(directory)
        self.phase2 = MiddleSolver(directory)
        self.phase2.tables()           # opened now: a missing or bad table is named before any search

    def phase1(self, cube):
        """Phase 1 in each of PHASE1_ROTATIONS, up to PHASE1_REDUCTIONS reductions each,
        every one written in its VARIANTS best ways
        (widechoice.variants: wide turns with or without the middle slice, ranked
        by the T-pair table): the distinct move lists, in that order."""
        found = []
        for rotation in PHASE1_ROTATIONS:
            for moves, _ in reduce_outer(cube, self.directory, rotation, PHASE1_REDUCTIONS):
                for way in variants(cube, moves, self.tpairs.table, by_path(VARIANTS, COMPILED_VARIANTS)):
                    if way not in found:
                        found.append(way)
        return found

    def middles(self, cube, firsts=([],)):
        """Stages tpairs and middle after phase 1: [(turns in all, phase-1 moves,
        tpairs moves, middle moves, the reduced cube)], shortest first, each
        reduced cube once;
        `firsts` phase 1's move lists (each reduces the 4x4x4 part of `cube`).
        Phase 2 (middle.MiddleSolver) reads the colours off the X-centres and is
        quick when every T-pair is one colour (tpairs.TPairStage). The T-pair
        stage's cheapest solutions (tpairs.CHOICES) after each phase-1 list are
        pooled; phase 2's centre stages run after the MIDDLE_TRIES with the
        fewest turns so far (phase 1 and the T-pairs merged where they meet),
        their plans are pooled and ranked by turns so far + the plan's
        estimate, and the midge stage runs after the MIDGE_RUNS best."""
        tries = []
        for k, first in enumerate(firsts):
            after = apply(cube, first, N)
            for j, pairs in enumerate(self.tpairs.solutions(after) or [[]]):
                tries.append((count(shortest(list(first) + pairs), "obtm"), k, j, first, after, pairs))
        tries.sort(key=lambda t: t[:3])
        every_plan = ((turns + plan.estimate, t, p, first, pairs, plan)
                      for t, (turns, _, _, first, after, pairs) in enumerate(
                          tries[:by_path(MIDDLE_TRIES, COMPILED_MIDDLE_TRIES)])
                      for p, plan in enumerate(self.phase2.plans(apply(after, pairs, N))))
        # Only the best plans are held, never all of them. (estimate, t, p) is unique, so
        # these are the sorted list's head, in the same order.
        plans = heapq.nsmallest(by_path(MIDGE_RUNS, COMPILED_MIDGE_RUNS), every_plan, key=lambda t: t[:3])
        found, reduced = [], set()
        for r, (_, _, _, first, pairs, plan) in enumerate(plans):
            rest = written(joined(self.phase2.finish(plan)))
            cube_after = apply(cube, list(first) + pairs + rest, N)
            if cube_after not in reduced:
                reduced.add(cube_after)
                found.append((count(shortest(list(first) + pairs + rest), "obtm"), r, first, pairs,
                              rest, cube_after))
        found.sort(key=lambda t: t[:2])
        return [(t[0],) + t[2:] for t in found]

    def solve(self, state, budget=None):
        cube = label(state)
        found = self.middles(cube, self.phase1(cube))
        self.phase2.forget()           # its memo is not needed by the finish
        chosen = [t for t in found if t[0] <= found[0][0] + FINISH_SLACK][:MAX_REDUCED]
        reductions = [[m for part in t[1:4] for m in part] for t in chosen]
        scored = solve3.finish_in_order(
            [to_3x3(t[4]) for t in chosen], lambda k, finish: shortest(reductions[k] + list(finish)),
            GOOD_FINISH, budget, FINISH_VIEWS)
        candidates = [t[4] for t in scored]
        _, _, k, best_finish, _ = scored[0]
        stage_moves = dict(zip(STAGES, list(chosen[k][1:4]) + [list(best_finish)]))
        return Result(candidates, stage_moves, 0)
