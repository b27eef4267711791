"""Generic IDA* over coordinates, with move-sequence pruning.

The caller describes the puzzle by callbacks, so the same search serves any
phase of any size:

  start             the start state (anything: an int, a tuple of ints, ...)
  moves             a list of cubebot.solver.moves.Move (their faces/layers drive
                    the pruning below); a move is passed to `apply` by index
  apply(state, i)   the state after moves[i]
  heuristic(state)  a lower bound on the remaining cost (typically the max of
                    several pruning tables); 0 does not have to mean solved
  is_goal(state)    True at a goal
  costs             cost of each move (default 1 each: HTM; give a half turn
                    cost 2 for QTM)

Pruning (`successors`): after a move, a move of the same face and layers is
never tried (it would merge into one move), and of two moves on the same
axis (which commute) only one order is tried: the one whose (face, first
layer, last layer) key increases. This keeps the branching factor of the
outer-face 3x3x3 move set at 13.35 instead of 18.
"""

import time

from cubebot.solver.moves import AXIS_OF
from cubebot.solver.errors import TableError
from cubebot.solver.facelets import FACES


def _key(move):
    return (FACES.index(move.face), move.first, move.last if move.last is not None else 0)


_SUCCESSORS = {}         # tuple(moves) -> successors(moves): a search is started many times
                        # a solve with the same few move sets


def successors(moves):
    """allowed[k] = indices of moves allowed after move k; allowed[-1]: at start.

    Returned as a tuple of len(moves) + 1 tuples; the last one (index -1) is
    every move. Computed once per process for each move set.
    """
    key = tuple(moves)
    allowed = _SUCCESSORS.get(key)
    if allowed is None:
        allowed = _SUCCESSORS.setdefault(key, _successors(key))
    return allowed


def _successors(moves):
    allowed = []
    for a in moves:
        row = []
        for j, b in enumerate(moves):
            if AXIS_OF[a.face] != AXIS_OF[b.face] or _key(b) > _key(a):
                row.append(j)
        allowed.append(tuple(row))
    allowed.append(tuple(range(len(moves))))
    return tuple(allowed)


class Stats(object):
    """Counters of one search: nodes visited (apply calls)."""

    def __init__(self):
        self.nodes = 0


def ida_star(start, moves, apply, heuristic, is_goal, max_cost=20, costs=None,
             max_solutions=1, stop=None, stats=None, cheapest_only=False, more_nodes=None,
             min_cost=0):
    """Yield solutions (lists of Moves) in order of non-decreasing cost.

    Stops after max_solutions solutions (None: all within max_cost), when
    the cost bound passes max_cost, when stop() returns True (checked at
    every node; a cheap callable such as a deadline test), with
    cheapest_only after the first cost bound that has solutions, and with
    more_nodes once that many nodes have been visited since the first
    solution was found (the solutions found so far are still yielded).
    The first cost bound is at least min_cost (the caller knows there is no
    cheaper solution: it searched the smaller bounds already).
    """
    n = len(moves)
    costs = list(costs) if costs is not None else [1] * n
    allowed = successors(moves)
    stats = stats if stats is not None else Stats()
    path = []
    found = [0]
    unbounded = float("inf")

    def dfs(state, g, bound, last):
        # Returns the smallest f above bound seen below this node.
        h = heuristic(state)
        f = g + h
        if f > bound:
            return f
        if h == 0 and is_goal(state):
            if g == bound:
                yield_list.append(list(path))
            return unbounded
        smallest = unbounded
        for i in allowed[last]:
            if stop is not None and stop():
                raise _Stopped()
            if more_nodes is not None and yield_list:
                if not first_at:
                    first_at.append(stats.nodes)
                elif stats.nodes - first_at[0] > more_nodes:
                    raise _Stopped()
            stats.nodes += 1
            path.append(moves[i])
            t = dfs(apply(state, i), g + costs[i], bound, i)
            path.pop()
            if yield_list and max_solutions is not None and \
                    found[0] + len(yield_list) >= max_solutions:
                return t
            if t < smallest:
                smallest = t
        return smallest

    yield_list = []
    first_at = []              # node count when the first solution was found
    bound = max(heuristic(start), min_cost)
    while bound <= max_cost:
        try:
            nxt = dfs(start, 0, bound, -1)
        except _Stopped:
            nxt = None
        for solution in yield_list:
            yield solution
            found[0] += 1
            if max_solutions is not None and found[0] >= max_solutions:
                return
        if cheapest_only and yield_list:
            return
        del yield_list[:]
        if nxt is None or nxt == unbounded:
            return
        bound = nxt


