"""The 6x6x6 and 7x7x7 centres staged by tables: every centre orbit onto its axis.

The 7x7x7's six searches (`_plan7`) read the 6x6x6's tables; the 6x6x6's four:

Orbits of a 6x6x6 centre: the outer X (1, 1), the obliques (1, 2) and (1, 3)
(slot s of one beside slot s of the other: a bar), the inner X (2, 2). Two
opposite colours are staged onto L/R, then two onto U/D (F/B follows):

  lr-inner  the L/R inner X staged and the L/R obliques paired into bars, with
            every turn (outer, 2- and 3-layer wide): table of the inner X's
            735,471 masks, the unpaired obliques counted (`PAIR_DIVISORS`)
  lr-outer  the L/R outer X and bars staged, with outer and 2-layer turns only:
            they never move the inner X off its face and move a bar as one
            piece, so this is a 5x5x5's L/R centre staging (two tables)
  ud-inner  the U/D inner X staged and the U/D obliques paired, with the turns
            that keep L/R staged (L/R turns of any depth, the others outer or
            wide half turns)
  ud-outer  the U/D outer X and bars, with the turns that keep all that
            (no 3-layer turns, the U/D/F/B 2-layer ones as half turns)

Each search is the IDA* of maskstage.MaskStage, on the compiled module (the
pure-Python path keeps the join stages: `available`), within MAX_NODES nodes,
and only where reduce.TABLE_STAGING asks for it.
The pairing bound is a guess, so a pairing search can run out of nodes: the
next divisor is tried, then the next choice of colour pairs (`colour_pairs`),
and the solver keeps its join stages for a cube none of them stages. The four
tables (735,471 four-bit entries each) are built by `cubebot tables build`
(`build_*` below, catalogue entries "6x6-stage-*").
"""

from cubebot.solver import store
from cubebot.solver.cubies import corner_facelets
from cubebot.solver.errors import InvalidCube, TableError
from cubebot.solver.facelets import FACES, face_index
from cubebot.solver.maskstage import (ANY_PARITY, MaskStage, build_distances, compiled, face_mask,
                                      mask_of, orbit_facelets)
from cubebot.solver.moves import Move, apply
from cubebot.solver.tables import PLAIN, write_dense

N = 6
OUTER_X, OBLIQUE_A, OBLIQUE_B, INNER_X = (1, 1), (1, 2), (1, 3), (2, 2)
# the 7x7x7's: outer X and T, the obliques beside the outer T (slot s of (1, 2), (1, 3) and
# (1, 4) side by side: a row-1 bar), inner X and T
OUTER_T, OBLIQUE_C, INNER_T = (1, 3), (1, 4), (2, 3)
ORBITS = {6: (OUTER_X, OBLIQUE_A, OBLIQUE_B, INNER_X),
          7: (OUTER_X, OBLIQUE_A, OUTER_T, OBLIQUE_C, INNER_X, INNER_T)}
PAIR_DIVISORS = (3, 2)         # unpaired oblique slots a move is guessed to pair: tried in turn
BAR_DIVISORS = (4, 3)          # the same for the 7x7x7's row-1 bars (three orbits, two pairs)
MAX_COST = 16                  # deepest bound of a staging search
MAX_NODES = 20000000           # nodes a search at most (each variant)
TOTAL_NODES = 240000000        # nodes a cube's stagings at most (no new choice of colours after)
STAGINGS = 1                   # stagings found a cube at most (each choice costs seconds)
BEAM_WIDTH = 10000             # states a depth of the beam that follows a failed IDA* (its
                               # arrays take about 0.7 KB a unit of width: 20000 took the
                               # peak on 32-bit ARM past 30 MB)
BEAM_DEPTH = 30                # moves of that beam at most
RETRY_ABOVE = 42               # a staging a beam ended with more moves than this is kept, and
                               # the next choice of colour pairs is tried too
TURNS = (1, 2, 3)
AXIS_FACES = {"LR": "LR", "UD": "UD"}


def _turns(faces, depths, turns=TURNS):
    return [Move(f, 1, d, t) for f in faces for d in depths for t in turns]


def flips_wings(move):
    """True for a 2-layer quarter turn: the only turns of a 6x6x6 or 7x7x7 (of up to 3 layers)
    that change the parity of its wing orbit 2 against the view's (the parity stage's), as the
    tests check."""
    return move.last == 2 and move.turns != 2


def all_moves():
    """Outer, 2- and 3-layer turns of every face: 54."""
    return _turns(FACES, (1, 2, 3))


def _modulo_turns(moves, dropped):
    """`moves` less `dropped` ((face, layers, turns) a Move's face, last and turns): each of
    those is a kept turn followed by a whole-cube turn that leaves the search's goal and bound
    as they are, so every staging keeps its length without them."""
    return [m for m in moves if (m.face, m.last, m.turns) not in dropped]


