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
outside the view not joined) and returns the path to the best score seen. Each step ranks
every child of the beam by its parent's flags (`ranked`): in the compiled staging module
where it is built (`pair_rank`), else by the same ranking in Python, with the same answer. The outer turns
move the view's pieces, so later stages take their goal again. docs/solver-big.md explains
why the steps keep the centres.
"""

import struct
from heapq import nsmallest
from operator import itemgetter, ne

from cubebot.solver.facelets import FACES
from cubebot.solver.maskstage import compiled
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


STEPS_KEPT_MAX_N = 7            # sizes whose steps a process keeps (larger ones run close to
                                # the memory limit and make them for each solve)
_STEPS = {}                     # n -> steps(n), made on first use (a few hundred KB)


def steps(n):
    """[written moves]: the outer turns, every distinct S F S' and W2 F W2' (see the
    module docstring), the shortest writing of each distinct permutation, in a fixed order.
    The same for every cube, so made once a process up to STEPS_KEPT_MAX_N (about half a
    second here)."""
    made = _STEPS.get(n) or _make_steps(n)
    if n <= STEPS_KEPT_MAX_N:
        _STEPS[n] = made
    return [list(moves) for moves in made]


def _make_steps(n):
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
    return tuple(tuple(found[state]) for state in order)


def _children(flags, costs, steps_):
    """(score, moves, step index, parent index) of every step from every cube of the beam."""
    for at, (cost, shown) in enumerate(zip(costs, flags)):
        for index, (moves, getter) in enumerate(steps_):
            c = cost + len(moves)
            yield (c + WEIGHT * sum(getter(shown)), c, index, at)


def ranked(flags, costs, loaded, keep, lib=None):
    """[(score, moves, step index, parent index)]: the `keep` least children, in that tuple
    order, of parents with these flags (PairFlags.flags) and path lengths; loaded: what
    PairingStage.load_steps returned. lib: the compiled staging module (its pair_rank), or
    None for the same ranking in Python."""
    _pairs, steps_, packed = loaded
    if lib is not None:
        from cubebot.solver.search import timed
        return timed(lib.pair_rank)(tuple(flags), packed[0], packed[1], tuple(costs), float(WEIGHT), keep)
    return nsmallest(keep, _children(flags, costs, steps_))


class PairingStage(object):
    """The beam search of the pairing stage for one cube size. Its steps are built for
    each solve and dropped after it, so later stages do not hold them."""

    def __init__(self, n):
        self.n = n
        wings = joins(n)[1]
        self.wings = (itemgetter(*[a for a, _ in wings]), itemgetter(*[b for _, b in wings]))

    def load_steps(self):
        """(pairs, [(moves, getter)], (froms, lengths)): a freebeam.PairFlags over the pairs
        of facelets (p[a], p[b]) each step p takes the wing joins (a, b) from, per step the
        getter of their flags (its sum is the wing facelets not joined after the step), and
        the same for the compiled ranking: every step's flag numbers as 4-byte unsigned
        ints, and every step's length as a byte."""
        n = self.n
        places = tuple(range(6 * n * n))
        wings = joins(n)[1]
        pairs = PairFlags(())
        made = []
        for moves in steps(n):
            p = sequence_permutation(moves, n, places)
            made.append((moves, [pairs.number((p[a], p[b])) for a, b in wings]))
        pairs.close(places)
        froms = [i for _, numbers in made for i in numbers]
        packed = (struct.pack("={}I".format(len(froms)), *froms),      # native order, 4 bytes
                  bytes(bytearray(len(moves) for moves, _ in made)))
        return pairs, [(moves, pairs.getter(numbers)) for moves, numbers in made], packed

    def not_joined(self, cube):
        """Wing facelets outside the view that do not show their view wing's colour."""
        return sum(map(ne, self.wings[0](cube), self.wings[1](cube)))

    def solve(self, cube, loaded=None, lib=False):
        """Moves (outer and wide turns) that keep every centre facelet joined and join many
        wings (loaded: what load_steps returned, if loaded already; lib: the compiled staging
        module or None, by default the module where it is built)."""
        n = self.n
        loaded = loaded or self.load_steps()
        pairs, steps_, _packed = loaded
        lib = compiled() if lib is False else lib
        beam = [(0, cube, ())]
        best = (WEIGHT * self.not_joined(cube), ())
        stalled = 0
        for _ in range(MAX_STEPS):
            children = ranked([pairs.flags(shown) for _, shown, _ in beam], [c for c, _, _ in beam],
                              loaded, RANKED * WIDTH, lib)
            parents, beam, kept = beam, [], set()
            for score, c, index, at in children:
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
