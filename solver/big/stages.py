"""The cycle stages: the centre and wing orbits outside the view, by table 3-cycles.

A step is a 3-cycle (or a block, below) and is weighed by its moves per piece
it puts home (net; moves counted after merging with the solution's last TAIL
moves). A table cycle moves nothing but its three pieces (up to the outer
turns left out, below), so what is joined stays joined; each step joins at
least one piece more, so a stage ends within 2 x 24 steps per orbit. The wing
stage is greedy: each step the one with the fewest moves per piece.

The centre stage takes all centre orbits at once and weighs the table's block
commutators (cycles.block_commutators: three rectangles of centres of several
orbits cycled for 12 moves), and each of them moved by an outer turn (S C S',
14 moves; an outer turn keeps the centres outside the view outside it),
beside the 3-cycles of every orbit. It is a beam: BEAM_WIDTH cubes are kept,
each followed by its STEP_CHOICES steps with the fewest moves per facelet, the
children ranked by moves + FACELET_WEIGHT x centre facelets not yet joined;
the shortest finished solution is kept (the greedy it replaced, one cube and
its one best step, was 5-10% longer: docs/solver-big.md).

Open cycles: a cycle's closing outer turns are left out (`opened`): an
outer turn turns whole edges and a whole face of centres with their view
facelets, so it keeps every joined piece joined and moves only the view,
which the view stage solves whole at the end. Each step therefore takes its
goal afresh (views.blown_up of the cube: the colour each facelet must show),
and a cycle costs its moves up to its last inner-layer turn (6x6x6, seed
6666, first 6 states: centres + wings 200.6 -> 176.2 moves). Centre
pieces of one colour are alike: a centre orbit is done when each facelet
shows its goal. Wings are told apart by colours and
hand: a wing cannot be flipped in its slot, so which way round it shows its
colours at a slot is fixed by geometry (`orientation`, computed from the
move maps); each slot then needs one wing and the wings of an orbit form a
permutation, even after the parity stage, so 3-cycles finish it.
"""

from operator import eq, itemgetter

from cubebot.solver.errors import InvalidCube, TableError
from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, apply, invert, permutation, simplify
from cubebot.solver.solve5.cycletables import orientations
from .views import blown_up, joins
from .cycles import N_SLOTS, TURNS, cycle_key, decode, move_list, read_blocks, setup_moves, slot_map, table_name

TAIL = 4                       # moves of the solution so far that a next cycle may cancel
CHOICES = 40                   # 3-cycles of the best gain compared by length, per step
BEAM_WIDTH = 8                 # centre stage: cubes kept after each step ...
STEP_CHOICES = 6               # ... each followed by its this many best steps ...
FACELET_WEIGHT = 2.5           # ... ranked by moves + this x centre facelets not yet joined


def opened(moves):
    """`moves` without its closing outer turns (the run of one-layer turns at its end)."""
    end = len(moves)
    while end and moves[end - 1].first == 1 and moves[end - 1].last == 1:
        end -= 1
    return moves[:end]


def added(solution, moves):
    """How many moves `moves` adds after `solution` once merged with its last TAIL moves."""
    tail = solution[-TAIL:]
    return len(simplify(tail + moves)) - len(tail)


class _CycleStage(object):
    def __init__(self, n, table, orbits):
        self.n = n
        self.table = table
        self.orbits = orbits
        self._maps = {}

    def cycle(self, index, a, b, c):
        """The table's pure 3-cycle a -> b -> c of orbit `index` (the stages use it opened)."""
        value = self.table.get(index * N_SLOTS ** 3 + cycle_key(a, b, c))
        if value is None:
            raise TableError("table {} has no cycle {}->{}->{} of orbit {}: run `cubebot tables "
                             "build --size {}`".format(table_name(self.n), a, b, c, index, self.n))
        return decode(value, self.n)

    def _run(self, cube, kind, step):
        """Apply greedy steps to each orbit of `kind` until step returns None."""
        solution = []
        for index, (k, _, slots) in enumerate(self.orbits):
            if k != kind:
                continue
            for _ in range(2 * N_SLOTS):
                moves = step(cube, index, slots, solution)
                if moves is None:
                    break
                solution = simplify(solution + moves)
                cube = apply(cube, moves, self.n)
            else:
                raise TableError("orbit {} was not solved in {} cycles: table {} is wrong".format(
                    index, 2 * N_SLOTS, table_name(self.n)))
        return solution

    def _turned(self, index):
        """[(outer turn, slot map)] of an orbit: the cycle a -> b -> c after the turn W is
        W then the table's cycle of the slots W took them to (one move more, and the
        table's cycles end in different outer turns, which are left out)."""
        if index not in self._maps:
            slots = self.orbits[index][2]
            self._maps[index] = [(Move(f, 1, 1, t), slot_map(Move(f, 1, 1, t), slots, self.n))
                                 for f in FACES for t in TURNS]
        return self._maps[index]

    def _cycle_steps(self, index, tiers, solution):
        """(net, cost, moves) of every cycle of `tiers` ({net: cycles}), opened; the cycles
        of the best gain also after each outer turn (only those: on the 7x7x7 all of them
        cost 2.6 s a solve more for no fewer moves)."""
        top = max(tiers) if tiers else 0
        for net in sorted(tiers):
            turned = self._turned(index) if net == top else ()
            for a, b, c in tiers[net]:
                moves = opened(self.cycle(index, a, b, c))
                yield net, added(solution, moves), moves
                for turn, m in turned:
                    moves = [turn] + opened(self.cycle(index, m[a], m[b], m[c]))
                    yield net, added(solution, moves), moves

    def _best(self, index, tiers, solution):
        """(net, cost, moves): the cycle of `tiers` with the fewest moves per piece (the
        first such)."""
        best = None
        for step in self._cycle_steps(index, tiers, solution):
            if best is None or step[1] * best[0] < best[1] * step[0]:
                best = step
        return best


