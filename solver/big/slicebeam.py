"""The slice stage: many facelets outside the view joined cheaply, before the 3-cycles.

An inner slice S outside the view (a layer whose row is not in
views.view_rows) never touches the view, so neither does W S W' for any
turn W: such a step (written 2-4 moves: S is two wide turns, W one) keeps the
solved view as it is and moves 16-20 centre facelets and 4 wings outside it
at once. Early on one step puts several centres home, where a table 3-cycle
pays about 11 moves for two or three.

A beam search (width WIDTH) over these steps, on the facelets outside the
view only (a step maps them among themselves), keeps the cubes with the
least  moves + WEIGHT x (facelets outside the view not showing their goal
colour, views.blown_up); it stops after MAX_STEPS steps or when the best score has not
improved for STALL steps, and returns the path to the best score seen (at
worst no step at all). WEIGHT is a little below the cycles' cost per
facelet (about 4), so a step is kept when it gains about as much as the
cycles would for it (6x6x6, seed 6666, 10 states: 363.7 moves at 3.5,
373.0 without the stage).
"""

from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, permutation, simplify
from .views import view_rows, written

WIDTH = 4                      # cubes kept per step
WEIGHT = 3.5                   # moves charged per facelet outside the view not yet joined
MAX_STEPS = 40                 # bound on the beam's steps
STALL = 8                      # steps without a better best score before it stops
TURNS = (1, 2, 3)


def outside(n):
    """The facelets outside the view (not at a view row and a view column)."""
    rows = set(view_rows(n))
    nn = n * n
    return [i for i in range(6 * nn) if not ((i % nn) // n in rows and i % n in rows)]


def steps(n):
    """[(written moves, permutation of the outside facelets)]: each distinct W S W'
    (W none or an outer/wide turn up to half the cube, S a slice outside the view),
    the shortest writing of each."""
    rows = view_rows(n)
    cells = outside(n)
    where = dict((f, k) for k, f in enumerate(cells))
    slices = [Move(f, d, d, t) for f in "URF" for d in range(2, n) if d - 1 not in rows for t in TURNS]
    turns = [None] + [Move(f, 1, d, t) for f in FACES for d in range(1, n // 2 + 1) for t in TURNS]
    found = {}
    for w in turns:
        for s in slices:
            seq = [s] if w is None else [w, s, Move(w.face, 1, w.last, 4 - w.turns)]
            moves = written(seq, n)
            state = list(range(6 * n * n))
            for m in moves:
                p = permutation(m, n)
                state = [state[i] for i in p]
            perm = tuple(where[state[f]] for f in cells)
            if perm not in found or len(moves) < len(found[perm]):
                found[perm] = moves
    return sorted(((moves, perm) for perm, moves in found.items()), key=lambda e: len(e[0]))


class SliceStage(object):
    """The beam search of the slice stage for one cube size."""

    def __init__(self, n):
        self.n = n
        self.cells = outside(n)
        self.steps = steps(n)

    def solve(self, cube, goal):
        """Moves (outer and wide turns) that keep the view and join many facelets to the goal."""
        target = [goal[f] for f in self.cells]

        def wrong(shown):
            return sum(1 for a, b in zip(shown, target) if a != b)
        start = "".join(cube[f] for f in self.cells)
        beam = [(0, start, ())]
        best = (WEIGHT * wrong(start), ())
        stalled = 0
        for _ in range(MAX_STEPS):
            scored = {}
            for cost, shown, path in beam:
                for index, (moves, perm) in enumerate(self.steps):
                    after = "".join([shown[i] for i in perm])
                    if after in scored:
                        continue
                    c = cost + len(moves)
                    scored[after] = (c + WEIGHT * wrong(after), c, after, path + (index,))
            ranked = sorted(scored.values())[:WIDTH]
            beam = [(c, shown, path) for _, c, shown, path in ranked]
            if ranked[0][0] < best[0]:
                best, stalled = (ranked[0][0], ranked[0][3]), 0
            else:
                stalled += 1
                if stalled >= STALL:
                    break
        return simplify([m for index in best[1] for m in self.steps[index][0]])
