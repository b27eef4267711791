"""The pair stages of phase 2 searched (tcentres.AxesStage, tcentres.PairsStage).

Both tables hold exact costs in written turns (a slice 2, an outer turn 1).
  ida_solutions  IDA* over the stage's states, the cheapest solutions (or those
                 up to a slack above), within a node budget; past it a descent
                 of the exact table, which always finishes (descend)
  AxesWalk       the same solutions, in the same order, for the axes stage
                 (N_AXES = 831,600 states), its moves, ranks and table read
                 inline
  RankWalk       the same for a small stage (the pairs stage: N_PAIRS = 864
                 ranks) walked over its ranks: each rank's row of next ranks
                 made when first met, no state tuples
  pairs_start_after  the pairs stage's start after axes moves, no cube turned
  PairWays       such solutions packed (about 40 bytes each), with each one's
                 midges.paths_checks, so that the midges each leaves out of place
                 are counted for any dest by a few whole-string operations in C
stages.py (MiddleSolver) chooses among them.
"""

from cubebot.solver.errors import UnsolvableCube
from cubebot.solver.facelets import FACES
from cubebot.solver.search import Stats, ida_star, successors
from array import array

from cubebot.solver.solve4.masks import BYTE_VALUES
from .midges import N_MIDGES, half_tables, native, paths_checks
from .slices import cost, fixed_targets, t_targets
from .tcentres import HALF_BITS, N_P_RL, N_PAIRS_ALL, N_ROTATIONS

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
    start, h = _start_and_bound(stage, table, cube)
    stats = Stats()
    limit = MAX_NODES if max_nodes is None else max_nodes
    found = list(ida_star(start, stage.moves, stage.apply, h, lambda s: h(s) == 0,
                          max_cost=h(start) + slack if slack else MAX_COST, costs=stage.costs,
                          stats=stats, cheapest_only=not slack, max_solutions=count,
                          stop=lambda: stats.nodes > limit))
    return found or [descend(stage, h, start, table.unreached)]


def _start_and_bound(stage, table, cube):
    """(the stage's start state for the cube, its bound h); UnsolvableCube off its group."""
    start, h = stage_start(stage, cube), _bound(stage, table)
    if h(start) == OFF_GROUP:
        raise UnsolvableCube("the T-centres and fixed centres are not a state phase 2 can solve")
    return start, h


def _bound(stage, table):
    """h(state): the exact cost a pair stage's table gives, OFF_GROUP off its group."""
    def h(s):
        # the tables reach every state of their stage (tests): the top value means
        # "that many turns or more" (the 4-bit cap), never "unreached"
        r = stage.rank(s)
        return OFF_GROUP if r is None else table[r]
    return h


def pairs_start_after(axes, start, path):
    """The pairs stage's state (tcentres.PairsStage: the masks of the pairs that hold U,
    R and F, the rotation) after a path of the axes stage (indices into its moves), from
    its state `start` before it, with no cube turned: the masks moved by the axes stage's
    mask mover, the rotation by its rotation table (both stages number the 24 rotations
    alike)."""
    mover, turn = axes.mover.apply3, axes.rot.move
    masks, rotation = start[:3], start[3]
    for i in path:
        masks = mover(masks, i)
        rotation = turn[rotation][i]
    return masks + (rotation,)


def pair_ways(walk, start, slack, count, max_nodes=None, memo=None):
    """PairWays of up to `count` solutions of a small pair stage (walk: a RankWalk of
    it) from its state `start`, at most `slack` turns above the cheapest. With `memo` (a
    dict) they are kept there by start state and handed out again when it comes back."""
    key = (start, slack, count, max_nodes)
    found = memo.get(key) if memo is not None else None
    if found is None:
        found = PairWays(walk.stage.moves, walk.paths(start, slack, count, max_nodes))
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

    def solutions(self, state, slack, count, max_nodes=None):
        """Up to `count` solutions from the stage's `state` (stage_start) costing at most
        `slack` written turns above the cheapest, cheapest first and of equal cost in
        search order: what ida_star finds (one depth-first pass a cost, bounded by the
        exact costs, a goal ending a path), over ranks; past max_nodes nodes those found
        so far, or if none the table's descent."""
        moves = self.stage.moves
        return [[moves[i] for i in path] for path in self.paths(state, slack, count, max_nodes)]

    def paths(self, state, slack, count, max_nodes=None):
        """solutions(...) as lists of indices into the stage's moves."""
        stage, cost, rows = self.stage, self.cost, self.rows
        start = stage.rank(state)
        if start is None:
            raise UnsolvableCube("the T-centres and fixed centres are not a state phase 2 can solve")
        if cost[start] == 0:
            return [[]]
        allowed, costs = successors(stage.moves), stage.costs
        limit = MAX_NODES if max_nodes is None else max_nodes
        fast = native()
        if fast is not None:
            found = fast.rank_walk(all_rows(stage), len(stage.moves), cost, bytes(costs), allowed,
                                   start, slack, count, limit)
            return found or self._descent(state)
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
                        found.append(list(path))
                else:
                    walk(nxt, spent, k, top)
                path.pop()

        try:
            for top in range(cost[start], cost[start] + slack + 1):
                walk(start, 0, -1, top)
        except _Enough:
            pass
        if found:
            return found[:count]
        return self._descent(state)

    def _descent(self, state):
        stage = self.stage
        return [[stage.index[m] for m in descend(stage, _bound(stage, self.table), state,
                                                 self.table.unreached)]]