def descend(start, moves, apply, distance, max_solutions=1, length=None):
    """Up to max_solutions solutions (lists of Moves) of `length` moves (default: the
    shortest, distance(start)) for an exact distance (an exact table: every move
    changes it by at most one, 0 only at a goal).

    The same solutions, in the same order, as ida_star(start, moves, apply, distance,
    distance == 0, min_cost=length, max_cost=length, max_solutions=...), which at
    that bound walks down such a table, for a fraction of its calls: from each state
    only the moves to a state within the moves left are followed (when length is the
    shortest, those one nearer). A goal ends a path, as in ida_star: a solution
    passes through none. [] if there are none (for the shortest: a damaged table).
    """
    allowed = successors(moves)
    found, path = [], []

    def walk(state, h, left, last):
        if h == 0:
            if left == 0:
                found.append(list(path))
            return
        left -= 1
        for i in allowed[last]:
            nxt = apply(state, i)
            d = distance(nxt)
            if d <= left:
                path.append(moves[i])
                walk(nxt, d, left, i)
                path.pop()
                if len(found) >= max_solutions:
                    return

    h = distance(start)
    walk(start, h, h if length is None else length, -1)
    return found


class _Stopped(Exception):
    """Raised inside the search when stop() asks it to end."""


def first_solution(*args, **kwargs):
    """The first (cheapest) solution of ida_star(...), or None."""
    for solution in ida_star(*args, **kwargs):
        return solution
    return None


# ---------------------------------------------------------------- coordinate searches
#
# A stage whose state is a tuple of coordinates, each turned by a move table,
# and whose bound is the maximum of distance tables read by rank, is described
# by a CoordModel. coord_ida and coord_bfs search such a model either in the
# compiled core (cubebot.solver._core, built by `pip install` where a C compiler
# exists) or in Python (ida_star, tables.bfs); both give the same answers. This is
# the one place that chooses: the engines never import the core.

_OUT_OF_RANGE = ("a move or distance table of the search gives a value out of range: run "
                 "`cubebot tables build`")
PURE_PYTHON_ENV = "CUBEBOT_PURE_PYTHON"     # set to 1: the pure-Python path, built core or not
COMPILED, PYTHON = "compiled", "python"      # the names of the two paths (core_path())
NO_LIMIT = -1                                # the core's "no limit" for counts and nodes
_CORE = []                                   # [the core module or None], imported on first use
CORE_SECONDS = [0.0]                         # wall time spent inside the core (this process):
                                             # the brick-time estimate scales it as compiled code


def compiled_module(name, cache, package="cubebot.solver"):
    """The optional compiled module PACKAGE.NAME (cubebot.solver.NAME unless told), or
    None (not built, or CUBEBOT_PURE_PYTHON=1); cache: a list that keeps the import's
    outcome."""
    import os
    import importlib
    if os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0"):
        return None
    if not cache:
        try:
            cache.append(importlib.import_module(package + "." + name))
        except ImportError:
            cache.append(None)
    return cache[0]


def core():
    """The compiled core module, or None (not built, or CUBEBOT_PURE_PYTHON=1)."""
    return compiled_module("_core", _CORE)


def core_path():
    """Which path the coordinate searches take here: COMPILED or PYTHON."""
    return COMPILED if core() is not None else PYTHON


def core_function(name):
    """The compiled core's function `name`, its time added to CORE_SECONDS, or None (the
    core not built, or CUBEBOT_PURE_PYTHON=1): for a caller that keeps its own Python
    path giving the same answers (solve4's centres-ud choice)."""
    lib = core()
    return None if lib is None else timed(getattr(lib, name))


