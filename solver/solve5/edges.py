"""The edge stage of the 5x5x5 reduction: every wing paired with its midge.

After the centres stages the centres are solved and the wing permutation is
even. The midges stay where they are here; each wing slot then needs one
particular wing (the one that shows, at that slot, the colours of the midge
next to it), so the wings form a permutation `dest` of the 24 slots (the
piece at slot s belongs at dest[s]). It is even, so it is a product of wing
3-cycles.

The cycles come from the table 5x5-wing-cycles (built here): for every
3-cycle of wing slots (a -> b -> c, 24 * 23 * 22 / 3 = 4,048 of them) a
short move sequence that does exactly that and leaves every other piece of
the cube in place. Each is a commutator [A, X Y X'] (A a slice, outer or
wide turn, X and Y outer turns) that the build found to be a pure wing
3-cycle, conjugated by setup moves (as few as give the shortest). Each step takes the
cycle with the fewest moves per wing it puts home (one to three; moves
counted after merging with the solution so far).

Wing pieces are told apart by colours and hand: a wing cannot be flipped in
its slot, so which way round it shows its colours at a slot is fixed by
geometry (`orientation`, computed from the move maps).
"""

from collections import OrderedDict

from cubebot.solver.errors import InvalidCube, TableError
from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, apply, invert, permutation, simplify
from .model import ALL_MOVES, N, N_WINGS, MIDGE_OF, WINGS, wing_map

TABLE = "5x5-wing-cycles"
SETUP_COST = 2                 # a setup move costs two: once before, once after
OPEN_SETUP_COST = 1            # ... but an outer one in an all-outer setup is undone by
#                                nothing: open_cycle leaves the closing outer turns out
KEY_WIDTH = 2                  # a cycle key: a * 24 * 24 + b * 24 + c < 2 ** 16
MAX_CYCLE_MOVES = 24           # value: one byte per move (index into ALL_MOVES + 1)
BYTE = 256


def cycle_key(a, b, c):
    """The key of the cycle a -> b -> c, written from its smallest slot."""
    while a > b or a > c:
        a, b, c = b, c, a
    return (a * N_WINGS + b) * N_WINGS + c


def _turns(moves):
    """Outer/wide turns for a list that may hold inner slices (layer 2 alone)."""
    result = []
    for m in moves:
        if m.first == 2:
            result += [Move(m.face, 1, 2, m.turns), Move(m.face, 1, 1, 4 - m.turns)]
        else:
            result.append(m)
    return simplify(result)


def _compose(perms):
    state = list(range(len(perms[0])))
    for p in perms:
        state = [state[i] for i in p]
    return state


def pure_cycle(perm, pieces):
    """(a, b, c) if the facelet permutation is a 3-cycle of these pieces (tuples of
    facelets) and moves nothing else (the piece at slot a goes to slot b)."""
    moved = [i for i, p in enumerate(perm) if p != i]
    if len(moved) != 3 * len(pieces[0]):
        return None
    slot_of = dict((f, s) for s, piece in enumerate(pieces) for f in piece)
    slots = sorted(set(slot_of[f] for f in moved if f in slot_of))
    if len(slots) != 3 or any(f not in slot_of for f in moved):
        return None
    a = slots[0]
    # perm[i] = j: the facelet at j moves to i
    to = dict((s, slot_of[perm.index(pieces[s][0])]) for s in slots)
    b = to[a]
    return (a, b, to[b])


def base_cycles():
    """{cycle key: ((a, b, c), shortest commutator)} over [A, X Y X'] (see the module docstring)."""
    slices = [Move(f, 2, 2, t) for f in FACES for t in (1, 2, 3)]
    outer = [m for m in ALL_MOVES if m.last == 1]

    def commutators():
        for a in list(ALL_MOVES) + slices:
            for x in outer:
                for y in outer:
                    if y.face != x.face:
                        b = [x, y, Move(x.face, 1, 1, 4 - x.turns)]
                        yield [a] + b + invert([a]) + invert(b)
    return shortest_pure(commutators(), WINGS)


def shortest_pure(sequences, pieces):
    """{cycle key: ((a, b, c), moves)}: of the move sequences that are pure 3-cycles of
    these pieces (pure_cycle), the shortest for each cycle, as outer and wide turns; in
    the order the cycles were first found (so no table depends on dict order)."""
    best = OrderedDict()
    for seq in sequences:
        cyc = pure_cycle(_compose([permutation(m, N) for m in seq]), pieces)
        if cyc is None:
            continue
        moves = _turns(seq)
        key = cycle_key(*cyc)
        if key not in best or len(moves) < len(best[key][1]):
            best[key] = (cyc, moves)
    return best