_ROWS = {}                     # stage class -> all_rows(stage)


def all_rows(stage):
    """Every rank's row of a small pair stage (the rank after each move), as one
    array of 16-bit words (rank r's at r x moves), for the compiled walk; made once
    per process."""
    key = type(stage)
    rows = _ROWS.get(key)
    if rows is None:
        rows = array("H")
        for r in range(stage.size):
            rows.extend(stage.neighbours(r))
        rows = _ROWS[key] = rows
    return rows


class AxesWalk(object):
    """ida_solutions for the axes stage (tcentres.AxesStage: 831,600 states, too many
    to keep rows for), with its moves, ranks and table read inline: the same search,
    node count and order of solutions as ida_star over AxesStage, at a third of its
    CPU (ida_star calls the stage's apply, rank and the table per node)."""

    def __init__(self, stage, table):
        self.stage = stage
        self.table = table
        self.buffer, self.offset = table.nibbles()

    def solutions(self, cube, max_nodes=None, count=1, slack=0):
        """What ida_solutions(stage, table, cube, max_nodes, count, slack) returns."""
        moves = self.stage.moves
        return [[moves[i] for i in path] for path in self.paths(cube, max_nodes, count, slack)]

    def paths(self, cube, max_nodes=None, count=1, slack=0):
        """solutions(...) as lists of indices into the stage's moves."""
        stage = self.stage
        start, h = _start_and_bound(stage, self.table, cube)
        found = self._search(start, h(start), MAX_NODES if max_nodes is None else max_nodes,
                             count, h(start) + slack if slack else MAX_COST, not slack)
        return found or [[stage.index[m] for m in descend(stage, h, start, self.table.unreached)]]

    def _search(self, start, bound, limit, count, max_cost, cheapest_only):
        fast = native()
        if fast is not None:
            return fast.axes_search(axes_spec(self.stage) + (self.buffer, self.offset,
                                                             successors(self.stage.moves)),
                                    tuple(start), bound, limit, count, max_cost, int(cheapest_only))
        stage = self.stage
        buffer, offset = self.buffer, self.offset
        pack, width, ud_rank, rl_rank = stage.pack, stage.count, stage.ud_rank, stage.rl_rank
        movers, turn, costs = stage.mover.tables, stage.rot.move, stage.costs
        allowed = successors(stage.moves)
        low, n_rl, n_rot = (1 << HALF_BITS) - 1, N_P_RL, N_ROTATIONS
        done, found, path, nodes = [], [], [], [0]
        unbounded = float("inf")

        def dfs(ud, rl, rot, g, bound, last):
            packed = pack[(ud & low) << HALF_BITS | (rl & low)] | \
                pack[(ud >> HALF_BITS) << HALF_BITS | (rl >> HALF_BITS)] << width[ud & low]
            r = (ud_rank[ud] * n_rl + rl_rank[packed]) * n_rot + rot
            h = (buffer[offset + (r >> 1)] >> ((r & 1) << 2)) & 15
            if g + h > bound:
                return g + h
            if h == 0:
                if g == bound:
                    found.append(list(path))
                return unbounded
            smallest = unbounded
            for i in allowed[last]:
                if nodes[0] > limit:
                    raise _Enough()
                nodes[0] += 1
                path.append(i)
                t = movers[i]               # pair masks are 12 bits: two of the mover's bytes
                f = dfs(t[ud & 0xFF] | t[BYTE_VALUES + (ud >> 8)],
                        t[rl & 0xFF] | t[BYTE_VALUES + (rl >> 8)],
                        turn[rot][i], g + costs[i], bound, i)
                path.pop()
                if found and len(done) + len(found) >= count:
                    return f
                if f < smallest:
                    smallest = f
            return smallest

        while bound <= max_cost:
            try:
                nxt = dfs(start[0], start[1], start[2], 0, bound, -1)
            except _Enough:
                nxt = None
            done += found[:count - len(done)]
            if len(done) >= count or (cheapest_only and found):
                break
            del found[:]
            if nxt is None or nxt == unbounded:
                break
            bound = nxt
        return done