def inner_lr_moves():
    """The L/R inner search's turns: all 54 less 3Lw (3Rw' then x'), 3Dw2 (3Uw2 then y2) and
    3Bw2 (3Fw2 then z2), which keep L/R: 49."""
    return _modulo_turns(all_moves(), set([("L", 3, 1), ("L", 3, 2), ("L", 3, 3), ("D", 3, 2),
                                           ("B", 3, 2)]))


def inner_ud_moves():
    """The U/D inner search's turns: keep_lr_moves less 3Lw2, 3Dw2 and 3Bw2 (3Rw2, 3Uw2 and
    3Fw2 then x2, y2, z2, which keep both axes): 35."""
    return _modulo_turns(keep_lr_moves(), set([("L", 3, 2), ("D", 3, 2), ("B", 3, 2)]))


def five_moves():
    """Outer and 2-layer turns: 36 (the 5x5x5 view's outer and wide turns)."""
    return _turns(FACES, (1, 2))


def keep_lr_moves():
    """Turns that keep the L/R centres staged: L/R of any depth, the others outer or wide
    half turns: 38."""
    return _turns("LR", (1, 2, 3)) + _turns("UFDB", (1,)) + _turns("UFDB", (2, 3), (2,))


def keep_lr_five_moves():
    """Of those, the ones that keep the inner X and the bars: no 3-layer turns: 28."""
    return _turns("LR", (1, 2)) + _turns("UFDB", (1,)) + _turns("UFDB", (2,), (2,))


def inner3_moves():
    """The 7x7x7's outer and 3-layer turns: 36. They move its inner X and T (2, 2), (2, 3) as
    a 5x5x5's outer and wide turns move its X and T."""
    return _turns(FACES, (1, 3))


def keep_inner3_moves():
    """The 7x7x7's turns that keep its L/R inner X and T staged: outer and 2-layer turns, L/R
    3-layer turns, the others' 3-layer half turns: 46."""
    return _turns(FACES, (1, 2)) + _turns("LR", (3,)) + _turns("UFDB", (3,), (2,))


def keep_lr_inner3_moves():
    """The 7x7x7's turns that keep L/R staged and move its inner X and T as a 5x5x5's U/D
    staging turns (L/R outer and 3-layer turns, the others outer or 3-layer half turns): 28."""
    return _turns("LR", (1, 3)) + _turns("UFDB", (1,)) + _turns("UFDB", (3,), (2,))


def keep_ud_inner3_moves():
    """The 7x7x7's turns that keep L/R staged and its U/D inner X and T staged: outer turns,
    L/R 2-layer turns, the others' 2- and 3-layer half turns and L/R 3-layer half turns: 34."""
    return (_turns(FACES, (1,)) + _turns("LR", (2,)) + _turns("LR", (3,), (2,))
            + _turns("UFDB", (2, 3), (2,)))


# name -> (orbit, moves, goal faces). The inner X under every turn is the outer X under
# outer and 2-layer turns (each moved by the outer turns and one wide turn of each face,
# slots numbered alike): one table serves both (the tests build both and compare).
TABLES = {
    "6x6-stage-x-lr": (OUTER_X, five_moves, "LR"),
    "6x6-stage-bar-lr": (OBLIQUE_A, five_moves, "LR"),
    "6x6-stage-x-ud": (OUTER_X, keep_lr_five_moves, "UD"),
    "6x6-stage-bar-ud": (OBLIQUE_A, keep_lr_five_moves, "UD"),
}
INNER_TABLES = {          # the table the inner X reads, and the moves it stands for
    "6x6-stage-x-lr": all_moves,
    "6x6-stage-x-ud": keep_lr_moves,
}


def _build(name, path, progress):
    orbit, moves, faces = TABLES[name]
    progress("breadth-first over {} turns".format(len(moves())))
    dist = build_distances(moves(), orbit_facelets(orbit[0], orbit[1], N), N, face_mask(faces))
    write_dense(path, dist, bits=4, encoding=PLAIN)


def build_x_lr(path, progress):
    _build("6x6-stage-x-lr", path, progress)


def build_bar_lr(path, progress):
    _build("6x6-stage-bar-lr", path, progress)


def build_x_ud(path, progress):
    _build("6x6-stage-x-ud", path, progress)


def build_bar_ud(path, progress):
    _build("6x6-stage-bar-ud", path, progress)


def available():
    """True where the staging searches run compiled (their pure-Python IDA* is far too slow
    for a solve)."""
    return compiled() is not None


