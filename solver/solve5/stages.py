"""Phase 2 of the 5x5x5 reduction, stage by stage (middle.solve_middle calls it).

On a cube whose 4x4x4 part is reduced, relabelled so that each colour is
named by its target face (the face its X-centres are on). When every T-pair
shows one colour (tcentres: the only T-centre states outer turns and middle
slices can solve):
  1. axes     IDA* over tcentres.AxesStage (table 5x5-middle-axes, all 27
              moves, a slice costing 2, pairsearch.AxesWalk): every T-pair and
              fixed centre onto its axis; its solutions up to AXES_SLACK turns
              above the cheapest (CHOICES, within AXES_NODES nodes)
  2. pairs    tcentres.PairsStage (table 5x5-middle-pairs, outer turns and
              half slices): every T-centre and fixed centre home; its solutions
              up to PAIRS_SLACK turns above the cheapest (PAIRS_CHOICES, by a
              depth-first walk over its 864 ranks, RankWalk) are compared, after
              each axes solution, by turns + MIDGE_WEIGHT x midges out of place
              (midges.paths_checks: no cube turned; scored in C, PairWays), so
              that the pair of solutions that leaves the midge stage least wins
Otherwise (T-pairs split, as the 4x4x4 part's wide turns leave them):
  1. fixed    the fixed centres home by middle slices (fewest turns, BFS over
              the 24 rotations)
  2. tcentres every T-centre home by pure T-centre 3-cycles from the table
              5x5-centre-cycles (centrecycles.CentreCycles: pure, so the
              4x4x4 part, the fixed centres and the midges stay)
Then always:
  3. midges   every midge into its dedge by midges.MidgeStage (a beam search over
              the 3-cycles of 5x5-midge-cycles and the centre-keeping cores of
              5x5-midge-cores, midgecores.py); on the pair-stage path it runs after
              each of the MIDGE_TRIALS best centre solutions, the shortest kept
Each centre stage's search (pairsearch.py) has a node budget; past it, a
descent of its exact table (always finishes). Every stage's moves are applied to the cube; the result
is checked.
"""

from collections import OrderedDict
from heapq import heappush, heapreplace

from cubebot.solver.errors import InvalidCube, UnsolvableCube
from cubebot.solver.facelets import FACES
from cubebot.solver.moves import apply, simplify
from .pairsearch import AxesWalk, RankWalk, axes_spec, pair_ways, pairs_start_after, stage_start
from .slices import check_dedges, cost, fixed_targets, targets, written
from .model import N, T_CENTRES

CHOICES = 1500                 # solutions of the axes stage compared, cheapest first ...
AXES_SLACK = 1                 # ... up to this many written turns above its cheapest ...
AXES_NODES = 60000             # ... found within this many nodes (the others' MAX_NODES)
PAIRS_CHOICES = 400            # solutions of the pairs stage compared, cheapest first ...
PAIRS_SLACK = 2                # ... up to this many written turns above its cheapest
MIDGE_WEIGHT = 3.5             # turns a midge out of place is taken to cost later
MIDGE_TRIALS = 6               # best centre solutions the midge stage is run after
PAIR_WAYS_KEPT = 128           # pair_ways kept for reuse (the least recently used go first)
STAGE_NAMES = ("axes", "pairs", "fixed", "tcentres", "midges")


def _tables(directory=None):
    from cubebot.solver.store import open_dense, open_records
    return dict((name, opener(name, directory)) for name, opener in (
        ("5x5-middle-axes", open_dense), ("5x5-middle-pairs", open_dense),
        ("5x5-centre-cycles", open_records), ("5x5-midge-cycles", open_records),
        ("5x5-midge-cores", open_records)))


def pairs_one_colour(cube):
    """True if every T-pair of the (relabelled) cube shows one colour."""
    from .tcentres import PAIRS
    return all(cube[T_CENTRES[a]] == cube[T_CENTRES[b]] for a, b in PAIRS)


class KeptWays(OrderedDict):
    """A memo of pair_ways that holds at most `limit` entries: the least recently used
    goes when a new one comes (a miss is only searched again, the same answer)."""

    def __init__(self, limit):
        OrderedDict.__init__(self)
        self.limit = limit

    def get(self, key, default=None):
        if key not in self:
            return default
        self.move_to_end(key)
        return OrderedDict.__getitem__(self, key)

    def __setitem__(self, key, value):
        OrderedDict.__setitem__(self, key, value)
        while len(self) > self.limit:
            self.popitem(last=False)


