"""How the table NxN-cycles is built (cycles has its layout and reads it).

The build enumerates commutators and keeps the pure 3-cycles:
  centres  [a b a', Q] and [Q, a b a']: a, b and Q any outer turn, wide turn
           (up to half the cube) or inner slice, b of another face than a
  wings    [A, X Y X']: A a quarter or half turn of the orbit's slice, X and Y
           outer turns
then reaches every other cycle by conjugation S C S' in a cheapest-first
search over setups S (outer and wide turns up to half the cube, and the
grouped 4Rw of the 7x7x7). Every cost is the cycle's opened length
(cycles.opened: the stages leave its closing grouped turns out, an outer turn
or a wide turn of whole groups of layers), so a setup move costs 2, a grouped
one in an all-grouped setup 1 (`setup_cost`). Only pairs of supports that
meet in one piece are composed, so the build stays quick. Slices are written
as two wide turns (views.slice_turns).

Commutators of several 3-cycles (`block_commutators`), stored after the
3-cycles:
  blocks         [A, b C b'], A and C runs of inner layers of one axis
                 (written as two wide turns of at most (N+1)//2 layers), b an
                 outer turn of another axis: three rectangles of centres of
                 several orbits (3 to 3 x |A| x |C| facelets) for 12 moves
  multi-cycles   the centre commutators above whose supports meet in two or
                 more centre facelets outside the view: two to four 3-cycles
                 for 7-16 moves
each kept when it moves only centre facelets outside the view, every one in a
3-cycle, in its cheapest writing.
"""

from collections import OrderedDict
from operator import itemgetter

from cubebot.solver.errors import TableError
from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, invert, simplify
from cubebot.solver.solve5.cycletables import cheapest_setups, write_cycles
from .cycles import (N_CYCLES, N_SLOTS, TURNS, blocks_base, cycle_key, grouped_lasts, move_list, opened, orbits,
                     setup_moves, slot_map)
from .freebeam import free_turns
from .views import sequence_permutation, written

KEY_WIDTH = 3                  # orbit * 24^3 + cycle key < 2 ** 24
MAX_CYCLE_MOVES = 40           # one byte per move
SETUP_COST = 2                 # a setup move is written twice (S C S')


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


def _slices(n, layer):
    return [Move(f, layer, layer, t) for f in FACES for t in TURNS]


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


def _centre_pairs(n):
    """(P, Q) of [a b a', Q] and [Q, a b a']: a, b and Q any of the free turns (outer and
    wide turns up to half the cube, inner slices: freebeam.free_turns), b of another face
    than a."""
    turns = [m for m, _ in free_turns(n)]     # each distinct turn once (slices from U, R, F)
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
        for a in _slices(n, k + 1):
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
