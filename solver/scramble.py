"""Random cube states and the scrambles that make them.

random_state(n, rng): for the 2x2x2 and 3x3x3 a uniformly random state (a
random cubie cube with matching parities and orientation totals; the
2x2x2 with DBL in place, i.e. uniform up to whole-cube turns); for N >= 4 the
state after random_moves(n, rng).
face_turns(n, rng, length): the simulated robot's scramble (outer turns, as by hand).
"""

from cubebot.solver.solve2 import cube as cube2
from cubebot.solver.coords import factorial, ori_unrank, perm_unrank
from cubebot.solver.cubies import N_CORNERS, N_EDGES, CubieCube, parity, to_facelets
from cubebot.solver.facelets import FACES, check_size, solved
from cubebot.solver.moves import Move, apply, invert

RANDOM_MOVES_PER_LAYER = 20     # scramble length for N >= 4: this many per inner layer count


def random_cubies3(rng):
    """A uniformly random solvable 3x3x3 CubieCube."""
    cp = perm_unrank(rng.randrange(factorial(N_CORNERS)), N_CORNERS)
    ep = perm_unrank(rng.randrange(factorial(N_EDGES)), N_EDGES)
    if parity(cp) != parity(ep):
        ep[0], ep[1] = ep[1], ep[0]
    co = ori_unrank(rng.randrange(3 ** (N_CORNERS - 1)), N_CORNERS, 3)
    eo = ori_unrank(rng.randrange(2 ** (N_EDGES - 1)), N_EDGES, 2)
    return CubieCube(tuple(cp), tuple(co), tuple(ep), tuple(eo))


def random_moves(n, rng, length=None):
    """A random sequence of outer and wide turns for an NxNxN cube."""
    check_size(n)
    if length is None:
        length = RANDOM_MOVES_PER_LAYER * max(1, n - 2)
    result = []
    while len(result) < length:
        face = FACES[rng.randrange(len(FACES))]
        depth = rng.randrange(1, n // 2 + 1)
        move = Move(face, 1, depth, rng.randrange(1, 4))
        if result and result[-1].face == face:
            continue
        result.append(move)
    return result


def face_turns(n, rng, length):
    """(state, moves): `length` random outer face turns from solved, no two in a row on one face.

    The scramble of the simulated robot (what a person does by hand): each
    move draws its face from the five allowed, then its turn (1, 2 or 3).
    """
    moves = []
    for _ in range(length):
        face = rng.choice([f for f in FACES if not moves or f != moves[-1].face])
        moves.append(Move(face, 1, 1, rng.choice((1, 2, 3))))
    return apply(solved(n), moves, n), moves


def random_state(n, rng):
    """A random state of an NxNxN cube, lettered URFDLB."""
    check_size(n)
    if n == 2:
        cp, co = cube2.unrank(rng.randrange(cube2.N_STATES_2))
        return to_facelets(CubieCube(cp, co, (), ()), 2)
    if n == 3:
        return to_facelets(random_cubies3(rng), 3)
    return apply(solved(n), random_moves(n, rng), n)


def scramble(n, rng):
    """(state, moves): a random state and a move list that makes it from solved."""
    if n >= 4:
        moves = random_moves(n, rng)
        return apply(solved(n), moves, n), moves
    state = random_state(n, rng)
    from cubebot.solver.api import solve
    moves = invert(solve(state, size=n).moves)
    return state, moves