def _permutation_of(moves, places, n):
    """new[i] = old[p[i]] of a move list (places: tuple(range(6 * n * n)))."""
    state = places
    for m in moves:
        state = itemgetter(*permutation(m, n))(state)
    return state


class CentreStage(_CycleStage):
    """Solves the centre orbits outside the view, all at once."""

    def __init__(self, n, table, orbits):
        _CycleStage.__init__(self, n, table, orbits)
        self.moves = move_list(n)

    def load_blocks(self):
        """[(moved, source, coded)] of every distinct block commutator of the table and each
        of them moved by an outer turn (S C S'): itemgetters of the facelets it changes and
        of where they come from, and its moves as bytes of indices into self.moves.

        Loaded for one solve and dropped after the centre stage (23,616 blocks of the
        7x7x7 take about 13 MB: held through the view stage they made the peak). Moved
        facelets with one distinct moved set share one itemgetter, and every index is the
        one int object of `places` (an index above 256 would be an int object per use)."""
        n = self.n
        places = tuple(range(6 * n * n))
        index = dict((m, i) for i, m in enumerate(self.moves))
        blocks, seen, getters = [], set(), {}
        outer = [(Move(f, 1, 1, t), permutation(Move(f, 1, 1, t), n), permutation(Move(f, 1, 1, 4 - t), n))
                 for f in FACES for t in TURNS]
        for moves in read_blocks(self.table, n):
            base = _permutation_of(moves, places, n)
            self._add_block(blocks, moves, base, seen, getters, index, places)
            for setup, there, back in outer:      # the block moved by an outer turn: S C S'
                p = itemgetter(*back)(itemgetter(*base)(itemgetter(*there)(places)))
                self._add_block(blocks, simplify([setup] + moves + invert([setup])), p, seen, getters,
                                index, places)
        return blocks

    @staticmethod
    def _add_block(blocks, moves, p, seen, getters, index, places):
        moved = tuple(places[i] for i in places if p[i] != i)
        source = tuple(p[i] for i in moved)
        key = hash((moved, source))           # an int, not the tuples: a lower peak at load
        if key not in seen:
            seen.add(key)
            getter = getters.get(moved)
            if getter is None:
                getter = getters[moved] = itemgetter(*moved)
            blocks.append((getter, itemgetter(*source), bytes(bytearray(index[m] for m in moves))))

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
        found = []
        for index in centres:
            tiers = self._tiers(cube, goal, self.orbits[index][2])
            for net, cost, moves in self._cycle_steps(index, tiers, solution):
                found.append((cost / net, len(found), net, moves))
        for moved, source, coded in blocks:
            target = moved(goal)
            net = sum(map(eq, source(cube), target)) - sum(map(eq, moved(cube), target))
            if net > 0:
                moves = opened(self.block_moves(coded))
                found.append((added(solution, moves) / net, len(found), net, moves))
        steps, seen = [], set()
        for rate, _, net, moves in sorted(found, key=itemgetter(0, 1)):
            key = tuple(moves)
            if key not in seen:
                seen.add(key)
                steps.append((rate, net, moves))
                if len(steps) == STEP_CHOICES:
                    break
        return steps

    def solve(self, cube):
        """Moves after which every centre facelet outside the view shows its view facelet's
        colour (views.blown_up): a beam over the steps of `_steps` (see the module
        docstring), the shortest finished solution."""
        n = self.n
        centres = [index for index, orbit in enumerate(self.orbits) if orbit[0] == "centre"]
        pairs = joins(n)[0]
        blocks = self.load_blocks()
        beam, best = [(cube, [])], None
        for _ in range(2 * N_SLOTS * len(centres)):
            children, seen = [], set()
            for cube, solution in beam:
                for _, _, moves in self._steps(cube, solution, centres, blocks):
                    after = apply(cube, moves, n)
                    if after in seen:
                        continue
                    seen.add(after)
                    merged = simplify(solution + moves)
                    left = sum(1 for a, b in pairs if after[a] != after[b])
                    if not left:
                        if best is None or len(merged) < len(best):
                            best = merged
                    elif best is None or len(merged) < len(best):
                        children.append((len(merged) + FACELET_WEIGHT * left, len(children),
                                         after, merged))
            if not children:
                if best is None:           # nothing was left to join
                    return []
                return best
            children.sort(key=itemgetter(0, 1))
            beam = [(after, merged) for _, _, after, merged in children[:BEAM_WIDTH]]
        raise TableError("the centres were not solved in {} steps: table {} is wrong".format(
            2 * N_SLOTS * len(centres), table_name(n)))


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

    def solve(self, cube):
        """Moves after which every wing outside the view is home: shows the colours of its
        view wing (each orbit even)."""

        def step(cube, index, slots, solution):
            dest = self.dest(cube, index, blown_up(cube, self.n))
            wrong = [s for s in range(N_SLOTS) if dest[s] != s]
            if not wrong:
                return None
            tiers = {}
            for a in wrong:
                b = dest[a]
                for c in wrong:
                    if c != a and c != b:
                        placed = 1 + (dest[b] == c) + (dest[c] == a)
                        tier = tiers.setdefault(placed, [])
                        if len(tier) < CHOICES:
                            tier.append((a, b, c))
            return self._best(index, tiers, solution)[2]
        return self._run(cube, "wing", step)