def timed(function):
    """`function` (compiled) with the wall time of each call added to CORE_SECONDS, which
    the brick-time estimate scales by the compiled-code factor."""
    def call(*args):
        began = time.perf_counter()
        try:
            return function(*args)
        finally:
            CORE_SECONDS[0] += time.perf_counter() - began
    return call


class Rows(object):
    """A move table of one coordinate: entry c * n_moves + i (unsigned, little-endian
    items of `itemsize` bytes from byte `offset` of `buffer`) is the coordinate after
    move i; `size` values. Any object with the buffer protocol serves: an mmap, bytes,
    an array (made by Rows.of). entries: the same entries as something indexable
    (a WordTable's words(), so that no other view holds its mapping open)."""

    def __init__(self, buffer, offset, itemsize, size, entries=None):
        self.buffer, self.offset, self.itemsize, self.size = buffer, offset, itemsize, size
        if entries is None:
            view = memoryview(buffer)[offset:]
            view = view.cast("B") if view.format != "B" else view
            usable = len(view) - len(view) % itemsize
            entries = view[:usable].cast({1: "B", 2: "H", 4: "I"}[itemsize])
        self.entries = entries

    @classmethod
    def of(cls, values, size):
        """Rows from a list of next values (entry c * n_moves + i)."""
        from array import array
        typecode = "H" if size <= 1 << 16 else "I"
        data = array(typecode, values)
        if data.itemsize not in (2, 4):
            raise ValueError("array code {} is {} bytes here".format(typecode, data.itemsize))
        return cls(_little(data), 0, data.itemsize, size, data)


def _little(data):
    import sys
    if sys.byteorder != "little":
        data = type(data)(data.typecode, data)
        data.byteswap()
    return data


class DistanceTable(object):
    """A distance table the bound reads: the entry at rank sum(mult * map[coord]) of
    a 4-bit (low nibble first) or 8-bit buffer from byte `offset`. terms: ((coord,
    mult, map or None), ...); a map is a list of ranks (None: no rank)."""

    def __init__(self, buffer, offset, bits, terms):
        from array import array
        self.buffer, self.offset, self.bits = buffer, offset, bits
        self.terms = tuple((c, m, None if r is None else array("i", [-1 if x is None else x
                                                                     for x in r]))
                           for c, m, r in terms)


class CoordModel(object):
    """A stage over coordinates: moves (Moves), rows (a Rows per coordinate), tables
    (DistanceTables; their max is the bound, 0 only at a goal), costs (None: 1 each)."""

    def __init__(self, moves, rows, tables, costs=None):
        self.moves = list(moves)
        self.rows = list(rows)
        self.tables = list(tables)
        self.costs = tuple(costs) if costs is not None else (1,) * len(self.moves)
        self.n_moves = len(self.moves)
        self.sizes = [r.size for r in self.rows]
        self.n_states = 1
        for size in self.sizes:
            self.n_states *= size
        self.spec = (self.n_moves,
                     tuple((r.buffer, r.offset, r.itemsize, r.size) for r in self.rows),
                     tuple((t.buffer, t.offset, t.bits, tuple((c, m, None if r is None else _little(r))
                                                              for c, m, r in t.terms))
                           for t in self.tables),
                     successors(self.moves), self.costs)
        self._readers = [self._reader(t) for t in self.tables]

    @staticmethod
    def _reader(table):
        buffer, at = table.buffer, table.offset      # read by index: no view holds an mmap open
        terms = [(c, m, None if r is None else list(r)) for c, m, r in table.terms]
        nibbles = table.bits == 4

        def read(state):
            rank = 0
            for c, m, r in terms:
                x = state[c] if r is None else r[state[c]]
                if x < 0:
                    raise TableError("a distance table has no rank for a coordinate value {}".format(
                        state[c]))
                rank += m * x
            if nibbles:
                return (buffer[at + (rank >> 1)] >> ((rank & 1) << 2)) & 15
            return buffer[at + rank]
        return read

    def scalar(self):
        """(apply, heuristic) over bare ints for a model of one coordinate whose one table
        is read by the coordinate itself (the same values as apply and heuristic on
        1-tuples); else None."""
        if len(self.rows) != 1 or len(self.tables) != 1 or self.tables[0].terms != ((0, 1, None),):
            return None
        entries, n, table = self.rows[0].entries, self.n_moves, self.tables[0]
        buffer, at = table.buffer, table.offset

        def apply(state, i):
            return entries[state * n + i]

        if table.bits == 4:
            def heuristic(state):
                return (buffer[at + (state >> 1)] >> ((state & 1) << 2)) & 15
        else:
            def heuristic(state):
                return buffer[at + state]
        return apply, heuristic

    def apply(self, state, i):
        n = self.n_moves
        return tuple(r.entries[c * n + i] for r, c in zip(self.rows, state))

    def heuristic(self, state):
        return max(read(state) for read in self._readers)

    def rank(self, state):
        r = 0
        for size, c in zip(self.sizes, state):
            r = r * size + c
        return r

    def unrank(self, rank):
        state = []
        for size in reversed(self.sizes):
            rank, c = divmod(rank, size)
            state.append(c)
        return tuple(reversed(state))

    def neighbours(self, rank):
        state = self.unrank(rank)
        return [self.rank(self.apply(state, i)) for i in range(self.n_moves)]


