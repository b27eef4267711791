"""The table NxN-cycles of an NxNxN cube (N >= 6), read side: its orbits, keys and moves.

For every orbit of an NxNxN cube (N >= 6) that the smaller-cube view leaves
out (views.centre_orbits, views.wing_orbits) and every 3-cycle of its 24
slots (a -> b -> c: N_CYCLES = 24 x 23 x 22 / 3 = 4,048 per orbit), a short
move sequence that does exactly that and moves nothing else of the cube;
after them the centre commutators of several 3-cycles (block commutators and
multi-cycles). How they are found: cyclebuild.

Table: sorted records, key = orbit index x 24^3 + cycle key (3 bytes), value
= the moves, one byte each (index + 1 into `move_list(n)`); after the orbits
the commutators of several 3-cycles, key = number of orbits x 24^3 + their
index (`read_blocks`).

A cycle costs the stages its **opened** length (`opened`): its closing
grouped turns (outer turns and wide turns of whole groups of layers,
`grouped_lasts`) keep every joined piece joined, so they are left out.
"""

from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, permutation
from cubebot.solver.solve5.cycletables import decode as decode_moves
from .views import centre_orbits, groups, in_view, wing_orbits

N_SLOTS = 24                   # pieces in every orbit
N_CYCLES = N_SLOTS * (N_SLOTS - 1) * (N_SLOTS - 2) // 3
TURNS = (1, 2, 3)
_GROUPED_LASTS = {}            # N -> grouped_lasts(N), filled on first use


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
    they turn whole groups (views.lift), so they keep every joined piece joined. Made on
    first use for each N (`opened` asks for it per cycle weighed)."""
    if n not in _GROUPED_LASTS:
        _GROUPED_LASTS[n] = frozenset(last + 1 for _, last in groups(n))
    return _GROUPED_LASTS[n]


def grouped_turns(n):
    """The grouped turns a table value may hold (up to (N+1)//2 layers): every outer turn,
    and the 6x6x6's 3Rw, the 7x7x7's 3Rw and 4Rw."""
    lasts = grouped_lasts(n)
    return [Move(f, 1, d, t) for f in FACES for d in range(1, (n + 1) // 2 + 1) if d in lasts
            for t in TURNS]


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