_AXES_SPECS = {}               # stage class -> axes_spec(stage)


def axes_spec(stage):
    """The axes stage's tables for the compiled search, made once per process: (mover:
    the 12-bit pair mask after each move, 2 bytes each, move i's 4,096 at i x 4,096;
    pack; its widths; the U/D and R/L mask ranks, 4-byte ints; the rotation after each
    move, 24 x moves bytes; the move costs)."""
    key = type(stage)
    spec = _AXES_SPECS.get(key)
    if spec is None:
        mover = array("H")
        for t in stage.mover.tables:
            low, high = t[:BYTE_VALUES], t[BYTE_VALUES:2 * BYTE_VALUES]
            mover.extend(low[m & 0xFF] | high[m >> 8] for m in range(1 << N_PAIRS_ALL))
        n = len(stage.moves)
        turn = bytes(stage.rot.move[r][i] for r in range(N_ROTATIONS) for i in range(n))
        spec = _AXES_SPECS[key] = (mover, bytes(stage.pack), bytes(stage.count),
                                   _ints(stage.ud_rank), _ints(stage.rl_rank), turn,
                                   bytes(stage.costs))
    return spec


def _ints(values):
    """values as an array of 4-byte ints (the compiled search's int32_t)."""
    for code in ("i", "l"):
        if array(code).itemsize == 4:
            return array(code, values)
    raise ValueError("no 4-byte array type here")


class _Enough(Exception):
    """A walk has found `count` solutions (RankWalk), or spent its node budget."""


class PairWays(object):
    """Solutions of the pairs stage from one start, packed (a 5x5x5 solve keeps a few
    hundred starts' worth, up to stages.PAIRS_CHOICES each): turns[k], the written turns
    of solution k; srcs, the src of its midges.paths_checks (N_MIDGES bytes each,
    solution k at k x N_MIDGES), and wants, its wants in the same order; codes, its
    moves as indices + 1 into `moves` (the stage's), `width` bytes each, 0 after the
    last. About 40 bytes a solution, a tenth of what lists of moves and checks take."""

    __slots__ = ("moves", "turns", "srcs", "wants", "codes", "width")

    def __init__(self, moves, paths):
        """paths: the solutions as lists of indices into `moves`."""
        costs = [cost(m) for m in moves]
        self.moves = moves
        fast = native()
        if fast is not None:
            _, inverses, outer = half_tables(moves)
            self.srcs, self.wants, self.turns, self.codes, self.width = fast.pack_ways(
                paths, inverses, outer, bytes(costs))
            return
        self.width = max(len(p) for p in paths)
        self.turns = bytes(sum(costs[i] for i in p) for p in paths)
        checks = paths_checks(paths, moves)
        self.srcs = b"".join(src for src, _ in checks)
        self.wants = b"".join(want for _, want in checks)
        self.codes = b"".join(bytes([i + 1 for i in p] + [0] * (self.width - len(p)))
                              for p in paths)

    def out_of_place(self, at):
        """One byte a solution: how many midges are out of place after it, for
        at = midges.lookup(d) of the dest d before it. All in C: a midge is home iff
        d[src[s]] == want[s], so the xor of the two strings is 0 at home and every
        other byte is made 1; then one multiplication by the integer of N_MIDGES one
        bytes sums each solution's N_MIDGES bytes into its last byte (a sum is at most
        N_MIDGES, so no byte carries into the next)."""
        n = len(self.srcs)
        seen = int.from_bytes(self.srcs.translate(at), "big") ^ int.from_bytes(self.wants, "big")
        out = int.from_bytes(seen.to_bytes(n, "big").translate(_NONZERO), "big")
        sums = (out * _ONES).to_bytes(n + N_MIDGES - 1, "big")
        return sums[N_MIDGES - 1:n:N_MIDGES]

    def solution(self, k):
        """The moves of solution k (a new list)."""
        code = self.codes[k * self.width:(k + 1) * self.width]
        return [self.moves[c - 1] for c in code if c]


_NONZERO = bytes([0] + [1] * 255)                     # translate: 0 stays, any other byte 1
_ONES = int.from_bytes(bytes([1] * N_MIDGES), "big")  # 1 + 256 + ... + 256 ** 11


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
