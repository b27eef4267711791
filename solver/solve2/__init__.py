"""Optimal 2x2x2 solutions from the on-disk distance tables.

The table for the metric (2x2-htm or 2x2-qtm) stores each state's distance
mod 3. From a state at distance d, exactly the neighbours at distance d-1
have the value (d-1) mod 3 (a neighbour is at d-1, d or d+1), so following
such a neighbour down to the solved state gives a shortest solution without
ever knowing d. Cost: at most 11 (HTM) or 14 (QTM) steps of at most 9 move
applications and table reads.
"""

from cubebot.solver.solve2 import cube as cube2
from cubebot.solver import store
from cubebot.solver.errors import InvalidCube, TableError

TABLES = {"htm": "2x2-htm", "qtm": "2x2-qtm"}
MOVES = {"htm": cube2.HTM_MOVES, "qtm": cube2.QTM_MOVES}
GODS_NUMBER = {"htm": 11, "qtm": 14}
DIST_MOD = 3


class Solver2(object):
    """An open 2x2x2 solver for one metric: Solver2(metric).solve(state)."""

    def __init__(self, metric="htm", directory=None):
        if metric not in TABLES:
            raise InvalidCube("metric {!r} is not supported for the 2x2x2: use htm or qtm".format(metric))
        self.metric = metric
        self.table = store.open_dense(TABLES[metric], directory)
        self.moves = MOVES[metric]

    def close(self):
        self.table.close()

    def solve_cubies(self, cp, co):
        """A shortest move list (U, R, F turns) for a corner state with DBL solved."""
        table, name = self.table, TABLES[self.metric]
        index = cube2.rank(cp, co)
        value = table[index]
        if value >= DIST_MOD:
            raise TableError("table {} has no distance for state {}: run `cubebot tables build`".format(
                name, index))
        solution = []
        while index != cube2.SOLVED:
            if len(solution) >= GODS_NUMBER[self.metric]:
                raise TableError("table {} leads nowhere from state {}: run `cubebot tables build`".format(
                    name, index))
            want = (value - 1) % DIST_MOD
            for move in self.moves:
                ncp, nco = cube2.multiply(cp, co, move)
                nindex = cube2.rank(ncp, nco)
                if table[nindex] == want:
                    break
            else:
                raise TableError("table {} is inconsistent at state {}: run `cubebot tables build`".format(
                    name, index))
            solution.append(move)
            cp, co, index, value = ncp, nco, nindex, want
        return solution

    def solve(self, state):
        """A shortest solution (list of Moves) of a 2x2x2 state with any symbols."""
        _, cube = cube2.orient(state)
        return self.solve_cubies(cube.cp, cube.co)


_OPEN = {}     # (metric, tables directory) -> an open Solver2, kept for later solves


def solver_for(metric="htm"):
    """An open Solver2 for `metric` from the current tables directory (cached)."""
    key = (metric, store.tables_dir())
    solver = _OPEN.get(key)
    if solver is None:
        solver = _OPEN[key] = Solver2(metric)
    return solver


def solve(state, metric="htm", budget=None):
    """The engine entry point used by cubebot.solver.api: a list of candidate move lists.

    The state is checked (InvalidCube) before the table is opened.
    """
    lettered, cube = cube2.orient(state)
    return [solver_for(metric).solve_cubies(cube.cp, cube.co)]
