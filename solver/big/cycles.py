"""Pure 3-cycles of the orbits outside the view, and the table NxN-cycles.

For every orbit of an NxNxN cube (N >= 6) that the smaller-cube view leaves
out (views.centre_orbits, views.wing_orbits) and every 3-cycle of its 24
slots (a -> b -> c: N_CYCLES = 24 x 23 x 22 / 3 = 4,048 per orbit), a short
move sequence that does exactly that and moves nothing else of the cube.

The build enumerates commutators and keeps the pure 3-cycles:
  centres  [a b a', Q] and [Q, a b a']: a, b and Q any outer turn, wide turn
           (up to half the cube) or inner slice, b of another face than a
  wings    [A, X Y X']: A a quarter or half turn of the orbit's slice, X and Y
           outer turns
then reaches every other cycle by conjugation S C S' in a cheapest-first
search over setups S (outer and wide turns up to half the cube, and the
grouped 4Rw of the 7x7x7). Every cost is the cycle's opened length (`opened`:
the stages leave its closing grouped turns out, an outer turn or a wide turn
of whole groups of layers), so a setup move costs 2, a grouped one in an
all-grouped setup 1 (`setup_cost`). Only
pairs of supports that meet in one piece are composed, so the build stays
quick. Slices are written as two wide turns (views.slice_turns).

Block commutators (`block_commutators`): [A, b C b'], A and C runs of inner
layers of one axis (written as two wide turns of at most (N+1)//2 layers), b
an outer turn of another axis, that move only centre facelets outside the
view, every one in a 3-cycle: one cycles three rectangles of centres of
several orbits at once (3 to 3 x |A| x |C| facelets) for the 12 moves a
single 3-cycle costs.

Table: sorted records, key = orbit index x 24^3 + cycle key (3 bytes), value
= the moves, one byte each (index + 1 into `move_list(n)`); after the orbits
the block commutators, key = number of orbits x 24^3 + their index.
"""

from collections import OrderedDict
from operator import itemgetter

from cubebot.solver.errors import TableError
from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, invert, permutation, simplify
from cubebot.solver.solve5.cycletables import cheapest_setups, write_cycles
from cubebot.solver.solve5.cycletables import decode as decode_moves
from .views import centre_orbits, groups, in_view, sequence_permutation, wing_orbits, written

N_SLOTS = 24                   # pieces in every orbit
N_CYCLES = N_SLOTS * (N_SLOTS - 1) * (N_SLOTS - 2) // 3
KEY_WIDTH = 3                  # orbit * 24^3 + cycle key < 2 ** 24
MAX_CYCLE_MOVES = 40           # one byte per move
SETUP_COST = 2                 # a setup move is written twice (S C S')
TURNS = (1, 2, 3)


def table_name(n):
    return "{0}x{0}-cycles".format(n)


def orbits(n):
    """[(kind, label, slots)] of the orbits outside the view, centres first; slots
    are tuples of facelets (one for a centre, two for a wing)."""
    result = []
    for (i, j), facelets in centre_orbits(n):
        if not in_view((i, j), n):
            result.append(("centre", (i, j), tuple((f,) for f in facelets)))
    for k, pairs in wing_orbits(n):
        if not in_view((k,), n):
            result.append(("wing", k, pairs))
    return result


