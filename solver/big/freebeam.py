"""The free stage: the big cube made blown up (views.blown_up) as far as free turns pay.

Before anything is solved every turn of the big cube is allowed: outer and
wide turns (one move) and inner slices (written as two wide turns, two
moves). A facelet outside the view is "joined" when it shows the colour of
its group's view facelet (views.representative); a joined block stays joined
under the grouped turns the smaller solver uses at the end, so work here is
never undone. Early on one turn joins several facelets, where a table
3-cycle later pays about 11 moves for two or three.

A beam search (width WIDTH, single turns as steps) keeps the cubes with the
least  moves + CENTRE_WEIGHT x (centre facelets not joined)
            + WING_WEIGHT x (wing facelets not joined);
the weights are about what the table 3-cycles pay per piece afterwards, so
the path to the best score seen is where the cycles become cheaper than
more turns. It stops after MAX_STEPS steps or STALL steps without a better
best score. Only the scores of children are computed from the parent (two
index lists per turn), the full cube only for the WIDTH kept.
"""

from operator import itemgetter, ne

from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, permutation, simplify
from .views import joins, slice_turns

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


def _getter(indices):
    return itemgetter(*indices)


class FreeStage(object):
    """The beam search of the free stage for one cube size."""

    def __init__(self, n):
        self.n = n
        centres, wings = joins(n)
        self.turns = []
        for move, cost in free_turns(n):
            p = permutation(move, n)
            self.turns.append((move, cost, p,
                               _getter([p[a] for a, _ in centres]), _getter([p[b] for _, b in centres]),
                               _getter([p[a] for a, _ in wings]), _getter([p[b] for _, b in wings])))

    def solve(self, cube):
        """Moves (outer and wide turns) after which many facelets are joined."""
        beam = [(0, cube, None)]
        start = self._score(cube)
        best = (start, ())
        paths = {cube: ()}
        stalled = 0
        for _ in range(MAX_STEPS):
            children = []
            for cost, shown, last in beam:
                for index, (move, c, _, ca, cb, wa, wb) in enumerate(self.turns):
                    if move == last:
                        continue
                    bad = CENTRE_WEIGHT * sum(map(ne, ca(shown), cb(shown))) + \
                        WING_WEIGHT * sum(map(ne, wa(shown), wb(shown)))
                    children.append((cost + c + bad, cost + c, index, shown))
            children.sort()
            beam, kept = [], {}
            for score, cost, index, shown in children:
                move, _, p = self.turns[index][:3]
                after = "".join([shown[i] for i in p])
                if after in kept:
                    continue
                kept[after] = paths[shown] + (index,)
                beam.append((cost, after, move))
                if score < best[0]:
                    best = (score, kept[after])
                    stalled = -1
                if len(beam) == WIDTH:
                    break
            paths = kept
            stalled += 1
            if stalled >= STALL:
                break
        moves = []
        for index in best[1]:
            m = self.turns[index][0]
            moves += slice_turns(m.face, m.first, m.turns, self.n) if m.first > 1 else [m]
        return simplify(moves)

    def _score(self, cube):
        n = self.n
        centres, wings = joins(n)
        return CENTRE_WEIGHT * sum(1 for a, b in centres if cube[a] != cube[b]) + \
            WING_WEIGHT * sum(1 for a, b in wings if cube[a] != cube[b])
