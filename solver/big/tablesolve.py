"""The 6x6x6 and 7x7x7 centres solved once staged (tablestage).

The 7x7x7's six searches (`Solving7`) are described where they are defined, below; the
6x6x6's three table descents:

Once every centre orbit is staged (tablestage), an axis's two faces hold 8
slots of each orbit (the first face's 4, then the other's), 4 of them showing
each of the axis's two colours. Which 4 show one colour is a **sub-mask**, one
of C(8, 4) = 70; the four orbits of an axis together are one of 70^4 =
24,010,000 states, and one 2-bit table (distance mod 3) holds every state's
distance to the goal (the colour on the axis's first face in every orbit):

  lr  "6x6-solve-lr": the L/R centres solved with the turns that keep every
      centre staged (outer turns, 2- and 3-layer half turns: 30)
  ud  "6x6-solve-ud": the U/D centres, with the turns that also keep L/R
      solved (outer turns, L/R 2- and 3-layer half turns: 22)
  fb  "6x6-solve-fb": the F/B centres, with steps that also keep U/D solved:
      F and B turns, and W2 X W2 (W an L/R wide turn, X an F or B turn: 30)

Each is a descent: from a state of value v, the first step to a state of
value v - 1 (mod 3) is one move nearer. Both colours are tried on L and on U;
F's colour then follows from the corners (`front_colour`), and the shortest
of the four goes on. Centres need no parity: pieces of one colour are alike.
"""

from cubebot.solver.cubies import corner_facelets
from cubebot.solver.errors import TableError
from cubebot.solver.facelets import FACES, face_index
from cubebot.solver.maskstage import compiled, orbit_facelets, slot_map
from cubebot.solver.moves import Move, apply, simplify
from cubebot.solver.search import successors
from cubebot.solver.tables import MOD3, PLAIN, write_dense
from cubebot.solver import store

N = 6
ORBITS = ((1, 1), (1, 2), (1, 3), (2, 2))   # outer X, obliques, inner X
SUB_SLOTS = 8                  # an axis's slots of one orbit
N_SUB = 70                     # C(SUB_SLOTS, 4): the sub-masks
N_AXIS_STATES = N_SUB ** len(ORBITS)        # 24,010,000: the four orbits of an axis
GOAL = 0x0F                    # a sub-mask with its colour on the axis's first face


def _turns(faces, depths, turns):
    return [Move(f, 1, d, t) for f in faces for d in depths for t in turns]


def keep_staged_moves():
    """Outer turns and 2- and 3-layer wide half turns: every turn that keeps each centre
    on its axis (30)."""
    return _turns(FACES, (1,), (1, 2, 3)) + _turns(FACES, (2, 3), (2,))


def keep_lr_moves():
    """Of those, the turns that also keep L/R solved: outer turns and L/R wide half
    turns (22)."""
    return _turns(FACES, (1,), (1, 2, 3)) + _turns("LR", (2, 3), (2,))


def axis_slots(axis):
    """The orbit slots (face-major) of the axis's faces, first face first."""
    return [4 * FACES.index(f) + k for f in axis for k in range(4)]


def fb_steps():
    """The F/B stage's steps, which keep L/R and U/D solved: F and B turns, and W2 X W2
    with W an L/R 2- or 3-layer wide turn and X an F or B turn (30 steps)."""
    faces = _turns("FB", (1,), (1, 2, 3))
    wides = _turns("LR", (2, 3), (2,))
    return [[x] for x in faces] + [[w, x, w] for w in wides for x in faces]


def _sequence_map(moves, facelets, n=N):
    dest = list(range(24))
    for m in moves:
        step = slot_map(m, facelets, n)
        dest = [step[d] for d in dest]
    return dest


def sub_perms(steps, axis, n=N, orbits=ORBITS):
    """bytes: for step m (a Move or a list of Moves) and orbit o, at (m * len(orbits) + o) * 8,
    where each of the axis's 8 slots goes (a ValueError if a step takes one off the axis)."""
    slots = axis_slots(axis)
    out = bytearray()
    for m in steps:
        for i, j in orbits:
            dest = _sequence_map(m if isinstance(m, list) else [m], orbit_facelets(i, j, n), n)
            for s in slots:
                if dest[s] not in slots:
                    raise ValueError("move {} takes a centre off the {} axis".format(m, axis))
                out.append(slots.index(dest[s]))
    return bytes(out)