def coord_ida(model, start, max_cost=20, max_solutions=1, stats=None, max_nodes=None,
              cheapest_only=False, more_nodes=None, min_cost=0):
    """list(ida_star(...)) over a CoordModel from its state `start` (a tuple of
    coordinates), the goal where the bound is 0, in the core when it is built:
    the same solutions (lists of Moves) in the same order, and the same node count
    added to stats. max_nodes: stop once stats.nodes passes it (an absolute count,
    as ida_star's stop=lambda: stats.nodes > max_nodes). A move or distance table
    that gives a value out of range raises TableError."""
    stats = stats if stats is not None else Stats()
    lib = core()
    if lib is not None:
        paths, stats.nodes = timed(lib.ida)(
            model.spec, tuple(start), max_cost, min_cost,
            NO_LIMIT if max_solutions is None else max_solutions, stats.nodes,
            NO_LIMIT if max_nodes is None else max_nodes, 1 if cheapest_only else 0,
            NO_LIMIT if more_nodes is None else more_nodes)
        moves = model.moves
        return [[moves[i] for i in path] for path in paths]
    _check_rows(model)
    _check_state(model, start)
    stop = None
    if max_nodes is not None:
        def stop():
            return stats.nodes > max_nodes
    h = model.heuristic
    try:
        return list(ida_star(tuple(start), model.moves, model.apply, h, lambda s: h(s) == 0,
                             max_cost=max_cost, costs=model.costs, max_solutions=max_solutions,
                             stop=stop, stats=stats, cheapest_only=cheapest_only,
                             more_nodes=more_nodes, min_cost=min_cost))
    except IndexError:
        raise TableError("a move or distance table of the search gives a value out of range: "
                         "run `cubebot tables build`")


def coord_descend(model, start, max_solutions=1, length=None, as_indices=False):
    """descend(...) over a CoordModel whose bound is exact (its heuristic), from its state
    `start`, in the core when it is built: the same solutions in the same order (with
    as_indices, as lists of indices into model.moves)."""
    lib = core()
    if lib is not None:
        paths = timed(lib.descend)(model.spec, tuple(start), max_solutions,
                                   NO_LIMIT if length is None else length)
        if as_indices:
            return paths
        moves = model.moves
        return [[moves[i] for i in path] for path in paths]
    if as_indices:
        where = dict((m, i) for i, m in enumerate(model.moves))
        return [[where[m] for m in path] for path in coord_descend(model, start, max_solutions,
                                                                  length)]
    _check_rows(model)
    _check_state(model, start)
    try:
        scalar = model.scalar()
        if scalar is not None:            # one coordinate: states as bare ints (faster)
            apply, distance = scalar
            return descend(start[0], model.moves, apply, distance, max_solutions, length)
        return descend(tuple(start), model.moves, model.apply, model.heuristic, max_solutions,
                       length)
    except IndexError:
        raise TableError("a move or distance table of the search gives a value out of range: "
                         "run `cubebot tables build`")


