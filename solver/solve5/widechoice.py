"""Phase 1's free choice: each two-layer wide turn may take the middle slice along.

On the 4x4x4 part of a 5x5x5, Rw (layers 1-2) and 3Rw (layers 1-3) act
alike: layer 3 is the middle slice, which never touches that part
(outer4.py). Both are one move (OBTM). So each of phase 1's wide turns is
free to be written with three layers, and that choice moves the T-centres,
fixed centres and midges the later stages solve: a phase-1 solution with k
two-layer wide turns (10-15 on random states) stands for 2 ** k reductions of
the same length that differ only in the middle.

`variants(state, moves, table, count)` picks among them by the T-pair
stage's table (tsets.TSetTable.total: the sum over the six colours of each
colour's exact cost to two whole T-pairs), which the stage after phase 1
(tpairs.py) is guided by. 2 ** 15 variants are too many to rank one by one,
so a beam goes through the moves once: at each wide turn every
partial variant of the beam branches into both ways of writing it, partial
variants leaving the same T-centres are merged, and the WIDTH best are kept,
ranked by the estimate of the T-centres they would leave if the rest of the
moves were written as phase 1 wrote them (the rest's permutation of the 24 T
slots, composed once per position). At most WIDTH x 2 x len(moves) estimates.
"""

from cubebot.solver.moves import Move
from .model import T_CENTRES, slot_perm

WIDE = 2                       # layers of the wide turns phase 1 writes
WITH_SLICE = 3                 # the same turn taking the middle slice along
WIDTH = 64                     # partial variants the beam keeps


def _after(colours, perm):
    """The T-centre colours after a move of permutation perm (new[k] = old[perm[k]])."""
    return "".join([colours[i] for i in perm])


def _then(first, second):
    """The permutation of `first` followed by `second`."""
    return [first[k] for k in second]


def variants(state, moves, table, count, width=WIDTH):
    """Up to `count` move lists, each `moves` with some two-layer wide turns written
    with three layers, the smallest table estimate of the T-centres they leave first
    (`moves` itself among them where it ranks so); table a tsets.TSetTable."""
    perms = {}

    def perm(move):
        if move not in perms:
            perms[move] = slot_perm(move, T_CENTRES)
        return perms[move]

    # rest[k]: the T-slot permutation of moves[k:] as written
    rest = [list(range(len(T_CENTRES)))]
    for m in reversed(moves):
        rest.append(_then(perm(m), rest[-1]))
    rest.reverse()
    beam = [("".join(state[f] for f in T_CENTRES), [])]
    for k, m in enumerate(moves):
        ways = [m]
        if m.first == 1 and m.last == WIDE:
            ways.append(Move(m.face, 1, WITH_SLICE, m.turns))
        found = {}
        for colours, chosen in beam:
            for way in ways:
                after = _after(colours, perm(way))
                if after not in found:
                    found[after] = (table.total(_after(after, rest[k + 1])), len(found), chosen + [way])
        ranked = sorted(found.items(), key=lambda item: item[1][:2])
        beam = [(colours, chosen) for colours, (_, _, chosen) in ranked[:width]]
    return [chosen for _, chosen in beam[:count]]
