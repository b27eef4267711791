"""The two wing orbits of phase 3 and the moves of phases 2 and 3.

Phase-3 moves (PHASE3_MOVES, 20): U, D, F, B (any turn), R2, L2 and the six
wide half turns. They split the 24 wing slots into two orbits of 12,
ORBIT_A and ORBIT_B, with one slot of each edge in each (computed here, and
checked): a wing in an A slot stays in A slots. So an edge can be paired in
phase 3 only if one of its wings is in an A slot and the other in a B slot;
phase 2 brings the cube there ("wing orientation"). Every phase-3 move is
an even permutation of the wings, so phase 2 also makes the wing
permutation even (no OLL parity).

Phase-2 moves (PHASE2_MOVES, 19): the fixed-frame generators that keep the
L/R centres on the L/R axis (what phase 1 reached).
"""

from ..moves import Move
from .model import EDGE_MOVES, N_WINGS, wing_map

HALF = 2
QUARTER_TURNS = (1, 2, 3)
PHASE3_MOVES = tuple([Move(f, 1, 1, t) for f in "UDFB" for t in QUARTER_TURNS] +
                     [Move(f, 1, 1, HALF) for f in "RL"] +
                     [m for m in EDGE_MOVES if m.last == 2])


def wing_perm(move):
    """The move as a permutation of wing slots: new[k] = old[p[k]] (masks.MaskMover)."""
    mapping = wing_map(move)
    perm = [0] * N_WINGS
    for s, t in enumerate(mapping):
        perm[t] = s
    return tuple(perm)


def _orbits(moves):
    maps = [wing_map(m) for m in moves]
    orbit = [None] * N_WINGS
    count = 0
    for s in range(N_WINGS):
        if orbit[s] is not None:
            continue
        orbit[s] = count
        stack = [s]
        while stack:
            x = stack.pop()
            for m in maps:
                if orbit[m[x]] is None:
                    orbit[m[x]] = count
                    stack.append(m[x])
        count += 1
    return orbit


def _split():
    orbit = _orbits(PHASE3_MOVES)
    a = tuple(s for s in range(N_WINGS) if orbit[s] == 0)
    b = tuple(s for s in range(N_WINGS) if orbit[s] == 1)
    # Two orbits with one slot of each edge (slots 2e, 2e+1) in each.
    assert len(a) + len(b) == N_WINGS and len(set(x >> 1 for x in a)) == len(a)
    return a, b


ORBIT_A, ORBIT_B = _split()
N_ORBIT = len(ORBIT_A)
