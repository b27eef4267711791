"""The cycle stages: the centre and wing orbits outside the view, by table 3-cycles.

A step is a table 3-cycle, or for the centres a stored commutator of several 3-cycles
(cyclebuild.block_commutators), weighed by its moves per piece it puts home, net, counted
after merging with the solution's last merging.TAIL moves. A cycle moves nothing but its
pieces, so what is joined stays joined, and each step joins one piece more: a stage ends
within 2 x 24 steps per orbit. Both stages are beams (`_CycleStage._beam`): BEAM_WIDTH cubes
kept, each followed by its STEP_CHOICES cheapest steps, ranked by moves + FACELET_WEIGHT x
pieces not home (the wings' WING_* constants); the wing stage runs one orbit at a time.

Cycles are open (`cycles.opened`): their closing grouped turns keep every joined piece joined
and move only the view, so they are left out and each step takes its goal afresh from the
cube (views.blown_up). Centre pieces of one colour are alike. A wing cannot be flipped in its
slot (`orientation`, from the move maps), so the wings of an orbit form a permutation, even
after the parity stage, and 3-cycles finish it. docs/solver-big.md has the design.
"""

from operator import eq, itemgetter

from cubebot.solver.errors import InvalidCube, TableError
from cubebot.solver.moves import apply, permutation, simplify
from cubebot.solver.solve5.cycletables import decode, orientations
from .merging import added
from .views import blown_up, joins, sequence_permutation
from .cycles import (N_SLOTS, cycle_key, grouped_turns, move_list, opened, read_blocks, setup_moves, slot_map,
                     table_name)

CHOICES = 40                   # 3-cycles of the best gain compared by length, per step
BEAM_WIDTH = 8                 # centre stage: cubes kept after each step ...
STEP_CHOICES = 6               # ... each followed by its this many best steps ...
FACELET_WEIGHT = 2.5           # ... ranked by moves + this x centre facelets not yet joined
TURNED_MAX_N = 7               # largest N whose centre stage also weighs its stored commutators
                               # after each outer turn: beyond, 3-4% fewer moves for 5 times the
                               # time (8x8x8 115 s, 9x9x9 255 s a solve instead of 23 and 54)
KEEP_FOUND = 512               # step candidates held at most before the worst are dropped
WING_BEAM_WIDTH = 8            # wing stage, orbit by orbit: cubes kept after each step ...
WING_STEP_CHOICES = 6          # ... each followed by its this many best 3-cycles ...
WING_WEIGHT = 3.0              # ... ranked by moves + this x wings of the orbit not home


def _distinct_best(found, count):
    """The `count` entries of `found` ([(moves per piece, order, net, moves)]) that come first by
    (moves per piece, order), one per distinct move list, in that order."""
    best, seen = [], set()
    for entry in sorted(found, key=itemgetter(0, 1)):
        key = tuple(entry[3])
        if key not in seen:
            seen.add(key)
            best.append(entry)
            if len(best) == count:
                break
    return best


class _Found(object):
    """A step's candidates, (moves per piece, order, net, moves), held while they arrive: once
    more than `keep` are held, only the `count` distinct best so far stay. An entry dropped
    then comes after `count` distinct move lists that stay, so it cannot be among the `count`
    best at the end: the result is that of holding them all (the 9x9x9's centre stage held
    the candidates of 19 cubes, tens of thousands a step)."""

    def __init__(self, count, keep=KEEP_FOUND):
        self.count, self.keep = count, max(keep, count)
        self.entries = []
        self.order = 0

    def add(self, rate, net, moves):
        self.entries.append((rate, self.order, net, moves))
        self.order += 1
        if len(self.entries) > self.keep:
            self.entries = _distinct_best(self.entries, self.count)


