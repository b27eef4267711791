"""The free stage: the big cube made blown up (views.blown_up) as far as free turns pay.

Every turn of the big cube is allowed: outer and wide turns (one move) and inner slices
(two wide turns, two moves). A facelet outside the view is "joined" when it shows the colour
of its group's view facelet (views.representative); grouped turns keep it joined, so work
here is never undone.

`JoinBeam` is the search (insertbeam.py runs it over other steps): a beam of WIDTH cubes
with the least moves + CENTRE_WEIGHT x centre facelets + WING_WEIGHT x wing facelets not
joined, moves being the child's path as moves.simplify leaves it (merging.py). It stops
after MAX_STEPS steps, or STALL steps without a better score. A child's score comes from its
parent's flags (`PairFlags`) without making the child; only the WIDTH kept are made.
"""

from heapq import heapify, heappop
from operator import itemgetter, ne

from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, apply, simplify
from .merging import by_first, savings
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


class PairFlags(object):
    """Pairs of facelets numbered as they are met, and one byte string a cube
    over them (`flags`): a byte a pair, 1 where its two facelets differ, then a
    byte for each of the first `flipped` pairs (those given at the start), 1
    where its two facelets are alike. A getter of some of those bytes, summed,
    counts in C what comparing the facelets one by one would."""

    def __init__(self, first):
        self.numbers = {}
        for pair in first:
            self.number(pair)
        self.flipped = len(self.numbers)
        self._ids = self._first = self._second = None

    def number(self, pair):
        return self.numbers.setdefault(pair, len(self.numbers))

    def close(self, places):
        """Number no more pairs (the pairs themselves are dropped); every index
        is an int object of `places`."""
        pairs = sorted(self.numbers, key=self.numbers.get)
        self.numbers = None
        self._first = _getter([places[a] for a, _ in pairs])
        self._second = _getter([places[b] for _, b in pairs])
        self._ids = tuple(range(len(pairs) + self.flipped))     # one int object a byte

    def getter(self, differ, alike=()):
        """c -> the flags of the pairs numbered `differ`, then the alike flags of
        the first pairs numbered `alike` (after close)."""
        offset = len(self._ids) - self.flipped
        return _getter([self._ids[i] for i in differ] + [self._ids[offset + j] for j in alike])

    def flags(self, cube):
        differ = bytes(map(ne, self._first(cube), self._second(cube)))
        return differ + differ[:self.flipped].translate(_ALIKE)


