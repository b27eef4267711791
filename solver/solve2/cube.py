"""The 2x2x2 as coordinates: corners with DBL held fixed.

A 2x2x2 has no centres, so a state is first turned into a canonical
labelling (`orient`): the DBL corner's colours name D, B and L, their
opposites U, F and R. Then DBL is solved and only U, R and F turns are
needed (they never move DBL); every other face turn is one of these up to a
whole-cube turn, so a shortest U/R/F solution is a shortest solution.

Coordinate of a state: perm * N_TWIST_2 + twist, where
  perm   the Lehmer rank of the other 7 corners' permutation (0 .. 7!-1)
  twist  the base-3 rank of their twists, the 7th implied (0 .. 3^6-1)
so N_STATES_2 = 7! * 3^6 = 3,674,160 and the solved state is 0.
"""

from cubebot.solver.coords import factorial, ori_rank, ori_unrank, perm_rank, perm_unrank
from cubebot.solver.cubies import CORNER_NAMES, corner_facelets, from_facelets
from cubebot.solver.errors import InvalidCube
from cubebot.solver.facelets import check_counts, relabel
from cubebot.solver.moves import Move, apply
from cubebot.solver.facelets import solved

FIXED = CORNER_NAMES.index("DBL")                       # the corner held still
MOVING = tuple(i for i in range(len(CORNER_NAMES)) if i != FIXED)
N_MOVING = len(MOVING)                                  # 7 corners move
N_PERM_2 = factorial(N_MOVING)                          # 7! = 5040
N_TWIST_2 = 3 ** (N_MOVING - 1)                         # 3^6 = 729
N_STATES_2 = N_PERM_2 * N_TWIST_2                       # 3,674,160
TURN_FACES = "URF"
HTM_MOVES = tuple(Move(f, 1, 1, t) for f in TURN_FACES for t in (1, 2, 3))
QTM_MOVES = tuple(Move(f, 1, 1, t) for f in TURN_FACES for t in (1, 3))
SOLVED = 0
SIZE = 2

# piece number -> slot among the moving corners (DBL excluded)
_SLOT = dict((piece, k) for k, piece in enumerate(MOVING))


def _move_cubies(move):
    """(cp, co) of one move applied to the solved cube."""
    cube = from_facelets(apply(solved(SIZE), [move], SIZE), SIZE)
    return cube.cp, cube.co


_MOVE_CACHE = {}


def move_cubies(move):
    """Cached (cp, co) of a move (computed from the facelet model once)."""
    found = _MOVE_CACHE.get(move)
    if found is None:
        found = _MOVE_CACHE[move] = _move_cubies(move)
    return found


def multiply(cp, co, move):
    """(cp, co) after applying `move` to the corner state (cp, co)."""
    mp, mo = move_cubies(move)
    return (tuple(cp[j] for j in mp),
            tuple((co[j] + o) % 3 for j, o in zip(mp, mo)))


def rank(cp, co):
    """The coordinate of a corner state with DBL in place."""
    perm = [_SLOT[cp[i]] for i in MOVING]
    twist = [co[i] for i in MOVING]
    return perm_rank(perm) * N_TWIST_2 + ori_rank(twist, 3)


def unrank(index):
    """The (cp, co) of a coordinate (inverse of rank)."""
    p, t = divmod(index, N_TWIST_2)
    perm = perm_unrank(p, N_MOVING)
    twist = ori_unrank(t, N_MOVING, 3)
    cp = [FIXED] * len(CORNER_NAMES)
    co = [0] * len(CORNER_NAMES)
    for k, i in enumerate(MOVING):
        cp[i] = MOVING[perm[k]]
        co[i] = twist[k]
    return tuple(cp), tuple(co)


def opposites(state):
    """symbol -> the symbol of the opposite face, read off the corners.

    Two colours are opposite when no corner shows both. InvalidCube if a
    colour does not have exactly one such partner.
    """
    touching = {}
    for spots in corner_facelets(SIZE):
        colours = [state[i] for i in spots]
        for c in colours:
            touching.setdefault(c, set()).update(colours)
    symbols = sorted(touching)
    result = {}
    for c in symbols:
        apart = [s for s in symbols if s not in touching[c]]
        if len(apart) != 1:
            raise InvalidCube("colour {!r} shares a corner with {}: a colour must meet exactly 4 "
                              "others, never its opposite".format(
                                  c, ",".join(sorted(touching[c] - set([c]))) or "no colour"))
        result[c] = apart[0]
    return result


def orient(state):
    """The state relabelled with URFDLB letters so that DBL is solved.

    Checks counts and every piece (InvalidCube with a one-line message).
    Returns (relabelled_state, CubieCube).
    """
    check_counts(state, SIZE)
    opp = opposites(state)
    d, b, l = (state[i] for i in corner_facelets(SIZE)[FIXED])
    mapping = {d: "D", b: "B", l: "L", opp[d]: "U", opp[b]: "F", opp[l]: "R"}
    if len(mapping) != 6:
        raise InvalidCube("corner DBL has colours {},{},{} whose opposites clash: no such "
                          "colour scheme".format(d, b, l))
    lettered = relabel(state, mapping)
    try:
        cube = from_facelets(lettered, SIZE)
    except InvalidCube as exc:
        raise InvalidCube("{} (colours relabelled from corner DBL: {})".format(
            exc, ", ".join("{}={}".format(k, mapping[k]) for k in sorted(mapping))))
    return lettered, cube
