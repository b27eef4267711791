"""The pairing stage: wings outside the view paired with the view's wings by free slices.

A wing outside the view is "joined" when it shows the colours of its group's view wing
(views.joins). Every step keeps every joined centre facelet joined and moves wings freely:
  W        an outer turn (1 move);
  S F S'   S a quarter or half turn of an inner slice outside the view (2 moves), F = X Y X'
           with X an outer turn of a face S's layer passes through and Y an outer turn of a
           face of S's axis (7 moves in all): "slice, flip, slice back";
  W2 F W2' W2 a turn of the two outer layers of any face, F as above (5 moves): the slice
           step of the slices that Rw covers, conjugated by the grouped turn 3Rw. On the
           6x6x6 and 7x7x7 it replaces the slice steps of layer 3 (`covered`).
A beam search (width WIDTH) keeps the cubes with the least moves + WEIGHT x (wing facelets
outside the view not joined) and returns the path to the best score seen. The outer turns
move the view's pieces, so later stages take their goal again. docs/solver-big.md explains
why the steps keep the centres.
"""

from heapq import nsmallest
from operator import itemgetter, ne

from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, apply, invert, simplify
from .freebeam import PairFlags
from .views import groups, joins, permutation_key, sequence_permutation, view_rows, written

WIDTH = 16                     # cubes kept per step
WEIGHT = 5.0                   # moves charged per wing facelet outside the view not joined
MAX_STEPS = 40                 # bound on the beam's steps
STALL = 6                      # steps without a better best score before it stops
RANKED = 4                     # children ranked per kept cube (duplicates skipped)
TURNS = (1, 2, 3)
AXES = ("UD", "RL", "FB")


def _axis(face):
    return next(a for a in AXES if face in a)


def steps(n):
    """[written moves]: the outer turns, every distinct S F S' and W2 F W2' (see the
    module docstring), the shortest writing of each distinct permutation, in a fixed order."""
    rows = view_rows(n)
    found, order = {}, []

    def add(moves):
        state = permutation_key(moves, n)
        if state not in found:
            order.append(state)
            found[state] = moves
        elif len(moves) < len(found[state]):
            found[state] = moves
    for f in FACES:
        for t in TURNS:
            add([Move(f, 1, 1, t)])
    first, last = [g for g in groups(n) if g[0] == 1][0]
    covered = (3, n - 2) if last - first == 1 else ()
    openers = [Move(f, layer, layer, ts) for f in "URF" for layer in range(2, n)
               if layer - 1 not in rows and layer not in covered for ts in TURNS]
    openers += [Move(f, 1, 2, ts) for f in FACES for ts in TURNS]
    for s in openers:
        axis = _axis(s.face)
        flips = [Move(face, 1, 1, t) for face in axis for t in TURNS]
        for x in [Move(face, 1, 1, t) for face in FACES if face not in axis for t in TURNS]:
            for y in flips:
                add(written([s, x, y] + invert([s, x]), n))
    return [found[state] for state in order]


def _children(beam, steps_, pairs):
    """(score, moves, step index, parent index) of every step from every cube of the beam."""
    for at, (cost, shown, _) in enumerate(beam):
        flags = pairs.flags(shown)
        for index, (moves, getter) in enumerate(steps_):
            c = cost + len(moves)
            yield (c + WEIGHT * sum(getter(flags)), c, index, at)


class PairingStage(object):
    """The beam search of the pairing stage for one cube size. Its steps are built for
    each solve and dropped after it, so later stages do not hold them."""

    def __init__(self, n):
        self.n = n
        wings = joins(n)[1]
        self.wings = (itemgetter(*[a for a, _ in wings]), itemgetter(*[b for _, b in wings]))

    def load_steps(self):
        """(pairs, [(moves, getter)]): a freebeam.PairFlags over the pairs of
        facelets (p[a], p[b]) each step p takes the wing joins (a, b) from, and
        per step the getter of their flags: its sum is the wing facelets not
        joined after the step."""
        n = self.n
        places = tuple(range(6 * n * n))
        wings = joins(n)[1]
        pairs = PairFlags(())
        made = []
        for moves in steps(n):
            p = sequence_permutation(moves, n, places)
            made.append((moves, [pairs.number((p[a], p[b])) for a, b in wings]))
        pairs.close(places)
        return pairs, [(moves, pairs.getter(froms)) for moves, froms in made]

    def not_joined(self, cube):
        """Wing facelets outside the view that do not show their view wing's colour."""
        return sum(map(ne, self.wings[0](cube), self.wings[1](cube)))

    def solve(self, cube, loaded=None):
        """Moves (outer and wide turns) that keep every centre facelet joined and join many
        wings (loaded: what load_steps returned, if loaded already)."""
        n = self.n
        pairs, steps_ = loaded or self.load_steps()
        beam = [(0, cube, ())]
        best = (WEIGHT * self.not_joined(cube), ())
        stalled = 0
        for _ in range(MAX_STEPS):
            ranked = nsmallest(RANKED * WIDTH, _children(beam, steps_, pairs))
            parents, beam, kept = beam, [], set()
            for score, c, index, at in ranked:
                shown, path = parents[at][1:]
                after = apply(shown, steps_[index][0], n)
                if after in kept:
                    continue
                kept.add(after)
                beam.append((c, after, path + (index,)))
                if score < best[0]:
                    best, stalled = (score, path + (index,)), -1
                if len(beam) == WIDTH:
                    break
            stalled += 1
            if stalled >= STALL:
                break
        return simplify([m for index in best[1] for m in steps_[index][0]])
