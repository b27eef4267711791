"""The 6x6x6 centres solved once staged (tablestage): three table descents.

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
from cubebot.solver.facelets import FACES
from cubebot.solver.maskstage import compiled, orbit_facelets, slot_map
from cubebot.solver.moves import Move, simplify
from cubebot.solver.tables import MOD3, write_dense
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


def _sequence_map(moves, facelets):
    dest = list(range(24))
    for m in moves:
        step = slot_map(m, facelets, N)
        dest = [step[d] for d in dest]
    return dest


def sub_perms(steps, axis):
    """bytes: for step m (a Move or a list of Moves) and orbit o, at (m * 4 + o) * 8, where
    each of the axis's 8 slots goes (a ValueError if a step takes one off the axis)."""
    slots = axis_slots(axis)
    out = bytearray()
    for m in steps:
        for i, j in ORBITS:
            dest = _sequence_map(m if isinstance(m, list) else [m], orbit_facelets(i, j, N))
            for s in slots:
                if dest[s] not in slots:
                    raise ValueError("move {} takes a centre off the {} axis".format(m, axis))
                out.append(slots.index(dest[s]))
    return bytes(out)


def sub_masks(cube, axis, colour):
    """Each orbit's sub-mask of the axis: its slots that show `colour`."""
    slots = axis_slots(axis)
    masks = []
    for i, j in ORBITS:
        facelets = orbit_facelets(i, j, N)
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


def _python_distances(perms, n_steps):
    ranks = sub_ranks()
    masks = sorted(ranks, key=ranks.get)
    # maps[k][o][r]: what rank r of orbit o becomes under step k, times 70^o
    maps = [[[ranks[look[m]] * N_SUB ** o for m in masks]
             for o, look in enumerate(_mask_lookup(perms, (k * len(ORBITS) + o) * SUB_SLOTS)
                                      for o in range(len(ORBITS)))]
            for k in range(n_steps)]
    dist = bytearray([255]) * N_AXIS_STATES
    start = index_of((GOAL,) * len(ORBITS), ranks)
    dist[start] = 0
    frontier, depth = [start], 0
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
    """(L/R's colours, U/D's) of a staged cube, read from its inner X."""
    facelets = orbit_facelets(2, 2, N)
    return tuple("".join(sorted(set(cube[facelets[s]] for s in axis_slots(axis))))
                 for axis in ("LR", "UD"))


def front_colour(cube, left, up):
    """The colour F must show once L shows `left` and U shows `up`: the corner whose
    colours read up, front, left clockwise (as the UFL corner reads U, F, L)."""
    for facelets in corner_facelets(N):
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
