"""The free stage: the big cube made blown up (views.blown_up) as far as free turns pay.

Before anything is solved every turn of the big cube is allowed: outer and
wide turns (one move) and inner slices (written as two wide turns, two
moves). A facelet outside the view is "joined" when it shows the colour of
its group's view facelet (views.representative); a joined block stays joined
under the grouped turns the smaller solver uses at the end, so work here is
never undone. Early on one turn joins several facelets, where a table
3-cycle later pays about 11 moves for two or three.

`JoinBeam` is the search (the insert stage, insertbeam.py, runs it over other
steps): a beam (width WIDTH, single turns as steps here) keeps the cubes with
the least  moves + CENTRE_WEIGHT x (centre facelets not joined)
                 + WING_WEIGHT x (wing facelets not joined);
the weights are about what the table 3-cycles pay per piece afterwards, so
the path to the best score seen is where the cycles become cheaper than
more turns. It stops after MAX_STEPS steps or STALL steps without a better
best score. Only the scores of children are computed from the parent (a
parent's unjoined count, less and plus what the joins a step moves give
before and after it: four index lists per step and kind, over those joins
only), the full cube only for the WIDTH kept.
"""

from heapq import heapify, heappop
from operator import itemgetter, ne

from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, apply, simplify
from .views import joins, sequence_permutation, written

WIDTH = 12                     # cubes kept per step
CENTRE_WEIGHT = 4.0            # moves charged per centre facelet not joined (a 3-cycle: ~11 per 2-3)
WING_WEIGHT = 2.0              # moves charged per wing facelet not joined (two per wing)
MAX_STEPS = 120                # bound on the beam's steps (turns)
STALL = 10                     # steps without a better best score before it stops
TURNS = (1, 2, 3)


def free_turns(n):
    """[(Move, cost)]: outer and wide turns up to half the cube (1), inner slices (2)."""
    result = [(Move(f, 1, d, t), 1) for f in FACES for d in range(1, n // 2 + 1) for t in TURNS]
    result += [(Move(f, d, d, t), 2) for f in "URF" for d in range(2, n) for t in TURNS]
    return result


class JoinBeam(object):
    """A bounded beam over steps (lists of written moves) scored by the facelets
    outside the view not joined (views.joins), weighted per kind."""

    def __init__(self, n, steps, wings=True):
        """steps: lists of written moves (each costs its length). The index lists
        hold the one int object of `places` for each facelet (no int object per step);
        wings=False: no wing index lists (a search with no wing weight, less memory)."""
        self.n = n
        self.centres, self.wings = joins(n)
        places = tuple(range(6 * n * n))
        self.steps = []
        for seq in steps:
            p = sequence_permutation(seq, n, places)
            self.steps.append((tuple(seq), len(seq), _touched(self.centres, p),
                               _touched(self.wings, p) if wings else None))

    @staticmethod
    def _unjoined(pairs, cube):
        return sum(1 for a, b in pairs if cube[a] != cube[b])

    def score(self, cube, centre_weight, wing_weight):
        return centre_weight * self._unjoined(self.centres, cube) + \
            wing_weight * self._unjoined(self.wings, cube)

    def search(self, cube, width, centre_weight, wing_weight, max_steps, stall):
        """The written moves of the path to the best score seen (maybe none)."""
        beam = [(0, cube, None)]
        best = (self.score(cube, centre_weight, wing_weight), ())
        paths = {cube: ()}
        stalled = 0
        for _ in range(max_steps):
            children = []
            for cost, shown, last in beam:
                centres = self._unjoined(self.centres, shown)
                wings = self._unjoined(self.wings, shown) if wing_weight else 0
                for index, (_, c, (ca, cb, ta, tb), wing_getters) in enumerate(self.steps):
                    if index == last:
                        continue
                    bad = centre_weight * (centres - sum(map(ne, ca(shown), cb(shown)))
                                           + sum(map(ne, ta(shown), tb(shown))))
                    if wing_weight:
                        wa, wb, wta, wtb = wing_getters
                        bad += wing_weight * (wings - sum(map(ne, wa(shown), wb(shown)))
                                              + sum(map(ne, wta(shown), wtb(shown))))
                    children.append((cost + c + bad, cost + c, index, shown))
            heapify(children)          # popped in sorted order: only the first few are needed
            beam, kept = [], {}
            while children:
                score, cost, index, shown = heappop(children)
                after = apply(shown, self.steps[index][0], self.n)
                if after in kept:
                    continue
                kept[after] = paths[shown] + (index,)
                beam.append((cost, after, index))
                if score < best[0]:
                    best = (score, kept[after])
                    stalled = -1
                if len(beam) == width:
                    break
            paths = kept
            stalled += 1
            if stalled >= stall:
                break
        return simplify([m for index in best[1] for m in self.steps[index][0]])


def _getter(indices):
    """c -> tuple(c[i] for i in indices), for any number of indices."""
    if len(indices) >= 2:
        return itemgetter(*indices)
    return lambda c: tuple(c[i] for i in indices)


def _touched(pairs, p):
    """The joins (a, b) that the permutation p (new[i] = old[p[i]]) moves, as
    getters of their two facelets before (a, b) and after (p[a], p[b]) it: a
    step changes no other join, so the cube's unjoined count less those joins'
    now plus theirs after is its child's (index lists of the joins a step
    moves, not of all of them: with lists of every join the 9x9x9's insert
    stage peaked 9 MB higher and took twice as long)."""
    moved = [(a, b) for a, b in pairs if p[a] != a or p[b] != b]
    return (_getter([a for a, _ in moved]), _getter([b for _, b in moved]),
            _getter([p[a] for a, _ in moved]), _getter([p[b] for _, b in moved]))


class FreeStage(JoinBeam):
    """The beam search of the free stage for one cube size: single free turns."""

    def __init__(self, n):
        JoinBeam.__init__(self, n, [written([move], n) for move, _ in free_turns(n)])

    def solve(self, cube):
        """Moves (outer and wide turns) after which many facelets are joined."""
        return self.search(cube, WIDTH, CENTRE_WEIGHT, WING_WEIGHT, MAX_STEPS, STALL)

    def _score(self, cube):
        return self.score(cube, CENTRE_WEIGHT, WING_WEIGHT)