class MiddleSolver(object):
    """Phase 2: solve(state, max_nodes) -> phase-2 moves; stages(...) gives them per stage."""

    def __init__(self, directory=None):
        self.directory = directory
        self._tables = None
        self._midges = None            # the midge stage, kept with its looked-up cycles
        self._centres = None           # centre_walks(...) of the axes and pairs stages, on first use
        self._pairs_found = KeptWays(PAIR_WAYS_KEPT)   # pair_ways by start state: many
                                       # plans meet the same one (up to N_PAIRS = 864 starts
                                       # a solve, about 12 KB each, so not all are kept)

    def forget(self):
        """Drop the pair_ways kept for reuse: a solve calls it once its plans are made,
        so that they do not stay in memory through the 3x3x3 finish."""
        self._pairs_found.clear()

    def relabel(self, state):
        """The state with each colour named by its target face letter."""
        if len(state) != 6 * N * N:
            raise InvalidCube("phase 2 takes a 5x5x5 state (150 facelets), not {}".format(len(state)))
        where = targets(state)
        check_dedges(state)
        return "".join(FACES[where[c]] for c in state)

    def solve(self, state, max_nodes=None):
        return joined(self.stages(state, max_nodes))

    def stages(self, state, max_nodes=None):
        """{stage name: phase-2 moves} (slices as Move(face, 3, 3, turns)): the midge
        stage after each of plans(...), the fewest turns in all kept (the first of equals)."""
        best = None
        for plan in self.plans(state, max_nodes):
            result = self.finish(plan)
            total = len(written([m for name in STAGE_NAMES for m in result[name]]))
            if best is None or total < best[0]:
                best = (total, result)
        return best[1]

    def plans(self, state, max_nodes=None, count=MIDGE_TRIALS):
        """The centre stages' best solutions, before the midge stage: up to `count`
        Plans, the smallest estimate (written turns + MIDGE_WEIGHT x midges out of
        place) first; one Plan (fixed, tcentres) when some T-pair is split."""
        from .centrecycles import CentreCycles
        from .midges import dest, wrong
        cube = self.relabel(state)
        tables = self.tables()
        if pairs_one_colour(cube):
            if self._centres is None:
                self._centres = centre_walks(tables)
            return [Plan(score, cube, {"axes": a, "pairs": p})
                    for score, a, p in centre_stages(self._centres, cube, max_nodes, count,
                                                     self._pairs_found)]
        done = {"fixed": fixed_stage(cube)}
        after = apply(cube, written(done["fixed"]), N)
        done["tcentres"] = CentreCycles(tables["5x5-centre-cycles"]).solve(after)
        after = apply(after, done["tcentres"], N)
        score = len(written(done["fixed"])) + len(done["tcentres"]) + MIDGE_WEIGHT * wrong(dest(after))
        return [Plan(score, cube, done)]

    def finish(self, plan):
        """{stage name: phase-2 moves} of a Plan: its centre stages and the midge stage
        after them; the result is checked (UnsolvableCube if a piece is left)."""
        from .midges import MidgeStage
        from .midgecores import core_index
        tables = self.tables()
        result = dict((name, []) for name in STAGE_NAMES)
        result.update(plan.centres)
        cube = plan.cube
        for name in ("axes", "pairs", "fixed"):
            cube = apply(cube, written(result[name]), N)
        cube = apply(cube, result["tcentres"], N)
        if self._midges is None:
            self._midges = MidgeStage(tables["5x5-midge-cycles"], core_index(tables["5x5-midge-cores"]))
        result["midges"] = self._midges.solve(cube)
        check_done(apply(cube, written(result["midges"]), N))
        return result

    def tables(self):
        """Phase 2's tables, opened on first use and kept by this solver."""
        if self._tables is None:
            self._tables = _tables(self.directory)
        return self._tables


def joined(stages):
    """The phase-2 moves of {stage name: moves}, in stage order, simplified."""
    return simplify([m for name in STAGE_NAMES for m in stages[name]])


class Plan(object):
    """Phase 2 up to the midge stage: estimate (written turns of the centre stages +
    MIDGE_WEIGHT x midges out of place), cube (the relabelled cube phase 2 started
    from), centres ({stage name: moves} of the centre stages done)."""

    def __init__(self, estimate, cube, centres):
        self.estimate = estimate
        self.cube = cube
        self.centres = centres


def centre_walks(tables):
    """(AxesWalk, RankWalk): the searches of the axes and pairs stages over their tables."""
    from .tcentres import AxesStage, PairsStage
    axes, pairs = AxesStage(), PairsStage()
    return AxesWalk(axes, tables[axes.table]), RankWalk(pairs, tables[pairs.table])


