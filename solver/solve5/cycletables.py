"""3-cycle tables: pure 3-cycles found among commutators, conjugated by the cheapest setups,
written as record tables and read back.

A table cycle is S C S' (S a setup, C a commutator that is a pure 3-cycle of some pieces:
it moves those three and nothing else). `shortest_pure` keeps the shortest commutator of each
cycle, `cheapest_setups` reaches every other cycle of the same pieces by setups (a breadth-first
search in order of cost), `write_cycles` writes {cycle key: moves} as a record table (keys of
KEY_WIDTH bytes, one byte a move) and `decode` reads a value back. Used by the 5x5x5's centre
cycles (centrecycles, 5x5-centre-cycles), its midge cycles (midges, 5x5-midge-cycles) and the
big cubes' cycle tables (solver.big.cycles). `orientations` tells which way round a piece
shows its colours at each slot (solver.big.stages' wings).
"""

from collections import OrderedDict

from cubebot.solver.errors import TableError
from cubebot.solver.moves import Move, invert, permutation, simplify
from .model import ALL_MOVES, N, N_SLOTS

SETUP_COST = 2                 # a setup move costs two: once before, once after
OPEN_SETUP_COST = 1            # ... but an outer one in an all-outer setup is undone by
#                                nothing: open_cycle leaves the closing outer turns out
KEY_WIDTH = 2                  # a cycle key: a * 24 * 24 + b * 24 + c < 2 ** 16
MAX_CYCLE_MOVES = 24           # value: one byte per move (index into ALL_MOVES + 1)
BYTE = 256


def cycle_key(a, b, c):
    """The key of the cycle a -> b -> c of slots of one orbit (at most N_SLOTS = 24: the
    wings, the X- or T-centres; the 12 midges fit too), written from its smallest slot."""
    while a > b or a > c:
        a, b, c = b, c, a
    return (a * N_SLOTS + b) * N_SLOTS + c


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
    """The moves of a table value: its bytes, most significant first, each a
    move's index + 1 (never 0)."""
    return [move_list[i - 1] for i in bytearray(value.to_bytes((value.bit_length() + 7) // 8, "big"))]


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


def open_cycle(moves):
    """A table cycle without its closing outer turns: where what is solved stays solved
    under outer turns (each face's centres one colour, every edge whole), the undoing of
    an outer setup is left out and the pieces are read again after the cycle."""
    end = len(moves)
    while end and moves[end - 1].last == 1:
        end -= 1
    return moves[:end]