def sub_masks(cube, axis, colour, n=N, orbits=ORBITS):
    """Each orbit's sub-mask of the axis: its slots that show `colour`."""
    slots = axis_slots(axis)
    masks = []
    for i, j in orbits:
        facelets = orbit_facelets(i, j, n)
        masks.append(sum(1 << k for k, s in enumerate(slots) if cube[facelets[s]] == colour))
    return tuple(masks)


def sub_ranks():
    """{sub-mask: its rank}: the 4-of-8 masks in increasing order (as the compiled module)."""
    return dict((v, r) for r, v in enumerate(v for v in range(256) if bin(v).count("1") == 4))


def index_of(masks, ranks):
    """The 70^4 index of four sub-masks."""
    return sum(ranks[m] * N_SUB ** o for o, m in enumerate(masks))


# name -> (steps, axis), in the order they run
TABLES = {
    "6x6-solve-lr": (keep_staged_moves, "LR"),
    "6x6-solve-ud": (keep_lr_moves, "UD"),
    "6x6-solve-fb": (fb_steps, "FB"),
}
ORDER = ("6x6-solve-lr", "6x6-solve-ud", "6x6-solve-fb")
ORDER_AXES = ("LR", "UD", "FB")          # each stage's steps keep the axes after its own
LR_PATHS = 32                  # shortest L/R paths weighed by what U/D and F/B then cost
UD_PATHS = 1                   # shortest U/D paths weighed by what F/B then costs


def build_distances(name):
    """bytearray of N_AXIS_STATES: each state's distance from the goal, 255 where
    unreached: the compiled breadth-first search where it is built, else the same in
    Python (tens of minutes a table)."""
    moves, axis = TABLES[name]
    steps = moves()
    perms = sub_perms(steps, axis)
    lib = compiled()
    if lib is not None:
        return lib.sub_bfs(perms, len(steps), len(ORBITS), ((GOAL,) * len(ORBITS),))
    return _python_distances(perms, len(steps))


def _python_distances(perms, n_steps, n_orbits=None, goals=None):
    """The breadth-first search of the compiled sub_bfs, in Python, for 1 to 4 orbits (None:
    len(ORBITS)) from `goals` (None: every orbit's GOAL)."""
    n_orbits = n_orbits or len(ORBITS)
    ranks = sub_ranks()
    masks = sorted(ranks, key=ranks.get)
    # maps[k][o][r]: what rank r of orbit o becomes under step k, times 70^o (an orbit past
    # n_orbits: rank 0 stays 0)
    maps = [[[ranks[look[m]] * N_SUB ** o for m in masks]
             for o, look in enumerate(_mask_lookup(perms, (k * n_orbits + o) * SUB_SLOTS)
                                      for o in range(n_orbits))] + [[0]] * (len(ORBITS) - n_orbits)
            for k in range(n_steps)]
    dist = bytearray([255]) * N_SUB ** n_orbits
    frontier, depth = sorted(set(index_of(g, ranks) for g in goals or ((GOAL,) * n_orbits,))), 0
    for start in frontier:
        dist[start] = 0
    while frontier:
        nxt = []
        for i in frontier:
            r0, rest = i % N_SUB, i // N_SUB
            r1, rest = rest % N_SUB, rest // N_SUB
            r2, r3 = rest % N_SUB, rest // N_SUB
            for m0, m1, m2, m3 in maps:
                j = m0[r0] + m1[r1] + m2[r2] + m3[r3]
                if dist[j] == 255:
                    dist[j] = depth + 1
                    nxt.append(j)
        frontier, depth = nxt, depth + 1
    return dist


def _build(name, path, progress):
    progress("breadth-first over {} states".format(N_AXIS_STATES))
    write_dense(path, build_distances(name), bits=2, encoding=MOD3)


def build_lr(path, progress):
    _build("6x6-solve-lr", path, progress)