class _CycleStage(object):
    def __init__(self, n, table, orbits):
        self.n = n
        self.table = table
        self.orbits = orbits
        self.moves = move_list(n)      # what a table value's bytes index (made once)
        self._maps = {}

    def cycle(self, index, a, b, c):
        """The table's pure 3-cycle a -> b -> c of orbit `index` (the stages use it opened)."""
        value = self.table.get(index * N_SLOTS ** 3 + cycle_key(a, b, c))
        if value is None:
            raise TableError("table {} has no cycle {}->{}->{} of orbit {}: run `cubebot tables "
                             "build --size {}`".format(table_name(self.n), a, b, c, index, self.n))
        return decode(value, self.moves)

    def _beam(self, cube, solution, steps, left, width, weight, max_steps):
        """(cube, solution) after a beam search from `cube` (reached by `solution`): `width`
        cubes kept, each followed by steps(cube, solution) ([(moves per piece, net, moves)],
        best first), the children (distinct cubes) ranked by moves + weight x left(cube)
        (pieces not yet home); the first of the shortest finished (left 0) is returned.
        Every step puts at least one piece home, so it ends within max_steps steps."""
        n = self.n
        beam, best = [(cube, solution)], None
        if not left(cube):
            return cube, solution
        for _ in range(max_steps):
            children, seen = [], set()
            for cube, solution in beam:
                for _, _, moves in steps(cube, solution):
                    after = apply(cube, moves, n)
                    if after in seen:
                        continue
                    seen.add(after)
                    merged = simplify(solution + moves)
                    if best is not None and len(merged) >= len(best[1]):
                        continue
                    remaining = left(after)
                    if remaining:
                        children.append((len(merged) + weight * remaining, len(children), after,
                                         merged))
                    else:
                        best = (after, merged)
            if not children:
                if best is None:
                    break
                return best
            children.sort(key=itemgetter(0, 1))
            beam = [(after, merged) for _, _, after, merged in children[:width]]
        raise TableError("the {} stage did not finish in {} steps: table {} is wrong".format(
            type(self).__name__, max_steps, table_name(n)))

    def _turned(self, index):
        """[(grouped turn, slot map)] of an orbit (the outer turns and the wide turns of whole
        groups up to (N+1)//2 layers): the cycle a -> b -> c after the turn W is W then the
        table's cycle of the slots W took them to (one move more, and the table's cycles end
        in different grouped turns, which are left out)."""
        if index not in self._maps:
            slots = self.orbits[index][2]
            self._maps[index] = [(m, slot_map(m, slots, self.n)) for m in grouped_turns(self.n)]
        return self._maps[index]

    def _cycle_steps(self, index, tiers, solution):
        """(net, cost, moves) of every cycle of `tiers` ({net: cycles}), opened; the cycles
        of the best gain also after each grouped turn (only those: weighing all of them
        costs time for no fewer moves)."""
        top = max(tiers) if tiers else 0
        for net in sorted(tiers):
            turned = self._turned(index) if net == top else ()
            for a, b, c in tiers[net]:
                moves = opened(self.cycle(index, a, b, c), self.n)
                yield net, added(solution, moves), moves
                for turn, m in turned:
                    moves = [turn] + opened(self.cycle(index, m[a], m[b], m[c]), self.n)
                    yield net, added(solution, moves), moves

    @staticmethod
    def _cheapest(found, count):
        """The `count` steps of `found` ([(moves per piece, order, net, moves)]) with the fewest
        moves per piece, distinct, the first found first among equals: [(moves per piece, net,
        moves)]."""
        return [(rate, net, moves) for rate, _, net, moves in _distinct_best(found, count)]