def build_cycles():
    """{cycle key: moves} for every wing 3-cycle, the shortest found."""
    return conjugates(list(base_cycles().values()), wing_map)


def conjugates(bases, map_of):
    """{cycle key: moves}: the bases ((a, b, c), moves) conjugated by setups S (S C S'),
    the shortest for each cycle; map_of(move) maps slots (the piece at s goes to m[s]).

    A setup move costs 2 (once before, once after), an outer one in an all-outer
    setup 1 (open cycles leave the closing outer turns out); cheapest_setups.
    """
    def step(m, setup):
        return OPEN_SETUP_COST if m.last == 1 and all(x.last == 1 for x in setup) else SETUP_COST
    found = cheapest_setups([(len(moves), cyc, moves) for cyc, moves in bases], ALL_MOVES,
                            map_of, cycle_key, step)
    return dict((key, simplify(setup + moves + invert(setup)))
                for key, (setup, moves) in found.items())


def cheapest_setups(bases, setup_moves, map_of, key_of, step_cost):
    """{key: (setup, moves)}: for every 3-cycle reachable from the bases (cost, (a, b, c),
    moves) by setups of setup_moves, the cheapest setup found and its base's moves.

    A breadth-first search over cycles in order of cost (Dial's): a cycle (a, b, c)
    reached with setup S gives, for each move m, the cycle (m^-1(a), m^-1(b), m^-1(c))
    of setup [m] + S at step_cost(m, S) more; map_of(m) maps slots (the piece at s goes
    to map_of(m)[s]); key_of(a, b, c) names a cycle. Bases are taken in their order.
    """
    backs = []
    for m in setup_moves:
        mp = map_of(m)
        back = [0] * len(mp)
        for s, t in enumerate(mp):
            back[t] = s
        backs.append((m, back))
    best = {}
    order = []
    for cost, cyc, moves in bases:
        key = key_of(*cyc)
        if key not in best:
            order.append(key)
        if key not in best or cost < best[key][0]:
            best[key] = (cost, cyc, [], moves)
    by_cost = {}
    for key in order:
        by_cost.setdefault(best[key][0], []).append(key)
    cost = min(by_cost) if by_cost else 0
    while by_cost:
        for key in by_cost.pop(cost, []):
            c0, (a, b, c), setup, moves = best[key]
            if c0 != cost:
                continue
            for m, back in backs:
                cyc = (back[a], back[b], back[c])
                k = key_of(*cyc)
                step = step_cost(m, setup)
                if k not in best or best[k][0] > cost + step:
                    best[k] = (cost + step, cyc, [m] + setup, moves)
                    by_cost.setdefault(cost + step, []).append(k)
        cost += 1
    return dict((key, (setup, moves)) for key, (_, _, setup, moves) in best.items())