def _check_rows(model):
    for k, r in enumerate(model.rows):
        if len(r.entries) < r.size * model.n_moves:
            raise TableError("move table of coordinate {} has {} entries, expected {} x {}: run "
                             "`cubebot tables build`".format(k, len(r.entries), r.size,
                                                              model.n_moves))


def _check_state(model, state):
    if len(state) != len(model.sizes) or any(not 0 <= c < s for c, s in zip(state, model.sizes)):
        raise TableError("state {} is outside the coordinates {}".format(tuple(state), model.sizes))


class MaskModel(object):
    """A stage over 24-bit slot masks, and optionally the two wing orbits' indices, for
    the core's mask_ida (solver/_core.c describes the layout). moves: Moves; movers:
    per mover a native 32-bit array, move i's three 256-entry byte tables at i x 768;
    mask_movers: the mover of each mask; combs: per rank coordinate (its three
    native 32-bit rank tables one after another, k); tables: 4-bit distance tables
    (buffer, byte offset, ((mask, comb, multiplier, map or None), ...)); orbit: None
    or bytes, per move the 12 A-index and 12 B-index destinations; costs: None (1 each).
    with_slice(...) adds the slice stage's min over sets of edges to the bound."""

    def __init__(self, moves, movers, mask_movers, combs, tables, orbit=None, costs=None):
        self.moves = list(moves)
        costs = tuple(costs) if costs is not None else (1,) * len(self.moves)
        self._head = (len(self.moves), tuple(movers), tuple(mask_movers), tuple(combs),
                      tuple((b, o, tuple(terms)) for b, o, terms in tables), orbit)
        self._tail = (successors(self.moves), costs)
        self.spec = self._head + (None,) + self._tail

    def with_slice(self, buffer, offset, by_mask, subsets):
        """The spec with the slice bound: the 4-bit table at (buffer, offset), by_mask a
        native 32-bit array of 4,096 x (base or -1, four A indices), subsets bytes of
        four edges each."""
        return self._head + ((buffer, offset, by_mask, subsets),) + self._tail


def stage_ida(stage, start, max_cost=20, max_solutions=1, stats=None, max_nodes=None,
              cheapest_only=False, more_nodes=None, min_cost=0):
    """list(ida_star(start, stage.moves, stage.apply, stage.heuristic, the goal where the
    heuristic is 0, ...)) for a stage that can describe itself to the core: in the core
    when it is built and stage.core_spec() is not None (a MaskModel spec; its states
    stage.core_state(state)), else in Python. The same solutions in the same order and
    the same node count either way; max_nodes as in coord_ida."""
    stats = stats if stats is not None else Stats()
    lib = core()
    spec = None if lib is None else stage.core_spec()
    if spec is not None:
        paths, stats.nodes = timed(lib.mask_ida)(
            spec, stage.core_state(start), max_cost, min_cost,
            NO_LIMIT if max_solutions is None else max_solutions, stats.nodes,
            NO_LIMIT if max_nodes is None else max_nodes, 1 if cheapest_only else 0,
            NO_LIMIT if more_nodes is None else more_nodes)
        moves = stage.moves
        return [[moves[i] for i in path] for path in paths]
    stop = None
    if max_nodes is not None:
        def stop():
            return stats.nodes > max_nodes
    h = stage.heuristic
    try:
        return list(ida_star(start, stage.moves, stage.apply, h, lambda s: h(s) == 0,
                             max_cost=max_cost, max_solutions=max_solutions, stop=stop,
                             stats=stats, cheapest_only=cheapest_only, more_nodes=more_nodes,
                             min_cost=min_cost))
    except IndexError:
        raise TableError(_OUT_OF_RANGE)


def stage_descend(stage, start, max_solutions=1, length=None):
    """descend(start, stage.moves, stage.apply, stage.heuristic, ...) for a stage whose
    heuristic is exact and that can describe itself to the core (as for stage_ida): in
    the core when it is built, else in Python; the same solutions in the same order."""
    lib = core()
    spec = None if lib is None else stage.core_spec()
    if spec is not None:
        paths = timed(lib.mask_descend)(spec, stage.core_state(start), max_solutions,
                                        NO_LIMIT if length is None else length)
        moves = stage.moves
        return [[moves[i] for i in path] for path in paths]
    try:
        return descend(start, stage.moves, stage.apply, stage.heuristic, max_solutions, length)
    except IndexError:
        raise TableError(_OUT_OF_RANGE)