def centre_stages(walks, cube, max_nodes=None, count=MIDGE_TRIALS, pairs_found=None):
    """[(score, axes moves, pairs moves)]: of the cheapest solutions of the axes stage
    (up to CHOICES, at most AXES_SLACK turns above the cheapest, within AXES_NODES
    nodes) and the pairs stage's after each (pair_ways), the `count` pairs with the
    fewest written turns + MIDGE_WEIGHT x midges left out of place (the score), best
    first (of equal scores the first met); walks: centre_walks(tables); pairs_found: a dict
    keeping pair_ways by start state, or None. Only the `count` best so far are held
    (a max-heap on (score, order)). Scores are reckoned in half turns, one byte a pairs
    solution (2 x turns + 2 x MIDGE_WEIGHT x midges out), so that each axes solution's
    pairs solutions are scored by whole-string operations, and only those that beat
    the heap's worst are looked at one by one."""
    from .midges import dest, follow, lookup, native
    axes_walk, walk = walks
    axes, pairs = axes_walk.stage, walk.stage
    weight = int(2 * MIDGE_WEIGHT)
    if weight != 2 * MIDGE_WEIGHT:
        raise ValueError("MIDGE_WEIGHT must be a whole number of half turns")
    times = bytes(min(255, weight * i) for i in range(256))   # midges out -> half turns
    d = dest(cube)
    start = stage_start(pairs, cube)
    paths = axes_walk.paths(cube, AXES_NODES if max_nodes is None else max_nodes, CHOICES, AXES_SLACK)
    fast = native()
    if fast is not None:
        return _centre_stages_compiled(fast, walks, paths, start, d, times, max_nodes, count, pairs_found)
    heap = []                          # (-half turns, -order, axes moves, PairWays, solution)
    order = 0
    moves, costs = axes.moves, axes.costs
    for path in paths:
        a = [moves[i] for i in path]
        base = 2 * sum(costs[i] for i in path)
        ways = pair_ways(walk, pairs_start_after(axes, start, path), PAIRS_SLACK, PAIRS_CHOICES,
                         max_nodes, pairs_found)
        keys = _half_turns(ways, ways.out_of_place(lookup(follow(d, a))).translate(times))
        _keep_best(heap, count, keys, base, order, a, ways)
        order += len(keys)
    heap.sort(reverse=True)
    return [(-half / 2.0, list(a), ways.solution(k)) for half, _, a, ways, k in heap]


def _centre_stages_compiled(fast, walks, paths, start, d, times, max_nodes, count, pairs_found):
    """centre_stages' loop over the axes solutions in C (solver/_solve5.c): each one's
    pairs start, dests and turns in one call (axes_follow), then the scores of every
    (axes, pairs) pair and the `count` best by (score, order) in another (best_pairs)."""
    from .midges import half_tables
    axes_walk, walk = walks
    axes = axes_walk.stage
    spec = axes_spec(axes)
    maps, _, outer = half_tables(axes.moves)
    starts, dests, bases = fast.axes_follow(paths, spec[0], spec[5], spec[6], start, d, maps, outer)
    ways = [pair_ways(walk, s, PAIRS_SLACK, PAIRS_CHOICES, max_nodes, pairs_found) for s in starts]
    picks = fast.best_pairs([(w.srcs, w.wants, w.turns) for w in ways], dests, bases, times, count)
    moves = axes.moves
    return [(half / 2.0, [moves[i] for i in paths[p]], ways[p].solution(k)) for half, _, p, k in picks]


def _half_turns(ways, midge_halves):
    """Each pairs solution's 2 x turns + its midges' half turns (one byte each), by one
    integer addition: every sum stays below 256, so no byte carries."""
    n = len(ways.turns)
    doubled = int.from_bytes(ways.turns, "big") * 2
    return (doubled + int.from_bytes(midge_halves, "big")).to_bytes(n, "big")


def _keep_best(heap, count, keys, base, order, a, ways):
    """Push the pairs solutions k (score base + keys[k] half turns, order order + k + 1)
    that are among the `count` smallest (score, order) so far: key by key from the
    least, each key's solutions in order, until one does not beat the heap's worst."""
    least = min(keys)
    if len(heap) >= count and -(base + least) <= heap[0][0]:
        return                         # its least key does not beat the worst: none does
    for key in range(least, max(keys) + 1):
        mark = bytes([key])
        k = keys.find(mark)
        while k >= 0:
            item = (-(base + key), -(order + k + 1), a, ways, k)
            if len(heap) < count:
                heappush(heap, item)
            elif item[:2] > heap[0][:2]:
                heapreplace(heap, item)
            else:
                return
            k = keys.find(mark, k + 1)


def fixed_stage(cube):
    """The middle slices that put every fixed centre home, fewest turns first."""
    from .tcentres import Rotations
    from .slices import SLICES
    moves = list(SLICES)
    rot = Rotations(moves)
    where = dict((f, i) for i, f in enumerate(FACES))
    start = rot.index[fixed_targets(cube, where)]
    best = {start: (0, [])}
    frontier = [start]
    while frontier:                      # 24 states: a plain relaxation is enough
        nxt = []
        for r in frontier:
            c, path = best[r]
            for i, m in enumerate(moves):
                t = rot.move[r][i]
                if t not in best or best[t][0] > c + cost(m):
                    best[t] = (c + cost(m), path + [m])
                    nxt.append(t)
        frontier = nxt
    if 0 not in best:
        raise UnsolvableCube("the fixed centres cannot be turned home")
    return best[0][1]


def check_done(cube):
    """Raise UnsolvableCube unless every centre is home and every midge in its dedge."""
    from .midges import dest
    for f in range(len(FACES)):
        face = cube[f * N * N:(f + 1) * N * N]
        if face.count(FACES[f]) < 9 or any(face[r * N + c] != FACES[f]
                                           for r in (1, 2, 3) for c in (1, 2, 3)):
            raise UnsolvableCube("phase 2 left the centres of face {} unsolved".format(FACES[f]))
    d = dest(cube)
    if any(d[h] != h for h in range(len(d))):
        raise UnsolvableCube("phase 2 left a midge out of its dedge")