class CentreStage(_CycleStage):
    """Solves the centre orbits outside the view, all at once."""

    def __init__(self, n, table, orbits):
        _CycleStage.__init__(self, n, table, orbits)
        # the outer turns after which each stored block is weighed too (see _steps);
        # not above TURNED_MAX_N, where the time grows past what it saves
        self._setups = tuple(m for m in grouped_turns(n) if m.last == 1) if n <= TURNED_MAX_N else ()

    def load_blocks(self):
        """[(moved, source, coded)] of every centre commutator of several 3-cycles stored in
        the table (cyclebuild.block_commutators): itemgetters of the facelets it changes and of
        where they come from, and its moves as bytes of indices into self.moves.

        Loaded for one solve and dropped after the centre stage (held through the view
        stage they made the peak). Moved facelets with one distinct moved set share one
        itemgetter, and every index is the one int object of `places` (an index above 256
        would be an int object per use)."""
        n = self.n
        places = tuple(range(6 * n * n))
        index = dict((m, i) for i, m in enumerate(self.moves))
        blocks, getters = [], {}
        for moves in read_blocks(self.table, n):      # each a distinct permutation (the build's)
            p = sequence_permutation(moves, n, places)
            moved = tuple(places[i] for i in places if p[i] != i)
            getter = getters.get(moved)
            if getter is None:
                getter = getters[moved] = itemgetter(*moved)
            blocks.append((getter, itemgetter(*(p[i] for i in moved)),
                           bytes(bytearray(index[m] for m in moves))))
        return blocks

    def block_moves(self, coded):
        """The Moves of a block's bytes."""
        return [self.moves[i] for i in bytearray(coded)]

    def _tiers(self, cube, goal, slots):
        """{net gain: up to CHOICES 3-cycles (a, b, c) of one orbit}."""
        face = [goal[s[0]] for s in slots]
        shown = [cube[s[0]] for s in slots]
        wrong = [s for s in range(N_SLOTS) if shown[s] != face[s]]
        tiers = {}
        for a in wrong:
            for b in wrong:
                if b == a or shown[a] != face[b]:
                    continue
                for c in range(N_SLOTS):       # c may be a solved slot (two wrong left)
                    if c == a or c == b:
                        continue
                    net = 1 + (shown[b] == face[c]) + (shown[c] == face[a]) - (shown[c] == face[c])
                    if net > 0:
                        tier = tiers.setdefault(net, [])
                        if len(tier) < CHOICES:
                            tier.append((a, b, c))
        return tiers

    def _steps(self, cube, solution, centres, blocks):
        """The STEP_CHOICES steps with the fewest moves per facelet joined (net, moves
        after merging with the solution's tail), distinct, the first found first among
        equals: [(moves per facelet, net, moves)]; [] when every centre is joined."""
        goal = blown_up(cube, self.n)
        found = _Found(STEP_CHOICES)
        for index in centres:
            tiers = self._tiers(cube, goal, self.orbits[index][2])
            for net, cost, moves in self._cycle_steps(index, tiers, solution):
                found.add(cost / net, net, moves)
        # Each stored block also after each outer turn S: S, then the block (its
        # closing S' left out, as every closing outer turn is). It is weighed on the
        # cube turned by S, so the table holds no copies (their itemgetters would
        # be 117,600 steps on the 6x6x6).
        for setup in (None,) + self._setups:
            if setup is None:
                turned, turned_goal, before = cube, goal, []
            else:
                turned = apply(cube, [setup], self.n)
                turned_goal, before = blown_up(turned, self.n), [setup]
            for net, moves in self._block_steps(turned, turned_goal, blocks):
                moves = before + moves
                found.add(added(solution, moves) / net, net, moves)
        return self._cheapest(found.entries, STEP_CHOICES)

    def _block_steps(self, cube, goal, blocks):
        """(net facelets joined, opened moves) of every block that joins more than it
        parts on `cube` (its goal: views.blown_up), in table order.

        Blocks of one moved set often come together (cyclebuild's order: 7,034 of the
        7x7x7's 18,312 follow a block of their own set): what the set shows and needs
        is read once for such a run, and a set already all joined is passed over
        (its blocks can only undo: net <= 0)."""
        last = target = None
        joined, open_ = 0, False
        for moved, source, coded in blocks:
            if moved is not last:
                last, target, now = moved, moved(goal), moved(cube)
                open_ = now != target
                joined = sum(map(eq, now, target))
            if not open_:
                continue
            net = sum(map(eq, source(cube), target)) - joined
            if net > 0:
                yield net, opened(self.block_moves(coded), self.n)

    def solve(self, cube):
        """Moves after which every centre facelet outside the view shows its view facelet's
        colour (views.blown_up): a beam over the steps of `_steps` (see the module
        docstring), the shortest finished solution."""
        centres = [index for index, orbit in enumerate(self.orbits) if orbit[0] == "centre"]
        pairs = joins(self.n)[0]
        if all(cube[a] == cube[b] for a, b in pairs):
            return []           # every centre joined (the table staging and solving): no blocks read
        blocks = self.load_blocks()

        def steps(cube, solution):
            return self._steps(cube, solution, centres, blocks)

        def left(cube):
            return sum(1 for a, b in pairs if cube[a] != cube[b])

        return self._beam(cube, [], steps, left, BEAM_WIDTH, FACELET_WEIGHT,
                          2 * N_SLOTS * len(centres))[1]


