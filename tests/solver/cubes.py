"""Helpers for the solver tests: whole-cube rotations and recolouring."""

import random

from cubebot.solver import facelets, moves

ROTATIONS = ("x", "y", "z")


def all_rotations(n):
    """The 24 whole-cube rotations, each as a move string ("" = none)."""
    ident = "".join(chr(0x100 + i) for i in range(6 * n * n))
    seen = {ident: ""}
    frontier = [ident]
    while frontier:
        nxt = []
        for s in frontier:
            for r in ROTATIONS:
                t = moves.apply(s, r, n)
                if t not in seen:
                    seen[t] = (seen[s] + " " + r).strip()
                    nxt.append(t)
        frontier = nxt
    assert len(seen) == 24
    return sorted(seen.values())


def disguise(state, rng, symbols="WYROGB"):
    """`state` turned by a random whole-cube rotation and recoloured."""
    n = facelets.size_from_length(len(state))
    turned = moves.apply(state, rng.choice(all_rotations(n)), n)
    colours = list(symbols)
    rng.shuffle(colours)
    mapping = dict(zip(sorted(set(state)), colours))
    return facelets.relabel(turned, mapping)


def check_solves(state, solution):
    """Assert that the move list solves `state` (any orientation), by the solver's own model
    and by the independent one (bench/cube3d.py, tied to published data in
    tests/bench/test_cube3d.py)."""
    from bench import cube3d
    after = moves.apply(state, solution)
    text = moves.format_moves(solution)
    assert facelets.is_solved(after), (state, text)
    assert cube3d.solves(state, text), ("the independent model disagrees", state, text)


def seeded(seed):
    return random.Random(seed)


def outer_wing_parity(lettered):
    """Parity of the wing permutation of a lettered 5x5x5: that of its outer 4x4x4 part
    (solve5.outer4.view), read by solve4.pieces."""
    from cubebot.solver.solve4 import pieces
    from cubebot.solver.solve5 import outer4
    return pieces.wing_parity(pieces.wing_positions(outer4.view(lettered)))