def build_ud(path, progress):
    _build("6x6-solve-ud", path, progress)


def build_fb(path, progress):
    _build("6x6-solve-fb", path, progress)


def staged_colours(cube):
    """(L/R's colours, U/D's) of a staged cube (6x6x6 or 7x7x7), read from its inner X."""
    facelets = orbit_facelets(2, 2, int(round((len(cube) // 6) ** 0.5)))
    return tuple("".join(sorted(set(cube[facelets[s]] for s in axis_slots(axis))))
                 for axis in ("LR", "UD"))


def front_colour(cube, left, up):
    """The colour F must show once L shows `left` and U shows `up`: the corner whose
    colours read up, front, left clockwise (as the UFL corner reads U, F, L)."""
    for facelets in corner_facelets(int(round((len(cube) // 6) ** 0.5))):
        colours = [cube[x] for x in facelets]
        for k in range(3):
            turned = colours[k:] + colours[:k]
            if turned[0] == up and turned[2] == left:
                return turned[1]
    raise ValueError("no corner shows {} and {} in order".format(up, left))


_LOOKUPS = {}                   # table name -> _steps_and_lookups(name), made on first use


def _steps_and_lookups(name):
    """(steps as move lists, lookups[axis][step][orbit]: mask -> mask for the axes the
    steps keep) of table `name`: the same for every cube, so made once a process."""
    found = _LOOKUPS.get(name)
    if found is None:
        steps, own = TABLES[name]
        lookups = {}
        for axis in ORDER_AXES[ORDER_AXES.index(own):]:
            perms = sub_perms(steps(), axis)
            lookups[axis] = [
                tuple(_mask_lookup(perms, (k * len(ORBITS) + o) * SUB_SLOTS) for o in range(len(ORBITS)))
                for k in range(len(steps()))]
        found = _LOOKUPS[name] = ([m if isinstance(m, list) else [m] for m in steps()], lookups)
    return found


class Solving(object):
    """The three descents with their tables open."""

    def __init__(self, directory=None):
        self.ranks = sub_ranks()
        self.tables, self.steps, self.lookups = {}, {}, {}
        for name in ORDER:
            table = store.open_dense(name, directory, mapped=False)   # most pages are read
            if table.bits != 2 or len(table) != N_AXIS_STATES:
                table.close()
                raise TableError("table {} is not a 2-bit table of 70^4 entries: run `cubebot tables "
                                 "build`".format(name))
            self.tables[name] = table
            self.steps[name], self.lookups[name] = _steps_and_lookups(name)

    def _value(self, name, masks):
        return self.tables[name][index_of(masks, self.ranks)]

    def _nearer(self, name, masks, value):
        """[k]: the steps that bring `masks` (the table's axis) one move nearer its goal."""
        want, own = (value - 1) % 3, TABLES[name][1]
        out = []
        for k, lookup in enumerate(self.lookups[name][own]):
            after = tuple(look[m] for look, m in zip(lookup, masks))
            if self._value(name, after) == want:
                out.append((k, after))
        return out

    def _step(self, name, axis, k, masks):
        return tuple(look[m] for look, m in zip(self.lookups[name][axis][k], masks))

    def paths(self, name, masks, carried, limit):
        """[(moves, carried masks at the end)]: up to `limit` shortest paths of the table
        `name` to its goal, one each for the first distinct states met depth by depth;
        carried: {axis: masks} of the other axes, moved along."""
        value = self._value(name, masks)
        if value == self.tables[name].unreached:
            raise TableError("table {} does not reach a staged state: run `cubebot tables build`".format(name))
        goal = (GOAL,) * len(ORBITS)
        axes = sorted(carried)
        level = [([], masks, tuple(carried[a] for a in axes))]
        while level[0][1] != goal:
            seen, nxt = set(), []
            for moves, own, rest in level:
                for k, after in self._nearer(name, own, value):
                    moved = tuple(self._step(name, a, k, m) for a, m in zip(axes, rest))
                    if (after, moved) not in seen and len(nxt) < limit:
                        seen.add((after, moved))
                        nxt.append((moves + self.steps[name][k], after, moved))
            if not nxt:
                raise TableError("table {} gives no nearer state: run `cubebot tables build`".format(name))
            level, value = nxt, (value - 1) % 3
        return [(moves, dict(zip(axes, rest))) for moves, _own, rest in level]

    def solve(self, cube, colours):
        """[lr, ud, fb moves] that solve every centre of a staged cube (colours: the colour
        pairs staged on L/R and U/D): the shortest over both colours on L and on U,
        LR_PATHS shortest L/R paths and UD_PATHS shortest U/D paths after each (F's colour
        follows from the corners)."""
        others = "".join(c for c in sorted(set(cube)) if c not in colours[0] + colours[1])
        ud0, fb0 = colours[1][0], others[0]
        best = None
        for left in colours[0]:
            start = sub_masks(cube, "LR", left)
            carried = {"UD": sub_masks(cube, "UD", ud0), "FB": sub_masks(cube, "FB", fb0)}
            for lr, rest in self.paths("6x6-solve-lr", start, carried, LR_PATHS):
                for up in colours[1]:
                    front = front_colour(cube, left, up)
                    ud = rest["UD"] if up == ud0 else _complement(rest["UD"])
                    fb = rest["FB"] if front == fb0 else _complement(rest["FB"])
                    for ud_moves, after in self.paths("6x6-solve-ud", ud, {"FB": fb}, UD_PATHS):
                        fb_moves = self.paths("6x6-solve-fb", after["FB"], {}, 1)[0][0]
                        length = len(simplify(lr + ud_moves + fb_moves))
                        if best is None or length < best[0]:
                            best = (length, [lr, ud_moves, fb_moves])
        return best[1]

    def close(self):
        for table in self.tables.values():
            table.close()


def _complement(masks):
    """The sub-masks of the axis's other colour."""
    return tuple(0xFF ^ m for m in masks)


def _mask_lookup(perms, at):
    """[mask -> mask] for 8 slots sent to perms[at:at + 8]."""
    dest = perms[at:at + SUB_SLOTS]
    lookup = [0] * 256
    for v in range(1, 256):          # v less its lowest bit is done: add that bit's slot
        low = v & -v
        lookup[v] = lookup[v ^ low] | 1 << dest[low.bit_length() - 1]
    return lookup


# ---- the 7x7x7: six orbits an axis, solved in two searches an axis ----
#
# A 7x7x7's axis holds six orbits (outer X, the obliques (1, 2) and (1, 4), outer T, inner X
# and T): 70^6 states, too many for one table, and their solutions too deep for an IDA* on
# tables of three orbits. Each axis is solved in two compiled IDA* searches (`sub_ida`) instead:
#   bars   the inner X and T solved and the row-1 bars uniform (the obliques (1, 2), (1, 4) and
#          outer T of each bar show one colour), with the 6x6x6's steps for the axis (they keep
#          each orbit staged, then L/R solved, then U/D too); bound: the tables BAR_TABLES7
#   ring   the outer X and the bars solved with the axis's outer and 2-layer steps, which keep
#          the inner X and T and move each bar as one piece (4,900 states: one table)
# The fixed centre gives each face its colour.

N7 = 7
ORBITS7 = ((1, 1), (1, 2), (1, 3), (1, 4), (2, 2), (2, 3))
OUTER_X7, OBLIQUE_A7, OUTER_T7, OBLIQUE_C7, INNER_X7, INNER_T7 = range(6)   # indices in ORBITS7
INNER7 = (INNER_X7, INNER_T7)
# the bars search's tables: three orbits each, 0 where the inner ones are solved and the bar
# ones show one sub-mask
BAR_TABLES7 = ((INNER_X7, INNER_T7, OUTER_T7), (OBLIQUE_A7, OUTER_T7, OBLIQUE_C7),
               (INNER_X7, OBLIQUE_A7, OBLIQUE_C7), (INNER_T7, OBLIQUE_A7, OBLIQUE_C7),
               (INNER_X7, INNER_T7, OBLIQUE_A7), (INNER_X7, INNER_T7, OBLIQUE_C7))
RING_TABLE7 = (OUTER_X7, OUTER_T7)


def ring_lr_moves():
    """Outer turns, 2-layer half turns, L/R 3-layer half turns: those of keep_staged_moves that
    keep the 7x7x7's L/R inner X and T and its row-1 bars (26)."""
    return _turns(FACES, (1,), (1, 2, 3)) + _turns(FACES, (2,), (2,)) + _turns("LR", (3,), (2,))


def ring_ud_moves():
    """Outer turns and L/R 2-layer half turns: those of keep_lr_moves that keep the U/D inner X
    and T and row-1 bars (20)."""
    return _turns(FACES, (1,), (1, 2, 3)) + _turns("LR", (2,), (2,))


def ring_fb_steps():
    """F and B turns, and W2 X W2 with W an L/R 2-layer turn: the fb_steps that keep the F/B
    inner X and T and row-1 bars (18)."""
    faces = _turns("FB", (1,), (1, 2, 3))
    return [[x] for x in faces] + [[w, x, w] for w in _turns("LR", (2,), (2,)) for x in faces]


# axis -> (bars search steps, ring search steps, table name), in the order they run
AXES7 = (("LR", keep_staged_moves, ring_lr_moves, "7x7-solve-lr"),
         ("UD", keep_lr_moves, ring_ud_moves, "7x7-solve-ud"),
         ("FB", fb_steps, ring_fb_steps, "7x7-solve-fb"))
N_TABLE7 = len(BAR_TABLES7) * N_SUB ** 3 + N_SUB ** 2   # 2,062,900 entries a table
MAX_COST7 = 30                 # deepest bound of a search
MAX_NODES7 = 50000000          # nodes a search at most, each weight
WEIGHTS7 = (100, 130, 160, 250)   # the bound's weight (per cent), tried in turn
BAR_PATHS7 = 1                 # bars paths of the least bound weighed by what the ring search then costs
                               # (64: 2 moves fewer a solve, seconds slower: docs/solver-big.md)


def _goals7(orbits):
    """The goal states of a table over `orbits` (indices in ORBITS7): the inner ones solved,
    the others showing one sub-mask, any of the 70."""
    masks = sorted(sub_ranks(), key=sub_ranks().get)
    return tuple(tuple(GOAL if o in INNER7 else m for o in orbits) for m in masks)


def _axis7(axis):
    for entry in AXES7:
        if entry[0] == axis:
            return entry
    raise KeyError(axis)


def build_tables7(axis):
    """bytearray of N_TABLE7: each BAR_TABLES7 table's distances (bars steps), then the ring
    table's (ring steps)."""
    _, bar_steps, ring_steps, _ = _axis7(axis)
    lib = compiled()
    out = bytearray()
    for steps, orbits in [(bar_steps(), t) for t in BAR_TABLES7] + [(ring_steps(), RING_TABLE7)]:
        perms = sub_perms(steps, axis, N7, [ORBITS7[o] for o in orbits])
        goals = _goals7(orbits) if orbits != RING_TABLE7 else ((GOAL, GOAL),)
        if lib is not None:
            out += lib.sub_bfs(perms, len(steps), len(orbits), goals)
        else:
            out += _python_distances(perms, len(steps), len(orbits), goals)
    return out


def _build7(axis, path, progress):
    progress("breadth-first over {} entries".format(N_TABLE7))
    write_dense(path, build_tables7(axis), bits=4, encoding=PLAIN)


def build7_lr(path, progress):
    _build7("LR", path, progress)


def build7_ud(path, progress):
    _build7("UD", path, progress)


def build7_fb(path, progress):
    _build7("FB", path, progress)


def _successors7(steps):
    """successors(steps) for turns; for the F/B steps (move lists), every step but itself."""
    if all(isinstance(m, Move) for m in steps):
        return successors(steps)
    every = range(len(steps))
    return tuple(tuple(j for j in every if j != k) for k in every) + (tuple(every),)


def centre_colour(cube, face):
    """The colour of the fixed centre of `face` of an odd cube."""
    n = int(round((len(cube) // 6) ** 0.5))
    return cube[face_index(face, n // 2, n // 2, n)]


class Solving7(object):
    """The 7x7x7's six searches with their tables open (each unpacked to one byte an entry
    while its axis is searched, then dropped)."""

    def __init__(self, directory=None):
        self.tables = {}
        for axis, _, _, name in AXES7:
            table = store.open_dense(name, directory)
            self.tables[axis] = table
            if table.bits != 4 or len(table) != N_TABLE7:
                self.close()
                raise TableError("table {} is not a 4-bit table of {} entries: run `cubebot tables "
                                 "build --size 7`".format(name, N_TABLE7))
        self.nodes = 0

    def _search(self, steps, axis, tables, cube, cost=None):
        """The moves of the compiled IDA* over `tables` with `steps` from `cube`; with cost (a
        function of the end masks), the path of least length plus cost among up to BAR_PATHS7."""
        start = sub_masks(cube, axis, centre_colour(cube, axis[0]), N7, ORBITS7)
        perms = sub_perms(steps, axis, N7, ORBITS7)
        for weight in WEIGHTS7:
            paths, nodes = compiled().sub_ida(perms, len(steps), len(ORBITS7), tables, _successors7(steps),
                                              start, MAX_COST7, MAX_NODES7, weight,
                                              1 if cost is None else BAR_PATHS7)
            self.nodes += nodes
            if paths:
                moves = [[m for k in path for m in (steps[k] if isinstance(steps[k], list) else [steps[k]])]
                         for path in paths]
                if cost is None:
                    return moves[0]
                looks = [[_mask_lookup(perms, (k * len(ORBITS7) + o) * SUB_SLOTS) for o in range(len(ORBITS7))]
                         for k in range(len(steps))]
                ends = []
                for path in paths:
                    masks = start
                    for k in path:
                        masks = tuple(look[m] for look, m in zip(looks[k], masks))
                    ends.append(masks)
                best = min(range(len(paths)), key=lambda i: (len(moves[i]) + cost(ends[i]), i))
                return moves[best]
        return None

    def solve_axis(self, axis, cube, weigh=True):
        """(bars moves, ring moves) that solve the axis's centres on `cube` (staged, the
        earlier axes of AXES7 solved); None if a search finds no path within MAX_NODES7
        nodes a weight. weigh: the bars path of least moves plus ring cost among BAR_PATHS7,
        else the first found."""
        _, bar_steps, ring_steps, _ = _axis7(axis)
        distances = memoryview(self.tables[axis].unpacked())
        size = N_SUB ** 3
        tables = tuple((t, distances[k * size:(k + 1) * size]) for k, t in enumerate(BAR_TABLES7))
        ring_table = distances[len(BAR_TABLES7) * size:]
        ranks = sub_ranks()

        def ring_cost(masks):
            return ring_table[index_of([masks[o] for o in RING_TABLE7], ranks)]
        bars = self._search(bar_steps(), axis, tables, cube, ring_cost if weigh else None)
        if bars is None:
            return None
        ring = self._search(ring_steps(), axis, ((RING_TABLE7, ring_table),), apply(cube, bars, N7))
        if ring is None:            # the ring table reaches every state: a damaged table
            raise TableError("table {} gives no ring path: run `cubebot tables build --size 7`".format(
                _axis7(axis)[3]))
        return bars, ring

    def solve(self, cube, colours=None):
        """[moves of each axis's two searches] that solve every centre of a staged 7x7x7 (the
        fixed centres give the colours: `colours` is not read); None if a search finds no
        path within its nodes. Weighed bars paths (BAR_PATHS7 > 1) can leave a later axis far
        harder (none found within the nodes): then the axes are solved again, each with the
        first bars path found."""
        start = cube
        for weigh in (True, False) if BAR_PATHS7 > 1 else (False,):
            parts, cube = [], start
            for axis, _, _, _ in AXES7:
                found = self.solve_axis(axis, cube, weigh)
                if found is None:
                    break
                parts += list(found)
                cube = apply(cube, found[0] + found[1], N7)
            else:
                return parts
        return None

    def close(self):
        for table in self.tables.values():
            table.close()


SOLVINGS = {6: Solving, 7: Solving7}     # N -> the solving stages of its staged centres
