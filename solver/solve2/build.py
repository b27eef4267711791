"""Building the 2x2x2 distance tables (HTM and QTM) of cubebot.solver.catalog.

Move tables for the two halves of the coordinate (perm: 7! x moves, twist:
3^6 x moves) make a neighbour a few list look-ups; cubebot.solver.tables.bfs then
fills all 3,674,160 distances. Each table is written as a dense 2-bit file
(distance mod 3), 918,556 bytes. Deterministic: same bytes every build.
"""

from cubebot.solver.solve2 import cube as cube2
from cubebot.solver.coords import ori_rank, ori_unrank, perm_rank, perm_unrank
from cubebot.solver.tables import MOD3, UNREACHED, bfs, write_dense
from cubebot.solver.errors import TableError

DIST_BITS = 2


def _move_tables(move_list):
    """(perm_moves, twist_moves): per coordinate, tuples of neighbours by move.

    perm_moves entries are pre-multiplied by N_TWIST_2.
    """
    n = cube2.N_MOVING
    slot_moves = []
    for move in move_list:
        cp, co = cube2.move_cubies(move)
        # a move as a permutation of the moving slots
        slot_moves.append(([cube2.MOVING.index(cp[i]) for i in cube2.MOVING],
                           [co[i] for i in cube2.MOVING]))
    perm_moves = []
    for p in range(cube2.N_PERM_2):
        perm = perm_unrank(p, n)
        perm_moves.append(tuple(perm_rank([perm[j] for j in mp]) * cube2.N_TWIST_2
                                for mp, _ in slot_moves))
    twist_moves = []
    for t in range(cube2.N_TWIST_2):
        twist = ori_unrank(t, n, 3)
        twist_moves.append(tuple(ori_rank([(twist[j] + o) % 3 for j, o in zip(mp, mo)], 3)
                                 for mp, mo in slot_moves))
    return perm_moves, twist_moves


def distances(move_list, progress=None):
    """The bytearray of distances of every 2x2x2 state under `move_list`."""
    perm_moves, twist_moves = _move_tables(move_list)
    n_twist = cube2.N_TWIST_2

    def neighbours(state):
        p, t = divmod(state, n_twist)
        return [a + b for a, b in zip(perm_moves[p], twist_moves[t])]

    def report(depth, count):
        if progress:
            progress("depth {}: {} states".format(depth, count))

    dist = bfs([cube2.SOLVED], neighbours, n_states=cube2.N_STATES_2, progress=report)
    if dist.find(UNREACHED) != -1:
        raise TableError("2x2x2 search left states unreached: the move model is broken")
    return dist


def _build(path, move_list, progress):
    write_dense(path, distances(move_list, progress), bits=DIST_BITS, encoding=MOD3)


def build_htm(path, progress=None):
    """Write the half-turn-metric table (catalogue entry 2x2-htm)."""
    _build(path, cube2.HTM_MOVES, progress)


def build_qtm(path, progress=None):
    """Write the quarter-turn-metric table (catalogue entry 2x2-qtm)."""
    _build(path, cube2.QTM_MOVES, progress)
