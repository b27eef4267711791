"""Between the phases: every T-pair made one colour, the 4x4x4 part kept reduced.

A T-pair is two T-centres opposite each other across a fixed centre
(tcentres.PAIRS): outer turns and middle slices move them together, so phase
2 (middle.solve_middle), which uses only those, can solve the T-centres
quickly only when each pair shows one colour. Phase 1's wide turns split
them (9-12 of the 12 pairs in random states).

A conjugated slice W S W' (W a wide turn, S a middle slice) leaves the 4x4x4
part exactly as it was (S never touches it, W' undoes W there) but moves
T-centres across pairs. `TPairStage.solve` finds a sequence of those (4
written turns each: W, the slice as two turns, W'), of middle slices (2) and
outer turns (1) after which no pair is split (the steps: tsets.steps).

The search is a beam (at most MAX_STEPS steps) guided by the table
5x5-tpair-sets (tsets): a cube's score is its written turns + a weight x
the sum over its six colours of each colour's exact cost to two whole
T-pairs. A beam can get stuck, so TRIES lists the beams tried in turn: the
table-guided one (weight 0.65), a wider one, then (the earlier design, no
table) beams ranked by the number of split pairs; the solutions of one more
guided beam (EXTRA: weight 1.0) are pooled with them. Only the 24 T-centre colours are
followed, as six set ranks turned by the move table 5x5-tpair-moves
(tsets.SetMoves). Each beam is bounded (MAX_STEPS x width x 135 cubes); solve
returns None if none finds anything, and phase 2 then solves the split
pairs its slower way.
"""

from cubebot.solver.search import rank_beam
from cubebot.solver.tables import HEADER
from .slices import written
from .model import T_CENTRES
from .tcentres import PAIRS
from .tsets import MOVE_TABLE, TABLE, SetMoves, TSetTable, ranks, split_units, steps

GUIDED = "table"               # a beam ranking cubes by the table (tsets.TSetTable.total)
COUNTED = "split"              # a beam ranking cubes by their split pairs (no table)
TRIES = ((GUIDED, 60, 0.65), (GUIDED, 240, 0.65), (COUNTED, 60, 4.0), (COUNTED, 240, 4.0))
                               # (ranking, beam width, written turns a unit of it is taken to
                               # cost), tried in turn until one joins the pairs
EXTRA = ((GUIDED, 60, 1.0),)   # beams run besides, their solutions pooled with those of TRIES
MAX_STEPS = 40
CHOICES = 8                    # solutions handed to the pipeline, which keeps the one phase 2 ends soonest after
SLACK = 2                      # written turns above the cheapest a handed-on solution may cost
RECENT = 4                     # steps whose states the beam does not take again


def split(colours):
    """How many T-pairs show two colours."""
    return sum(colours[a] != colours[b] for a, b in PAIRS)


class TPairStage(object):
    """solve(cube) -> written turns that leave every T-pair one colour, or None.

    table: a tsets.TSetTable (store.open_dense(tsets.TABLE) read whole), or None
    for the beams by split pairs only; moves: a tsets.SetMoves (default: rows
    computed as met). The beams follow a cube as its six colours' set ranks."""

    def __init__(self, table=None, moves=None):
        self.steps = steps()
        self.turns = [turns for _, turns, _ in self.steps]
        self.table = table
        self.moves = moves if moves is not None else SetMoves()
        self.units = {}                # ranking -> unit[rank] (see _units)

    @classmethod
    def opened(cls, directory=None):
        """The stage with its tables read from `directory` (TableError if one is missing or
        bad); the move table stays mapped while the stage lives (SetMoves holds it)."""
        from cubebot.solver.store import open_dense, open_words
        dense = open_dense(TABLE, directory)
        try:
            table = TSetTable(dense)
        finally:
            dense.close()
        return cls(table, SetMoves(open_words(MOVE_TABLE, directory)))

    def _units(self, ranking):
        """unit[rank] for a ranking: GUIDED the set's table cost, COUNTED its share of
        split pairs (tsets.split_units); a cube's score is the sum of its six."""
        unit = self.units.get(ranking)
        if unit is None:
            unit = self.units[ranking] = (self.table.by_rank if ranking == GUIDED
                                          else split_units())
        return unit

    def solve(self, cube):
        """The cheapest solution found ([] when no pair is split), or None."""
        found = self.solutions(cube, 1)
        return found[0] if found else None

    def solutions(self, cube, limit=CHOICES):
        """Solutions, shortest first: of the first beam of TRIES that finds any and
        of each EXTRA beam, up to `limit` each from the first step that joins
        every pair, within SLACK written turns of its cheapest (so the next stage
        can pick among them); [[]] when no pair is split, [] if none is found."""
        colours = "".join(cube[f] for f in T_CENTRES)
        if not split(colours):
            return [[]]
        start = ranks(colours)
        pooled = []
        for ranking, width, weight in TRIES:
            pooled = self._run(start, ranking, width, weight, limit)
            if pooled:
                break
        for ranking, width, weight in EXTRA:
            pooled += [m for m in self._run(start, ranking, width, weight, limit) if m not in pooled]
        return sorted((written(moves) for moves in pooled), key=len)

    def _run(self, start, ranking, width, weight, limit):
        """The solutions of one beam ([] if it finds none, or it needs the missing table)."""
        if ranking == GUIDED and self.table is None:
            return []
        return self._beam(start, width, weight, self._units(ranking), limit) or []

    def _beam(self, start, width, weight, unit, limit):
        """Up to `limit` phase-2 move lists (slices unwritten) that join every pair,
        cheapest first, or None; a cube is its six set ranks, its score the sum of
        their `unit`s (0 exactly when every pair is one colour): search.rank_beam
        over the steps (in the compiled core when it is built).

        A state met in the last RECENT steps is not taken again (without that the
        beam circles; with every step remembered it holds a million states at
        width 240)."""
        words = self.moves.table
        table = None if words is None else (words.mm, HEADER.size)
        paths = rank_beam(start, self.moves.row, unit, self.turns, weight, width, limit,
                          MAX_STEPS, RECENT, SLACK, table)
        if paths is None:
            return None
        return [[m for k in path for m in self.steps[k][0]] for path in paths]