def move_list(n):
    """The moves a table value may hold: outer and wide turns of 1..(N+1)//2 layers."""
    return [Move(f, 1, d, t) for f in FACES for d in range(1, (n + 1) // 2 + 1) for t in TURNS]


def setup_moves(n):
    """Setup moves of the conjugation search: outer and wide turns up to half the cube, and
    the grouped wide turns up to (N+1)//2 layers (the 7x7x7's 4Rw)."""
    lasts = grouped_lasts(n)
    return [Move(f, 1, d, t) for f in FACES for d in range(1, (n + 1) // 2 + 1)
            if d <= n // 2 or d in lasts for t in TURNS]


def grouped_lasts(n):
    """The layer counts L of the grouped turns (1..L from a face ending at a group's end):
    they turn whole groups (views.lift), so they keep every joined piece joined."""
    return frozenset(last + 1 for _, last in groups(n))


def opened(moves, n):
    """`moves` without its closing grouped turns (the run of outer turns and wide turns of
    whole groups at its end): what a cycle costs the stages, which leave those turns out
    (stages module docstring)."""
    lasts = grouped_lasts(n)
    end = len(moves)
    while end and moves[end - 1].first == 1 and moves[end - 1].last in lasts:
        end -= 1
    return moves[:end]


def cycle_key(a, b, c):
    """The key of the cycle a -> b -> c, written from its smallest slot."""
    while a > b or a > c:
        a, b, c = b, c, a
    return (a * N_SLOTS + b) * N_SLOTS + c


def compose(perms, size):
    """The facelet permutation of moves applied in order (new[i] = old[p[i]])."""
    state = tuple(range(size))
    for p in perms:
        state = itemgetter(*p)(state)
    return state


def _support(perm):
    return frozenset(i for i, p in enumerate(perm) if p != i)


def pure_cycle(perm, slots):
    """(a, b, c) if the permutation moves exactly three pieces of `slots`, as a
    3-cycle (the piece at a goes to b), and nothing else; else None."""
    moved = [i for i, p in enumerate(perm) if p != i]
    if len(moved) != 3 * len(slots[0]):
        return None
    slot_of = dict((f, s) for s, piece in enumerate(slots) for f in piece)
    if any(f not in slot_of for f in moved):
        return None
    found = sorted(set(slot_of[f] for f in moved))
    if len(found) != 3:
        return None
    goes = {}
    for i in moved:
        goes[perm[i]] = i          # the facelet at perm[i] moves to i
    to = dict((s, slot_of[goes[slots[s][0]]]) for s in found)
    a = found[0]
    b = to[a]
    return (a, b, to[b])


def _slices(n, layers=None):
    layers = range(2, n) if layers is None else layers
    return [Move(f, d, d, t) for f in FACES for d in layers for t in TURNS]


def _outer():
    return [Move(f, 1, 1, t) for f in FACES for t in TURNS]


def _perms(n):
    """perm(moves) -> (permutation, support) of a move list, cached."""
    cache = {}

    def perm(moves):
        key = tuple(moves)
        if key not in cache:
            p = sequence_permutation(moves, n)
            cache[key] = (p, _support(p))
        return cache[key]
    return perm


def _cost(moves, n):
    """(opened length, length): a cycle's cost to the stages, then its written length."""
    return (len(opened(moves, n)), len(moves))


def _keep(found, key, moves, value, n):
    """found[key] = (cost, value), cost = `_cost(moves, n)`, unless it holds a cheaper one."""
    cost = _cost(moves, n)
    if key not in found or cost < found[key][0]:
        found[key] = (cost, value)


def _commutator(p, q, perm, size):
    """(permutation, moves) of [P, Q] = P Q P' Q' (P, Q move lists)."""
    c = compose([perm(p)[0], perm(q)[0], perm(invert(p))[0], perm(invert(q))[0]], size)
    return c, p + q + invert(p) + invert(q)


def _pure_commutators(pairs, orbit_slots, n, several=None):
    """[{cycle key: ((a, b, c), written moves)} per orbit of orbit_slots]: the cheapest
    (`_cost`) of the commutators [P, Q] (P, Q move lists) whose supports meet in one piece
    and that are a pure 3-cycle of that orbit.

    With several = (allowed, found), the same pass adds to found ({(moved, source): (cost,
    moves)}) the commutators whose supports meet in two or more `allowed` facelets and that
    move only such facelets, each in a 3-cycle (`_block_key`)."""
    size = 6 * n * n
    perm = _perms(n)
    orbit_of = dict((f, k) for k, slots in enumerate(orbit_slots) for piece in slots for f in piece)
    best = [OrderedDict() for _ in orbit_slots]     # first-found order: no dict order
    for p, q in pairs:
        meet = perm(p)[1] & perm(q)[1]
        if several is not None and len(meet) > 1 and meet <= several[0]:
            c, moves = _commutator(p, q, perm, size)
            key = _block_key(c, several[0])
            if key is not None:
                moves = written(moves, n)
                _keep(several[1], key, moves, moves, n)
            continue
        if not meet or len(meet) > 2:
            continue
        k = orbit_of.get(next(iter(meet)))
        if k is None or len(meet) != len(orbit_slots[k][0]):
            continue
        c, moves = _commutator(p, q, perm, size)
        cyc = pure_cycle(c, orbit_slots[k])
        if cyc is not None:
            moves = written(moves, n)
            _keep(best[k], cycle_key(*cyc), moves, (cyc, moves), n)
    return [OrderedDict((key, value) for key, (_, value) in found.items()) for found in best]


def _wide(n):
    return [Move(f, 1, d, t) for f in FACES for d in range(2, n // 2 + 1) for t in TURNS]


def _centre_pairs(n):
    """(P, Q) of [a b a', Q] and [Q, a b a']: a, b and Q any outer, wide or slice turn,
    b of another face than a."""
    turns = _outer() + _wide(n) + _slices(n)
    for a in turns:
        for b in turns:
            if b.face != a.face:
                conj = [a, b, Move(a.face, a.first, a.last, 4 - a.turns)]
                for q in turns:
                    yield conj, [q]
                    yield [q], conj


def centre_bases(orbit_slots, n, several=None):
    """Pure 3-cycles of each centre orbit from [a b a', Q] and [Q, a b a'] (see the module
    docstring): [{cycle key: ((a, b, c), moves)}]; with several = (allowed, found), also the
    commutators of several 3-cycles of `allowed` facelets, into found (`_pure_commutators`)."""
    return _pure_commutators(_centre_pairs(n), orbit_slots, n, several)


def _block_key(p, allowed):
    """(moved, source) of a permutation that moves only `allowed` facelets, every one in a
    3-cycle; None otherwise."""
    moved = tuple(i for i in range(len(p)) if p[i] != i)
    if not moved or any(i not in allowed or p[p[p[i]]] != i for i in moved):
        return None
    return moved, tuple(p[i] for i in moved)


def centre_facelets(n):
    """The centre facelets outside the view."""
    return frozenset(f for _, _, slots in orbits(n) for piece in slots for f in piece if len(piece) == 1)


def wing_bases(k, slots, n):
    """Pure 3-cycles of wing orbit k from [A, X Y X'] (see the module docstring)."""
    outer = _outer()

    def pairs():
        for a in _slices(n, (k + 1,)):
            for x in outer:
                for y in outer:
                    if y.face != x.face:
                        yield [a], [x, y, Move(x.face, 1, 1, 4 - x.turns)]
    return _pure_commutators(pairs(), [slots], n)[0]


def runs(n):
    """[(first, last)]: the runs of inner layers a slice of at most (N+1)//2 layers
    reaches from a face (2 <= first <= last <= (N+1)//2)."""
    half = (n + 1) // 2
    return [(a, b) for a in range(2, half + 1) for b in range(a, half + 1)]


def _run_moves(face, first, last, turns):
    return simplify([Move(face, 1, last, turns), Move(face, 1, first - 1, 4 - turns)])


def _rectangles(n, allowed, found):
    """Add to `found` the block commutators [A, b C b'] (see the module docstring) that move
    only `allowed` facelets, each in a 3-cycle."""
    size = 6 * n * n
    perm = _perms(n)
    axes = (("R", "L"), ("U", "D"), ("F", "B"))
    for axis in axes:
        layers = [(f, a, b, t) for f in axis for a, b in runs(n) for t in TURNS]
        outer = [Move(f, 1, 1, t) for f in FACES if f not in axis for t in TURNS]
        for fa, a1, a2, ta in layers:
            first = _run_moves(fa, a1, a2, ta)
            for b in outer:
                for fc, c1, c2, tc in layers:
                    second = [b] + _run_moves(fc, c1, c2, tc) + [Move(b.face, 1, 1, 4 - b.turns)]
                    c, moves = _commutator(first, second, perm, size)
                    key = _block_key(c, allowed)
                    if key is not None:
                        moves = simplify(moves)
                        _keep(found, key, moves, moves, n)


def block_commutators(n, several):
    """[moves]: the centre commutators of several 3-cycles at once, outside the view: the
    block commutators (three rectangles), then those of `several` ({(moved, source): (cost,
    moves)}, from centre_bases: two to four 3-cycles of one orbit or several, 7-16 moves);
    the cheapest writing of each distinct permutation, in that order."""
    found = OrderedDict()                     # first-found order: no dict order
    _rectangles(n, centre_facelets(n), found)
    for key, (_, moves) in several.items():
        _keep(found, key, moves, moves, n)
    return [moves for _, moves in found.values()]


def blocks_base(n):
    """The table key of the first block commutator."""
    return len(orbits(n)) * N_SLOTS ** 3


def read_blocks(table, n):
    """The moves of each block commutator stored in an open NxN-cycles table, one
    list at a time (a generator: the 5,616 of the 7x7x7 are never all held at once)."""
    base, index, moves = blocks_base(n), 0, move_list(n)
    while True:
        value = table.get(base + index)
        if value is None:
            return
        yield decode_moves(value, moves)
        index += 1


def slot_map(move, slots, n):
    """m[s]: the slot the piece at slot s goes to under `move`."""
    perm = permutation(move, n)
    goes = [0] * len(perm)
    for i, p in enumerate(perm):
        goes[p] = i
    slot_of = dict((f, s) for s, piece in enumerate(slots) for f in piece)
    return tuple(slot_of[goes[piece[0]]] for piece in slots)


def setup_cost(move, setup, lasts):
    """What putting `move` before the setup `setup` adds to the opened length of S C S'
    (about: merges aside). While the setup is grouped turns only (layer counts `lasts`,
    `grouped_lasts`), S' at the end is left out with the base's closing grouped turns (one
    move a setup move); the first other setup move brings back those of S' (one each) and
    about one closing turn of the base."""
    if not all(m.last in lasts for m in setup):
        return SETUP_COST
    if move.last in lasts:
        return 1
    return SETUP_COST + len(setup) + 1


def conjugates(bases, slots, n):
    """{cycle key: moves}: the bases conjugated by setups (S C S'), cheapest first by the
    opened length (solve5.cycletables.cheapest_setups: a base costs len(opened(moves, n)),
    a setup move `setup_cost`)."""
    lasts = grouped_lasts(n)
    found = cheapest_setups([(len(opened(moves, n)), cyc, moves) for cyc, moves in bases], setup_moves(n),
                            lambda m: slot_map(m, slots, n), cycle_key,
                            lambda m, setup: setup_cost(m, setup, lasts))
    return dict((key, simplify(setup + moves + invert(setup)))
                for key, (setup, moves) in found.items())


def all_cycles(n, progress=None):
    """{table key: moves} of every orbit outside the view."""
    cycles = {}
    found_orbits = orbits(n)
    centres = [slots for kind, _, slots in found_orbits if kind == "centre"]
    several = OrderedDict()
    centre_found = centre_bases(centres, n, (centre_facelets(n), several))
    for index, (kind, label, slots) in enumerate(found_orbits):
        if kind == "centre":
            bases = centre_found[index]         # centre orbits come first
        else:
            bases = wing_bases(label, slots, n)
        found = conjugates(list(bases.values()), slots, n)
        if progress:
            progress("{} orbit {}: {} commutators, {} of {} 3-cycles".format(
                kind, label, len(bases), len(found), N_CYCLES))
        if len(found) != N_CYCLES:
            raise TableError("{} orbit {} of the {}x{}x{}: only {} of {} 3-cycles found".format(
                kind, label, n, n, n, len(found), N_CYCLES))
        for key, moves in found.items():
            cycles[index * N_SLOTS ** 3 + key] = moves
    blocks = block_commutators(n, several)
    if progress:
        progress("block commutators: {}".format(len(blocks)))
    base = blocks_base(n)
    for index, moves in enumerate(blocks):
        cycles[base + index] = moves
    return cycles


def build_size(n, path, progress=None):
    """Write the table NxN-cycles (records as solve5.cycletables.write_cycles writes them)."""
    write_cycles(path, all_cycles(n, progress), move_list(n), KEY_WIDTH, MAX_CYCLE_MOVES)


def build6(path, progress=None):
    build_size(6, path, progress)


def build7(path, progress=None):
    build_size(7, path, progress)


def build8(path, progress=None):
    build_size(8, path, progress)


def build9(path, progress=None):
    build_size(9, path, progress)


def decode(value, n):
    """The moves of a table value of the NxNxN (solve5.cycletables.decode over move_list(n))."""
    return decode_moves(value, move_list(n))