class JoinBeam(object):
    """A bounded beam over steps (lists of written moves) scored by the facelets
    outside the view not joined (views.joins), weighted per kind."""

    def __init__(self, n, steps, wings=True):
        """steps: lists of written moves (each costs its length); wings=False: no
        wing index lists (a search with no wing weight, less memory).

        The joins (centres, then wings) are the first pairs of a PairFlags; each
        step holds, per kind, the count of the joins it moves (a, b) and one
        getter of the flags of the pairs (p[a], p[b]) it takes their facelets
        from and of those joins' alike flags: a child's unjoined count is its
        parent's less that count plus the getter's sum."""
        self.n = n
        self.centres, self.wings = joins(n)
        places = tuple(range(6 * n * n))
        self._pairs = PairFlags(self.centres + self.wings)
        made = []
        for seq in steps:
            p = sequence_permutation(seq, n, places)
            made.append((tuple(seq), len(seq), _touched(self.centres, p, self._pairs),
                         _touched(self.wings, p, self._pairs) if wings else None))
        self._pairs.close(places)
        self.steps = [(seq, cost, self._kind(centres), None if wings_ is None else self._kind(wings_))
                      for seq, cost, centres, wings_ in made]
        self._by_first = by_first([seq for seq, _, _, _ in self.steps])     # merging.savings reads it

    def _kind(self, touched):
        joins_moved, froms = touched
        return len(joins_moved), self._pairs.getter(froms, joins_moved)

    def _unjoined(self, flags):
        """(centre, wing) facelets not joined, from the cube's flags."""
        centres = len(self.centres)
        return flags.count(1, 0, centres), flags.count(1, centres, self._pairs.flipped)

    def score(self, cube, centre_weight, wing_weight):
        centres, wings = self._unjoined(self._pairs.flags(cube))
        return centre_weight * centres + wing_weight * wings

    def search(self, cube, width, centre_weight, wing_weight, max_steps, stall):
        """The written moves of the path to the best score seen (maybe none), simplified.

        A child costs its parent's path length plus its step's, less what the step's
        first move merges with the path's end (merging.savings); a kept child's path is
        simplified, and its length is what it costs from there on."""
        beam = [(0, cube, None, [])]
        best = (self.score(cube, centre_weight, wing_weight), [])
        stalled = 0
        rated = self._rated(centre_weight, wing_weight)
        for _ in range(max_steps):
            children = []
            for at, parent in enumerate(beam):
                children += self._children(at, parent, rated, centre_weight, wing_weight)
            heapify(children)          # popped in sorted order: only the first few are needed
            parents, beam, kept = beam, [], set()
            while children:
                score, cost, index, at = heappop(children)
                shown, path = parents[at][1], parents[at][3]
                seq = self.steps[index][0]
                after = apply(shown, seq, self.n)
                if after in kept:
                    continue
                kept.add(after)
                path = simplify(path + list(seq))
                beam.append((len(path), after, index, path))
                score += len(path) - cost         # the path's own length
                if score < best[0]:
                    best = (score, path)
                    stalled = -1
                if len(beam) == width:
                    break
            stalled += 1
            if stalled >= stall:
                break
        return best[1]

    def _rated(self, centre_weight, wing_weight):
        """Per step: its cost less the weighted joins it moves (their count before
        it), its cost, its getters: a child's score is the parent's cost and
        weighted unjoined counts plus that, plus the weighted getter sums."""
        return [(c - centre_weight * moved - (wing_weight * wings[0] if wing_weight else 0), c, getter,
                 wings[1] if wing_weight else None)
                for _, c, (moved, getter), wings in self.steps]

    def _children(self, at, parent, rated, centre_weight, wing_weight):
        """[(score, cost, step index, at)] of every child of the beam's entry `at`,
        parent = (its path's length, its cube, its last step's index, its
        simplified path): cost is the path's length plus the step's, less what the
        step's first move merges with the path's end (merging.savings)."""
        cost, shown, last, path = parent
        flags = self._pairs.flags(shown)
        centres, wings = self._unjoined(flags)
        base = cost + centre_weight * centres + wing_weight * wings
        if wing_weight:
            found = [(base + k + centre_weight * sum(g(flags)) + wing_weight * sum(w(flags)),
                      cost + c, index, at) for index, (k, c, g, w) in enumerate(rated)]
        else:
            found = [(base + k + centre_weight * sum(g(flags)), cost + c, index, at)
                     for index, (k, c, g, _) in enumerate(rated)]
        for index, saved in savings(path, self._by_first):
            score, c, _, _ = found[index]
            found[index] = (score - saved, c - saved, index, at)
        if last is not None:
            del found[last]         # a step is not followed by itself
        return found


_ALIKE = bytes([1, 0]) + bytes(254)         # a differ byte (0 or 1) -> its alike byte


def _getter(indices):
    """c -> tuple(c[i] for i in indices), for any number of indices."""
    if len(indices) >= 2:
        return itemgetter(*indices)
    return lambda c: tuple(c[i] for i in indices)


def _touched(pairs, p, numbered):
    """The joins (a, b) that the permutation p (new[i] = old[p[i]]) moves, as
    (their numbers, the numbers of the pairs (p[a], p[b]) they take their
    facelets from) in the PairFlags `numbered`: a step changes no other join
    (lists of the joins a step moves, not of all of them, to keep memory and
    time down on the largest cubes)."""
    moved = [(a, b) for a, b in pairs if p[a] != a or p[b] != b]
    return ([numbered.number(pair) for pair in moved],
            [numbered.number((p[a], p[b])) for a, b in moved])


class FreeStage(JoinBeam):
    """The beam search of the free stage for one cube size: single free turns."""

    def __init__(self, n):
        JoinBeam.__init__(self, n, [written([move], n) for move, _ in free_turns(n)])

    def solve(self, cube):
        """Moves (outer and wide turns) after which many facelets are joined."""
        return self.search(cube, WIDTH, CENTRE_WEIGHT, WING_WEIGHT, MAX_STEPS, STALL)

    def _score(self, cube):
        return self.score(cube, CENTRE_WEIGHT, WING_WEIGHT)
