"""Building the 4x4x4 tables of cubebot.solver.catalog with the shared BFS builder.

Each distance table is the distance of every coordinate value to its
stage's goals (cubebot.solver.tables.bfs over the stage's `neighbours`), written as
a dense 4-bit file indexed by rank; tables whose coordinate has holes or
that a move set only partly reaches are written with those entries
unreached (complete=False). 4x4-centres-ud-moves and 4x4-pairs-moves are move
tables (words).
Deterministic: the same bytes every build.
"""

from cubebot.solver.errors import TableError
from cubebot.solver.tables import PLAIN, UNREACHED, bfs, write_dense

DIST_BITS = 4


def _build(stage, path, progress, complete=True):
    def report(depth, count):
        if progress:
            progress("depth {}: {} states".format(depth, count))

    dist = bfs(stage.goals(), stage.neighbours, n_states=stage.size, progress=report)
    if complete and dist.find(UNREACHED) != -1:
        raise TableError("table {} left states unreached: the move model is broken".format(stage.table))
    write_dense(path, dist, bits=DIST_BITS, encoding=PLAIN)


def build_lr(path, progress=None):
    """4x4-centres-lr: stage 1, L/R centres onto the L/R axis (735,471 states)."""
    from cubebot.solver.solve4.centres import LRStage
    _build(LRStage(), path, progress)


def build_ud(path, progress=None):
    """4x4-centres-ud: stage 2, U/D centres onto U/D and even wings (25,740 states)."""
    from cubebot.solver.solve4.centres import UDStage
    _build(UDStage(), path, progress)


def build_ud_moves(path, progress=None):
    """4x4-centres-ud-moves: stage 2's move table (25,740 ranks x 19 moves, words)."""
    from cubebot.solver.solve4.centres import build_ud_moves as build
    build(path, progress)


def build_eo(path, progress=None):
    """4x4-eo: the wing stage, A wings onto the A orbit (C(24, 12) = 2,704,156 states)."""
    from cubebot.solver.solve4.wings import EOStage
    _build(EOStage(), path, progress)


def build_centres_p3(path, progress=None):
    """4x4-centres-p3: the wing stage, centres into a configuration the slice and pairs stages can solve (343,000)."""
    from cubebot.solver.solve4.wings import CentreOrbitStage
    _build(CentreOrbitStage(), path, progress)


def build_slice(path, progress=None):
    """4x4-slice: the slice stage, four edges into the E slice (495 x 12^4 entries)."""
    from cubebot.solver.solve4.slice import SliceTable
    _build(SliceTable(), path, progress, complete=False)


def build_centres_p4(path, progress=None):
    """4x4-centres-p4: the slice stage, centres into a configuration the pairs moves solve."""
    from cubebot.solver.solve4.slice import CentresForPairs
    _build(CentresForPairs(), path, progress, complete=False)


def build_pair_moves(path, progress=None):
    """4x4-pairs-moves: the pairs stage's move table of the U/D pairing permutation."""
    from cubebot.solver.solve4.pairs import build_moves
    build_moves(path, progress)


def build_pairs(path, progress=None):
    """4x4-pairs: the pairs stage, every edge paired and no PLL parity (8! x 4! x 2 entries)."""
    from cubebot.solver.solve4.pairs import PairsTable
    _build(PairsTable(), path, progress, complete=False)


def build_pairs_centres(path, progress=None):
    """4x4-pairs-centres: the pairs stage, centres solved with the E-slice pairs (70^3 x 4! x 2)."""
    from cubebot.solver.solve4.pairs import PairsCentresTable
    _build(PairsCentresTable(), path, progress, complete=False)


def build_pairs_ud(path, progress=None):
    """4x4-pairs-ud: the pairs stage, U/D centres with the U/D pairs (70 x 8! x 2 entries)."""
    from cubebot.solver.solve4.pairs import PairsUDTable
    _build(PairsUDTable(), path, progress, complete=False)