def coord_bfs(model, goals, max_depth=None, progress=None):
    """tables.bfs(goals, model.neighbours, n_states=model.n_states, ...) in the core when
    it is built: the distance of every state (ranked by CoordModel.rank) as a bytearray,
    the same bytes either way."""
    lib = core()
    if lib is not None:
        dist = timed(lib.bfs)(model.spec, list(goals), NO_LIMIT if max_depth is None else max_depth,
                              progress)
        return dist
    from cubebot.solver.tables import bfs
    _check_rows(model)
    try:
        return bfs(goals, model.neighbours, n_states=model.n_states, max_depth=max_depth,
                   progress=progress)
    except IndexError:
        raise TableError("a move table of the build gives a value out of range")


def rank_beam(start, row, units, turns, weight, width, limit, max_steps, recent, slack,
              table=None):
    """A beam over states that are tuples of ranks, every rank turned by the same steps:
    up to `limit` paths (lists of step indices) to a state whose units add up to 0,
    cheapest first, or None. In the core when it is built and `table` is given.

    row(r)[k]: rank r after step k (table: (buffer, byte offset) of the same rows as
    16-bit little-endian words, rank r's at r x len(turns)); units[r]: a rank's share
    of the score; turns[k]: the cost of step k. A state's key is its cost so far +
    weight x the sum of its ranks' units after the step; each state met keeps its
    smallest key (the first of equal ones), states met in the last `recent` steps are
    dropped, and the `width` smallest (key, state, cost, parent, step) go on. When
    some state is finished, those (sorted by cost, state, parent, step), up to `limit`
    and at most `slack` above the cheapest, are the answer."""
    from heapq import nsmallest
    lib = core()
    if lib is not None and table is not None:
        found = timed(lib.beam)(table[0], table[1], units, tuple(turns), tuple(start), float(weight),
                                width, limit, max_steps, recent, slack)
        return found
    rows_of = _RowCache(row, units)
    beam = [(0, start, [])]
    seen = [set([start])]
    for _ in range(max_steps):
        found = {}
        get = found.get
        for b, (spent, state, _) in enumerate(beam):
            rows, unit_rows = rows_of(state)
            lefts = list(map(sum, zip(*unit_rows)))
            costs = [spent + t for t in turns]
            for k, after in enumerate(zip(*rows)):
                key = costs[k] + weight * lefts[k]
                old = get(after)
                if old is None or key < old[0]:
                    found[after] = (key, costs[k], b, k, lefts[k])
        for r in seen:             # states of the last `recent` steps are not taken again
            for after in r.intersection(found):
                del found[after]
        if not found:
            return None
        done = sorted((spent, state, b, k) for state, (_, spent, b, k, left) in found.items()
                      if not left)
        if done:
            return [beam[b][2] + [k] for spent, _, b, k in done[:limit]
                    if spent <= done[0][0] + slack]
        ranked = nsmallest(width, ((key, state, cost, b, k)
                                   for state, (key, cost, b, k, _) in found.items()))
        seen = (seen + [set(found)])[-recent:]
        beam = [(cost, state, beam[b][2] + [k]) for _, state, cost, b, k in ranked]
    return None


class _RowCache(object):
    """For one beam: each rank's row and its units after every step, made once when
    the rank is first met (a beam's states share most of their ranks) and dropped
    with the beam."""

    def __init__(self, row, unit):
        self.row = row
        self.unit = unit
        self.made = {}

    def __call__(self, state):
        """(the rows, the unit rows) of a state's ranks."""
        made = self.made
        rows, units = [], []
        for r in state:
            got = made.get(r)
            if got is None:
                rw = self.row(r)
                got = made[r] = (rw, [self.unit[x] for x in rw])
            rows.append(got[0])
            units.append(got[1])
        return rows, units