def opposite_pairs(cube):
    """The cube's three pairs of opposite colours (two colours no corner shows together),
    each as a sorted string, sorted."""
    together = {}
    for spots in corner_facelets(size_of(cube)):
        colours = set(cube[x] for x in spots)
        for c in colours:
            together.setdefault(c, set()).update(colours)
    pairs = set()
    for c, seen in together.items():
        rest = [d for d in together if d not in seen]
        if len(rest) != 1:
            raise InvalidCube("the corners show no colour opposite {}".format(c))
        pairs.add("".join(sorted(c + rest[0])))
    return sorted(pairs)


def colour_pairs(cube):
    """[(colours staged onto L/R, colours onto U/D)]: a choice for each axis that takes the
    L/R place. A cube lettered by its faces (URFDLB) starts with its own L/R and U/D; other
    symbols start with their opposite pairs in sorted order. An odd cube's fixed centres say
    which colours each axis takes: one choice."""
    n = size_of(cube)
    if n % 2:
        return [tuple("".join(cube[face_index(f, n // 2, n // 2, n)] for f in axis)
                      for axis in ("LR", "UD"))]
    if set(cube) == set(FACES):
        return [("LR", "UD"), ("UD", "FB"), ("FB", "LR")]
    p = opposite_pairs(cube)
    return [(p[0], p[1]), (p[1], p[2]), (p[2], p[0])]


def _plan6(tables, facelets):
    """The 6x6x6's searches: lr-inner, lr-outer, ud-inner, ud-outer."""
    f, t = facelets, tables
    inner = (f[INNER_X], f[OBLIQUE_A], f[OBLIQUE_B])
    outer = (f[OUTER_X], f[OBLIQUE_A])
    pairs_of = (INNER_X, OBLIQUE_A, OBLIQUE_B)
    bars_of = (OUTER_X, OBLIQUE_A)

    def last(want):
        return [MaskStage(keep_lr_five_moves(), outer, N, [(0, t["6x6-stage-x-ud"]), (1, t["6x6-stage-bar-ud"])],
                          flips=flips_wings, want=want)]
    searches = (
        ("lr-inner", [MaskStage(inner_lr_moves(), inner, N, [(0, t["6x6-stage-x-lr"])], [(1, 2)], d)
                      for d in PAIR_DIVISORS], pairs_of, 0),
        ("lr-outer", [MaskStage(five_moves(), outer, N, [(0, t["6x6-stage-x-lr"]),
                                                         (1, t["6x6-stage-bar-lr"])])],
         bars_of, 0),
        ("ud-inner", [MaskStage(inner_ud_moves(), inner, N, [(0, t["6x6-stage-x-ud"])], [(1, 2)],
                                d) for d in PAIR_DIVISORS], pairs_of, 1),
        ("ud-outer", last(ANY_PARITY), bars_of, 1),
    )
    return searches, dict((want, last(want)) for want in (0, 1))


def _plan7(tables, facelets):
    """The 7x7x7's searches. Its inner X and T under outer and 3-layer turns, and its outer X
    and row-1 bars under outer and 2-layer turns, are each a 5x5x5's X and T under its outer
    and wide turns: they read the 6x6x6's tables (its X and bar move alike; a test builds
    each and compares):
      lr-inner3  L/R inner X and T staged (outer and 3-layer turns)
      lr-bars    the obliques (1, 2), (1, 4) and outer T paired into row-1 bars, keeping that
      lr-outer   L/R outer X and bars staged (outer and 2-layer turns)
      ud-inner3, ud-bars, ud-outer: the same onto U/D, with turns that keep L/R staged."""
    n, f, t = 7, facelets, tables
    inner = (f[INNER_X], f[INNER_T])
    bars = (f[OBLIQUE_A], f[OUTER_T], f[OBLIQUE_C])
    outer = (f[OUTER_X], f[OUTER_T])
    inner_of, bars_of, outer_of = (INNER_X, INNER_T), (OBLIQUE_A, OUTER_T, OBLIQUE_C), (OUTER_X, OUTER_T)
    paired = [(0, 1), (1, 2)]

    def last(want):
        return [MaskStage(keep_lr_five_moves(), outer, n, [(0, t["6x6-stage-x-ud"]), (1, t["6x6-stage-bar-ud"])],
                          flips=flips_wings, want=want)]
    searches = (
        ("lr-inner3", [MaskStage(inner3_moves(), inner, n, [(0, t["6x6-stage-x-lr"]),
                                                            (1, t["6x6-stage-bar-lr"])])], inner_of, 0),
        ("lr-bars", [MaskStage(keep_inner3_moves(), bars, n, [], paired, d) for d in BAR_DIVISORS],
         bars_of, 0),
        ("lr-outer", [MaskStage(five_moves(), outer, n, [(0, t["6x6-stage-x-lr"]),
                                                         (1, t["6x6-stage-bar-lr"])])], outer_of, 0),
        ("ud-inner3", [MaskStage(keep_lr_inner3_moves(), inner, n, [(0, t["6x6-stage-x-ud"]),
                                                                    (1, t["6x6-stage-bar-ud"])])],
         inner_of, 1),
        ("ud-bars", [MaskStage(keep_ud_inner3_moves(), bars, n, [], paired, d) for d in BAR_DIVISORS],
         bars_of, 1),
        ("ud-outer", last(ANY_PARITY), outer_of, 1),
    )
    return searches, dict((want, last(want)) for want in (0, 1))


PLANS = {6: _plan6, 7: _plan7}
SIZES = tuple(sorted(PLANS))   # the sizes whose centres are staged by tables


class Staging(object):
    """The staging searches of an NxNxN (PLANS[n]: the 6x6x6's four, the 7x7x7's six) with
    their tables open."""

    def __init__(self, directory=None, n=N):
        self.n = n
        self.tables, self.opened = {}, []
        for name in TABLES:
            table = store.open_dense(name, directory)
            self.opened.append(table)
            if table.bits != 4:
                self.close()
                raise TableError("table {} is not a 4-bit table: run `cubebot tables build`".format(name))
            self.tables[name] = table.nibbles()
        self.facelets = dict((o, orbit_facelets(o[0], o[1], n)) for o in ORBITS[n])
        # searches: (name, [searches tried in turn until one finds a path], orbits, colour pair);
        # last_by_parity: the last search once more for each wing parity it must end with
        self.searches, self.last_by_parity = PLANS[n](self.tables, self.facelets)
        self.nodes = self.tried = self.beams = 0

    def close(self):
        """Unmap the tables (the pages a search read stop counting in the process's RSS)."""
        for table in self.opened:
            table.close()

    def masks(self, cube, orbits, colours):
        return tuple(mask_of(cube, self.facelets[o], colours) for o in orbits)

    def stage(self, cube, colours, parity=None):
        """[parts, cube]: the four searches' moves for the colour pairs `colours` (L/R's,
        U/D's) and the cube after them; None if a search found no path within MAX_NODES
        (each of its variants in turn) nor by the beam. parity: None, or a function of the
        cube, 1 where its inner wing orbit is odd: the last search then ends it even."""
        parts = []
        for name, variants, orbits, which in self.searches:
            if name == self.searches[-1][0] and parity is not None:
                variants = self.last_by_parity[parity(cube)]
            start = self.masks(cube, orbits, colours[which])
            path = None
            for search in variants:
                paths, nodes = search.search(start, MAX_COST, 1, MAX_NODES)
                self.nodes += nodes
                if paths:
                    path = paths[0]
                    break
            if path is None:
                path = variants[-1].beam(start, BEAM_WIDTH, BEAM_DEPTH)
                self.beams += 1
            if path is None:
                return None
            parts.append(path)
            cube = apply(cube, path, self.n)
        return parts, cube

    def solve_all(self, cube, parity=None):
        """[(parts, cube)]: a staging for each choice of colour pairs (colour_pairs(cube)) whose
        searches all finish within MAX_NODES, while the nodes spent stay within TOTAL_NODES,
        up to STAGINGS of them. A staging that a beam had to end with more than RETRY_ABOVE
        moves (a beam's staging can be far longer) does not count towards STAGINGS: the next
        choice is tried beside it."""
        found, counted = [], 0
        self.nodes = self.tried = self.beams = 0
        for colours in colour_pairs(cube):
            if self.nodes >= TOTAL_NODES or counted >= STAGINGS:
                break
            self.tried += 1
            beams = self.beams
            staged = self.stage(cube, colours, parity)
            if staged is not None:
                found.append(staged)
                long = self.beams > beams and sum(len(p) for p in staged[0]) > RETRY_ABOVE
                counted += 0 if long else 1
        return found


def size_of(cube):
    """N of a cube of 6 N^2 facelets."""
    return int(round((len(cube) // 6) ** 0.5))


def staged(cube, colours):
    """True if every centre facelet of the 6x6x6 or 7x7x7 (outside the fixed centre) shows a
    colour of its face's axis, with colours = (L/R's, U/D's) (the facelet check of the
    searches)."""
    n = size_of(cube)
    axis = dict((f, colours[0]) for f in "LR")
    axis.update((f, colours[1]) for f in "UD")
    rest = [c for c in set(cube) if c not in colours[0] + colours[1]]
    axis.update((f, "".join(rest)) for f in "FB")
    for o in ORBITS[n]:
        for s, x in enumerate(orbit_facelets(o[0], o[1], n)):
            if cube[x] not in axis[FACES[s // 4]]:
                return False
    return True