def orientation(slots, n):
    """orient[h][s]: 1 if the wing of home slot h shows its colours swapped at slot s."""
    maps, flips = [], []
    for m in setup_moves(n):
        mp = slot_map(m, slots, n)
        perm = permutation(m, n)
        maps.append(mp)
        # 1 where the first facelet of slot s lands on the second facelet of mp[s]
        flips.append([0 if perm[slots[mp[s]][0]] == slots[s][0] else 1 for s in range(N_SLOTS)])
    return orientations(maps, flips)


class WingStage(_CycleStage):
    """Puts the wing orbits outside the view home."""

    def __init__(self, n, table, orbits):
        _CycleStage.__init__(self, n, table, orbits)
        self._orient = {}

    def dest(self, cube, index, goal):
        """dest[s]: the slot the wing now at s belongs at (where the goal shows it)."""
        n = self.n
        slots = self.orbits[index][2]
        if index not in self._orient:
            self._orient[index] = orientation(slots, n)
        orient = self._orient[index]
        homes = {}
        for h, (p, q) in enumerate(slots):
            pair = (goal[p], goal[q])
            for s in range(N_SLOTS):
                shown = pair[::-1] if orient[h][s] else pair
                homes[(shown, s)] = h
        result = []
        for s, (p, q) in enumerate(slots):
            h = homes.get(((cube[p], cube[q]), s))
            if h is None:
                raise InvalidCube("the wing at {},{} shows {}{}: no wing of this cube shows "
                                  "that there".format(p, q, cube[p], cube[q]))
            result.append(h)
        if len(set(result)) != N_SLOTS:
            raise InvalidCube("a wing of the {0}x{0}x{0} is on the cube twice".format(n))
        return result

    def _tiers(self, dest):
        """{pieces placed: up to CHOICES 3-cycles (a, b, c)} of one orbit's wings."""
        wrong = [s for s in range(N_SLOTS) if dest[s] != s]
        tiers = {}
        for a in wrong:
            b = dest[a]
            for c in wrong:
                if c != a and c != b:
                    placed = 1 + (dest[b] == c) + (dest[c] == a)
                    tier = tiers.setdefault(placed, [])
                    if len(tier) < CHOICES:
                        tier.append((a, b, c))
        return tiers

    def solve(self, cube):
        """Moves after which every wing outside the view is home: shows the colours of its
        view wing (each orbit even); a beam orbit by orbit (WING_BEAM_WIDTH cubes, each
        followed by its WING_STEP_CHOICES 3-cycles with the fewest moves per wing placed,
        ranked by moves + WING_WEIGHT x wings of the orbit not home)."""
        solution = []
        for index, orbit in enumerate(self.orbits):
            if orbit[0] != "wing":
                continue

            def dest(cube, index=index):
                return self.dest(cube, index, blown_up(cube, self.n))

            def steps(cube, solution, index=index):
                found = [(cost / net, k, net, moves) for k, (net, cost, moves) in
                         enumerate(self._cycle_steps(index, self._tiers(dest(cube)), solution))]
                return self._cheapest(found, WING_STEP_CHOICES)

            def left(cube):
                return sum(1 for s, d in enumerate(dest(cube)) if d != s)

            cube, solution = self._beam(cube, solution, steps, left, WING_BEAM_WIDTH, WING_WEIGHT,
                                        2 * N_SLOTS)
        return solution
