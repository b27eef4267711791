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

from cubebot.solver.moves import AXIS_OF
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