def build(path, progress=None):
    """Write 5x5-wing-cycles: records key -> moves (one byte each, index + 1)."""
    cycles = build_cycles()
    if progress:
        progress("{} of {} wing 3-cycles".format(len(cycles), N_WINGS * (N_WINGS - 1) * (N_WINGS - 2) // 3))
    write_cycles(path, cycles)


def write_cycles(path, cycles, move_list=ALL_MOVES, key_width=KEY_WIDTH, max_moves=MAX_CYCLE_MOVES):
    """Write {key: moves} as a record table: keys of key_width bytes, values of max_moves
    bytes (a move each, its index in move_list + 1)."""
    from cubebot.solver.tables import write_records
    index = dict((m, i + 1) for i, m in enumerate(move_list))
    items = []
    for key, moves in cycles.items():
        if len(moves) > max_moves:
            raise TableError("a cycle of {} moves does not fit the table".format(len(moves)))
        value = 0
        for m in moves:
            value = value * BYTE + index[m]
        items.append((key, value))
    write_records(path, items, key_width, max_moves)


TAIL = 4                       # moves of the solution so far that a next cycle may cancel


def added(solution, moves):
    """How many moves `moves` adds after `solution` once merged with its last TAIL moves."""
    tail = solution[-TAIL:]
    return len(simplify(tail + moves)) - len(tail)


def decode(value, move_list=ALL_MOVES):
    """The moves of a table value."""
    moves = []
    while value:
        value, i = divmod(value, BYTE)
        moves.append(move_list[i - 1])
    moves.reverse()
    return moves


def _orientation():
    """orient[h][s]: 1 if the wing of home slot h shows its colours swapped at slot s."""
    perms = [permutation(m, N) for m in ALL_MOVES]
    maps = [wing_map(m) for m in ALL_MOVES]
    flips = []
    for p, mp in zip(perms, maps):
        # 1 where the first facelet of slot s lands on the second facelet of mp[s]
        flips.append([0 if p.index(WINGS[s][0]) == WINGS[mp[s]][0] else 1 for s in range(N_WINGS)])
    return orientations(maps, flips)


def orientations(maps, flips):
    """orient[h][s] for every home slot h: the flips (flips[i][s]: 1 if move i turns the
    piece at slot s round on its way to maps[i][s]) summed along any path from h to s; a
    slot not reached reads 0. Raises AssertionError if two paths disagree."""
    table = []
    for h in range(len(maps[0])):
        seen = {h: 0}
        stack = [h]
        while stack:
            s = stack.pop()
            for mp, fl in zip(maps, flips):
                t, o = mp[s], seen[s] ^ fl[s]
                if t not in seen:
                    seen[t] = o
                    stack.append(t)
                elif seen[t] != o:
                    raise AssertionError("a wing's orientation is not fixed by its slot")
        table.append(tuple(seen.get(s, 0) for s in range(len(maps[0]))))
    return tuple(table)


class Wings(object):
    """The wing pieces of a lettered 5x5x5 and the pairing permutation."""

    def __init__(self):
        self.orient = _orientation()
        self.home = tuple((FACES[p // (N * N)], FACES[q // (N * N)]) for p, q in WINGS)

    def piece(self, shown, s):
        """The home slot of the wing showing `shown` (a pair) at slot s, or None."""
        for h, colours in enumerate(self.home):
            if self.orient[h][s]:
                colours = (colours[1], colours[0])
            if colours == shown:
                return h
        return None

    def dest(self, lettered):
        """dest[s]: the slot the wing now at s belongs at (next to its midge)."""
        where = {}
        for s, (p, q) in enumerate(WINGS):
            h = self.piece((lettered[p], lettered[q]), s)
            if h is None or h in where:
                raise InvalidCube("the wing at {} shows {}{}, which no other wing "
                                  "completes".format(s, lettered[p], lettered[q]))
            where[h] = s
        result = [None] * N_WINGS
        for s, (mp, mq) in enumerate(MIDGE_OF):
            h = self.piece((lettered[mp], lettered[mq]), s)
            if h is None or h not in where:
                raise InvalidCube("the midge at wing slot {} shows {}{}, which no wing "
                                  "matches".format(s, lettered[mp], lettered[mq]))
            result[where[h]] = s
        if None in result:
            raise InvalidCube("two midges need the same wing")
        return result


class EdgeStage(object):
    """Pairs the wings with their midges by 3-cycles from the 5x5x5 wing-cycle table."""

    def __init__(self, table):
        self.table = table
        self.wings = Wings()

    def cycle(self, a, b, c):
        value = self.table.get(cycle_key(a, b, c))
        if value is None:
            raise TableError("table {} has no wing cycle {}->{}->{}: run `cubebot tables build "
                             "--size 5`".format(TABLE, a, b, c))
        return decode(value)

    def solve(self, lettered):
        """Moves that pair every wing with its midge (the wing permutation must be even).

        The centres must be solved: then outer turns keep them solved (each face's
        centres are one colour) and keep every wing next to the same midge (an edge
        moves whole), so a cycle's closing outer turns (the undoing of its setup)
        are left out, and the wings are read again from the cube after each cycle.
        """
        cube = lettered
        solution = []
        for _ in range(N_WINGS):
            dest = self.wings.dest(cube)
            wrong = [s for s in range(N_WINGS) if dest[s] != s]
            if not wrong:
                return simplify(solution)
            best = None
            for a in wrong:
                b = dest[a]                      # the wing at a goes home to b
                for c in wrong:
                    if c == a or c == b:
                        continue
                    placed = 1 + (dest[b] == c) + (dest[c] == a)
                    moves = open_cycle(self.cycle(a, b, c))
                    cost = added(solution, moves)
                    if best is None or cost * best[0][0] < best[0][1] * placed:
                        best = ((placed, cost), moves)
            solution = simplify(solution + best[1])
            cube = apply(cube, best[1], N)
        raise TableError("the wings were not paired in {} cycles: table {} is wrong".format(N_WINGS, TABLE))


def open_cycle(moves):
    """A wing 3-cycle without its closing outer turns (see EdgeStage.solve)."""
    end = len(moves)
    while end and moves[end - 1].last == 1:
        end -= 1
    return moves[:end]
