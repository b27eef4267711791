"""The pair stages of phase 2 searched (tcentres.AxesStage, tcentres.PairsStage).

Both tables hold exact costs in written turns (a slice 2, an outer turn 1).
  ida_solutions  IDA* over the stage's states, the cheapest solutions (or those
                 up to a slack above), within a node budget; past it a descent
                 of the exact table, which always finishes (descend)
  RankWalk       the same solutions, in the same order, for a small stage (the
                 pairs stage: N_PAIRS = 864 ranks) walked over its ranks: each
                 rank's row of next ranks made when first met, no state tuples
  PairWays       such solutions packed (about 40 bytes each), with each one's
                 midges.home_checks, so that the midges it leaves out of place
                 are counted for any dest by one bytes.translate and a compare
stages.py (MiddleSolver) chooses among them.
"""

from operator import eq

from cubebot.solver.errors import UnsolvableCube
from cubebot.solver.facelets import FACES
from cubebot.solver.search import Stats, ida_star, successors
from .slices import cost, fixed_targets, t_targets

MAX_NODES = 20000              # nodes per stage search before its descent fallback
MAX_COST = 40                  # above any stage's cost (table depths 16 and 16 turns)
OFF_GROUP = 99                 # bound for a state off a stage's group (pruned at once)


def stage_start(stage, cube):
    """The start state of a pair stage (tcentres) for the relabelled cube."""
    from .tcentres import pair_targets
    where = dict((f, i) for i, f in enumerate(FACES))
    return stage.start(pair_targets(t_targets(cube, where)), fixed_targets(cube, where))


def ida_solutions(stage, table, cube, max_nodes=None, count=1, slack=0):
    """Up to `count` moves of a pair stage by IDA* within max_nodes, cheapest first:
    those of the least cost (in search order), and with `slack` also those up to that
    many written turns dearer; else the table's descent."""
    start = stage_start(stage, cube)

    def h(s):
        # the tables reach every state of their stage (tests): the top value means
        # "that many turns or more" (the 4-bit cap), never "unreached"
        r = stage.rank(s)
        return OFF_GROUP if r is None else table[r]

    if h(start) == OFF_GROUP:
        raise UnsolvableCube("the T-centres and fixed centres are not a state phase 2 can solve")
    stats = Stats()
    limit = MAX_NODES if max_nodes is None else max_nodes
    found = list(ida_star(start, stage.moves, stage.apply, h, lambda s: h(s) == 0,
                          max_cost=h(start) + slack if slack else MAX_COST, costs=stage.costs,
                          stats=stats, cheapest_only=not slack, max_solutions=count,
                          stop=lambda: stats.nodes > limit))
    return found or [descend(stage, h, start, table.unreached)]


def pair_ways(walk, cube, slack, count, max_nodes=None, memo=None):
    """PairWays of up to `count` solutions of a small pair stage (walk: a RankWalk of
    it), at most `slack` turns above the cheapest. With `memo` (a dict) they are kept
    there by start state and handed out again when that start comes back."""
    key = (stage_start(walk.stage, cube), slack, count, max_nodes)
    found = memo.get(key) if memo is not None else None
    if found is None:
        found = PairWays(walk.stage.moves, walk.solutions(cube, slack, count, max_nodes))
        if memo is not None:
            memo[key] = found
    return found


