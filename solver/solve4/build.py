"""Building the 4x4x4 tables of solver.catalog with the shared BFS builder.

Each table is the distance of every coordinate value to its stage's goals
(solver.tables.bfs over the stage's `neighbours`), written as a dense 4-bit
file indexed by rank. Deterministic: the same bytes every build.
"""

from ..errors import TableError
from ..tables import PLAIN, UNREACHED, bfs, write_dense

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
    from .centres import LRStage
    _build(LRStage(), path, progress)


def build_ud(path, progress=None):
    """4x4-centres-ud: stage 2, U/D centres onto U/D and even wings (25,740 states)."""
    from .centres import UDStage
    _build(UDStage(), path, progress)


def build_centres(path, progress=None):
    """4x4-centres: every centre solved (343,000 states; the pairs stage heuristic)."""
    from .centres import CentreStage
    _build(CentreStage(), path, progress)


def build_eo(path, progress=None):
    """4x4-eo: the wing stage, A wings onto the A orbit (C(24, 12) = 2,704,156 states)."""
    from .phase2 import EOStage
    _build(EOStage(), path, progress)


def build_triples(path, progress=None):
    """4x4-triples: phase 3, three edges paired (12^6 entries; repeated slots stay unreached)."""
    from .phase3 import TripleTable
    _build(TripleTable(), path, progress, complete=False)


def build_centres_p3(path, progress=None):
    """4x4-centres-p3: the wing stage, centres into a phase-3 solvable configuration (343,000)."""
    from .phase2 import CentreOrbitStage
    _build(CentreOrbitStage(), path, progress)