class RankWalk(object):
    """A small pair stage (the pairs stage: N_PAIRS = 864 ranks) searched over ranks:
    each rank's row (the rank after each move) made from stage.neighbours when first
    met, the exact costs unpacked from its table (one byte a rank)."""

    def __init__(self, stage, table):
        self.stage = stage
        self.table = table
        self.cost = table.unpacked()
        self.rows = {}

    def solutions(self, cube, slack, count, max_nodes=None):
        """Up to `count` solutions costing at most `slack` written turns above the
        cheapest, cheapest first and of equal cost in search order: what ida_star
        finds (one depth-first pass a cost, bounded by the exact costs, a goal ending a
        path), over ranks; past max_nodes nodes those found so far, or if none the
        table's descent (ida_solutions with no nodes)."""
        stage, cost, rows = self.stage, self.cost, self.rows
        start = stage.rank(stage_start(stage, cube))
        if start is None:
            raise UnsolvableCube("the T-centres and fixed centres are not a state phase 2 can solve")
        if cost[start] == 0:
            return [[]]
        allowed, costs = successors(stage.moves), stage.costs
        limit = MAX_NODES if max_nodes is None else max_nodes
        found, path, nodes = [], [], [0]

        def walk(r, g, last, top):
            row = rows.get(r)
            if row is None:
                row = rows[r] = stage.neighbours(r)
            for k in allowed[last]:
                nxt = row[k]
                spent = g + costs[k]
                if spent + cost[nxt] > top:
                    continue
                nodes[0] += 1
                if nodes[0] > limit or len(found) >= count:
                    raise _Enough()
                path.append(k)
                if cost[nxt] == 0:
                    if spent == top:
                        found.append([stage.moves[i] for i in path])
                else:
                    walk(nxt, spent, k, top)
                path.pop()

        try:
            for top in range(cost[start], cost[start] + slack + 1):
                walk(start, 0, -1, top)
        except _Enough:
            pass
        return found[:count] or ida_solutions(stage, self.table, cube, 0)


class _Enough(Exception):
    """RankWalk.solutions has found `count` solutions, or spent its node budget."""


class PairWays(object):
    """Solutions of the pairs stage from one start, packed (a 5x5x5 solve keeps ~100
    starts' worth, up to stages.PAIRS_CHOICES each): turns[k], the written turns of solution k;
    srcs and wants, its midges.home_checks (N_MIDGES bytes each, solution k at
    k x N_MIDGES); codes, its moves as indices + 1 into `moves` (the stage's), `width`
    bytes each, 0 after the last. About 40 bytes a solution; as lists of moves and
    checks it was 10 times that (peak RSS 71 MB at 800 a start)."""

    __slots__ = ("moves", "turns", "srcs", "wants", "codes", "width")

    def __init__(self, moves, solutions):
        from .midges import home_checks
        index = dict((m, i + 1) for i, m in enumerate(moves))
        self.moves = moves
        self.width = max(len(s) for s in solutions)
        checks = [home_checks(s) for s in solutions]
        self.turns = bytes(sum(cost(m) for m in s) for s in solutions)
        self.srcs = b"".join(src for src, _ in checks)
        self.wants = b"".join(want for _, want in checks)
        self.codes = b"".join(bytes([index[m] for m in s] + [0] * (self.width - len(s)))
                              for s in solutions)

    def homes(self, at):
        """0/1 bytes, N_MIDGES a solution: 1 where its slot's midge is home after it,
        for at = midges.lookup(d) of the dest d before it."""
        return bytes(map(eq, self.srcs.translate(at), self.wants))

    def solution(self, k):
        """The moves of solution k (a new list)."""
        code = self.codes[k * self.width:(k + 1) * self.width]
        return [self.moves[c - 1] for c in code if c]


def descend(stage, h, state, top):
    """Moves down an exact cost table to its goal: each step a move of cost c to a
    state c cheaper. At `top` (the table's cap: that cost or more) one or two moves
    to a state below it."""
    moves = []
    d = h(state)
    n = len(stage.moves)
    while d:
        step = None
        for i in range(n):
            if h(stage.apply(state, i)) + stage.costs[i] == d and d < top:
                step = [i]
                break
        if step is None and d >= top:
            pairs = [[i] for i in range(n)] + [[i, j] for i in range(n) for j in range(n)]
            for path in pairs:
                s = state
                for i in path:
                    s = stage.apply(s, i)
                if h(s) < top:
                    step = path
                    break
        if step is None:
            raise UnsolvableCube("table {} has no way down from cost {}".format(stage.table, d))
        for i in step:
            state = stage.apply(state, i)
            moves.append(stage.moves[i])
        d = h(state)
    return moves
