"""The reduction pipeline: check and label, centres, wings, slice, pairs, 3x3x3.

Reducer(directory).solve(state, budget) -> Result (candidates, moves per stage, nodes). Tables are opened
(mmap) when a Reducer is made and read one entry at a time.
"""

import time
from collections import namedtuple

from cubebot.solver import solve3, store
from cubebot.solver.cubies import corner_facelets, from_facelets, parity
from cubebot.solver.errors import TableError
from cubebot.solver.facelets import is_solved, solved
from cubebot.solver.moves import apply, permutation, simplify
from cubebot.solver.search import Stats, coord_ida, first_solution, ida_star, stage_ida
from cubebot.solver.solve4.centres import UD_MOVE_TABLE, CentreStage, LRSearch, LRStage, RankedStage, UDStage
from cubebot.solver.solve4.centrewings import CentresAndWings
from cubebot.solver.solve4.finish import FINISH_DEPTH, REDUCED_VIEWS, to_3x3
from cubebot.solver.solve4.model import CORNERS, N, Turned, centre_colours, to_physical
from cubebot.solver.solve4.orbits import PHASE3_MOVES, OrbitMover
from cubebot.solver.solve4.pairs import PAIR_MOVE_TABLE, PairsCentresTable, PairsSearch, PairsTable, PairsUDTable
from cubebot.solver.solve4.wings import CentreOrbitStage, EOStage, WingStage
from cubebot.solver.solve4.pieces import label, wing_positions
from cubebot.solver.solve4.slice import CentresForPairs, SliceSearch, SliceTable

STAGES = ("centres-lr", "centres-ud", "wings", "slice", "pairs", "3x3x3")

# seconds: stage group -> wall seconds (SECTIONS); stage_nodes: search nodes of the slice and
# pairs stages. Both default to None, so Result(candidates, stages, nodes) still works.
Result = namedtuple("Result", ["candidates", "stages", "nodes", "seconds", "stage_nodes"])
Result.__new__.__defaults__ = (None, None)
SECTIONS = ("centres-wings", "slice", "pairs", "3x3x3")     # what Result.seconds times

DIRECT_DEPTH = 3               # cubes this close to solved are solved directly, optimally
MAX_SLICE_CHOICES = 60         # shortest slice solutions, each followed by a pairs search
MAX_PAIRS_TRIED = 60           # of those, the ones after which the pairs stage is searched (all)
PAIRS_TRY_NODES = 200000       # nodes (about 1 s here) for each pairs try in all (_pairs_deepening)
MORE_SOLUTION_NODES = 200000   # nodes spent looking for more solutions after the first
SLICE_NODES = 500000           # nodes (a few s here) for each frame's slice search at first
SLICE_SLACK = 1                # moves past the shortest total through the slice stage searched
SLACK_NODES = 20000            # nodes (about 0.1 s here) for each start's search past that total
FRAME_SLACK = 2                # centre frames this many moves longer than the shortest (stages 1-3)
                               # also go on to the slice and pairs stages
MAX_STAGE_COST = 20            # above any slice or pairs stage solution (tables: at most 11)
CORNER_SIZE = 2
MAX_REDUCED = 3                # reduced cubes (pairs solutions of the shortest total) finished,
GOOD_FINISH = 19               # in order, until one has a 3x3x3 finish this short (moves, unmerged)
GATHERED = 3                   # pairs solutions looked for per reduced cube wanted after the first
                               # (some lead to the same cube: moves of one axis in another order)
GATHER_NODES = 50000           # nodes (about 0.2 s here) spent looking for them
SLICE_ROTATION = "x"           # the other frame the slice and pairs stages are tried in
# Whole-cube turns the centres and wings are tried in (the cube seen turned): which axis's
# centres the centres-lr stage puts first (L/R, F/B, U/D). The frame with the shortest
# centres-lr + centres-ud + wings goes on to the slice and pairs stages.
CENTRE_ROTATIONS = (None, "y", "z", "x", "y x", "z x")


def corner_parity(lettered):
    """Parity of the corner permutation of a URFDLB-lettered 4x4x4 state."""
    small = list(solved(CORNER_SIZE))
    for big, little in zip(CORNERS, corner_facelets(CORNER_SIZE)):
        for i, j in zip(big, little):
            small[j] = lettered[i]
    return parity(from_facelets("".join(small), CORNER_SIZE).cp)


class Reducer(CentresAndWings):
    """The 4x4x4 solver with its tables open (stages 1-3: centrewings.CentresAndWings)."""

    def __init__(self, directory=None):
        self.directory = directory
        self.lr, self.ud = LRStage(), UDStage()
        self.orbit = OrbitMover(PHASE3_MOVES)
        # as is, and turned by x: the orbit moves are the same set there (the orbits swap)
        self.frames = (None, Turned(SLICE_ROTATION))
        self.centre_frames = tuple(None if r is None else Turned(r) for r in CENTRE_ROTATIONS)
        self.centre_stage = CentreStage()
        self.stats = Stats()
        self._groups = {}            # table group -> (objects, open tables)
        self.clock = []              # perf_counter at each SECTIONS boundary of the current solve
        self.slice_nodes = 0         # self.stats.nodes when the slice searches were done

    # Tables are mapped per group, on first use, and unmapped by release(): the
    # pages of a table read at random end up resident, so a stage's tables are
    # let go when the solve moves on (the slice table alone is 5 MB).
    def _group(self, name):
        group = self._groups.get(name)
        if group is None:
            group = self._groups[name] = getattr(self, "_open_" + name)()
        return group[0]

    def _open_centres(self):
        lr = store.open_dense(self.lr.table, self.directory)
        ud = store.open_dense(self.ud.table, self.directory)
        ud_moves = store.open_words(UD_MOVE_TABLE, self.directory)
        ranked = RankedStage(self.ud, ud_moves.words(), ud.unpacked(), ud_moves)
        ud.close()                   # read whole into `ranked` (25,740 bytes)
        return (lr, ranked, LRSearch(self.lr, lr)), (lr, ud_moves)

    def _open_wings(self):
        eo = store.open_dense(EOStage.table, self.directory)
        co = store.open_dense(CentreOrbitStage.table, self.directory)
        return WingStage(eo, co), (eo, co)

    def _open_slice(self):
        st = store.open_dense(SliceTable.table, self.directory)
        ct = store.open_dense(CentresForPairs.table, self.directory)
        return SliceSearch(st, ct, self.centre_stage, self.orbit), (st, ct)

    def _open_pairs(self):
        tables = (store.open_words(PAIR_MOVE_TABLE, self.directory),
                  store.open_dense(PairsTable.table, self.directory),
                  store.open_dense(PairsCentresTable.table, self.directory),
                  store.open_dense(PairsUDTable.table, self.directory))
        return PairsSearch(*(tables + (self.centre_stage,))), tables

    lr_table = property(lambda self: self._group("centres")[0], doc="4x4-centres-lr (mapped)")
    lr_search = property(lambda self: self._group("centres")[2],
                         doc="stage 1's searches over 4x4-centres-lr (centres.LRSearch)")
    ud_ranked = property(lambda self: self._group("centres")[1],
                         doc="stage 2 on its ranks, through 4x4-centres-ud-moves (centres.RankedStage)")
    wings = property(lambda self: self._group("wings"), doc="the wing stage (wings.WingStage)")
    slice = property(lambda self: self._group("slice"), doc="the slice search (slice.SliceSearch)")
    pairs = property(lambda self: self._group("pairs"), doc="the pairs search (pairs.PairsSearch)")

    def release(self, *names):
        """Unmap the tables of the named groups (default: all); they reopen on use."""
        for name in names or sorted(self._groups):
            group = self._groups.pop(name, None)
            if group is not None:
                for table in group[1]:
                    table.close()

    def _direct(self, lettered):
        """An optimal solution of at most DIRECT_DEPTH moves, or None."""
        lr, table = self.lr, self.lr_table
        perms = [permutation(m, N) for m in lr.moves]

        def apply_perm(cube, i):
            return "".join([cube[p] for p in perms[i]])

        def heuristic(cube):
            return table[lr.rank(lr.start(centre_colours(cube)))]

        return first_solution(lettered, lr.moves, apply_perm, heuristic,
                              lambda cube: is_solved(cube, N), max_cost=DIRECT_DEPTH)

    def _search(self, stage, start, max_solutions=1, max_cost=MAX_STAGE_COST, max_nodes=None,
                min_cost=0):
        """Up to max_solutions shortest solutions of a slice or pairs search.

        More solutions than the first are looked for during at most
        MORE_SOLUTION_NODES nodes. [] if there is none within a max_cost below
        MAX_STAGE_COST or within max_nodes nodes."""
        stop = None
        if max_nodes is not None:
            stats, cap = self.stats, self.stats.nodes + max_nodes

            def stop():
                return stats.nodes > cap
        model = getattr(stage, "model", None)
        if hasattr(stage, "core_spec"):
            found = stage_ida(stage, start, max_cost=max_cost, max_solutions=max_solutions,
                              stats=self.stats, max_nodes=None if max_nodes is None else cap,
                              cheapest_only=True, more_nodes=MORE_SOLUTION_NODES,
                              min_cost=min_cost)
        elif model is not None:
            found = coord_ida(model, stage.coords(start), max_cost=max_cost,
                              max_solutions=max_solutions, stats=self.stats,
                              max_nodes=None if max_nodes is None else cap, cheapest_only=True,
                              more_nodes=MORE_SOLUTION_NODES, min_cost=min_cost)
        else:
            found = list(ida_star(start, stage.moves, stage.apply, stage.heuristic,
                                  lambda s: stage.heuristic(s) == 0, max_cost=max_cost,
                                  max_solutions=max_solutions, stats=self.stats, stop=stop,
                                  cheapest_only=True, more_nodes=MORE_SOLUTION_NODES,
                                  min_cost=min_cost))
        if not found and max_cost >= MAX_STAGE_COST and max_nodes is None:
            raise TableError("the {} stage found no solution within {} moves: run `cubebot "
                             "tables build`".format(type(stage).__name__, MAX_STAGE_COST))
        return found

    def _slices(self, state, max_nodes=None):
        """The shortest slice solutions (up to MAX_SLICE_CHOICES), each with the
        orbit state after it; [] if none is found within max_nodes nodes."""
        sl = self.slice
        return [(m, self.orbit.follow(state, m))
                for m in self._search(sl, sl.start(state), MAX_SLICE_CHOICES, max_nodes=max_nodes)]

    def _pair_tries(self, slices):
        """[(pairs-stage lower bound, k, m_slice, pairs start)] of the slice solutions,
        lowest bound first."""
        pairs = self.pairs
        tries = []
        for m, after in slices:
            start = pairs.start(after)
            tries.append((pairs.heuristic(start), len(tries), m, start))
        tries.sort(key=lambda t: t[:2])
        return tries

    def _slices_deepening(self, starts):
        """The slice solutions of every start, found by deepening all of them together.

        starts: (lower bound of the moves so far plus the slice stage, index, moves
        so far, orbit state), index = position in starts. Every start not yet solved
        is searched one cost bound at a time, in the order of the totals (moves so far
        plus the slice bound), each for at most SLICE_NODES nodes in all, until
        SLICE_SLACK moves past the first total that has solutions somewhere; past
        that first total each search gets at most SLACK_NODES nodes (a start whose
        slice stage is a move longer may still have the shorter pairs stage, and
        most such searches are quick; the slow ones are cut).
        Returns the slice solutions of each start (None where none was found).

        A start whose slice stage is longer than another's is thus never searched to
        its end: that deep search (hundreds of thousands of nodes when its bound is
        loose) is what made the slowest solves."""
        sl = self.slice
        spent = [0] * len(starts)
        slices = [None] * len(starts)
        total = min(start[0] for start in starts)
        first = None                 # the first total with slice solutions somewhere
        while first is None or total <= first + SLICE_SLACK:
            if all(spent[s[1]] > SLICE_NODES or slices[s[1]] is not None or
                   total - s[2] > MAX_STAGE_COST - 1 for s in starts):
                break
            for low, index, before_moves, state in starts:
                depth = total - before_moves
                if slices[index] is not None or low > total or spent[index] > SLICE_NODES or \
                        depth > MAX_STAGE_COST - 1:
                    continue
                before = self.stats.nodes
                cap = SLICE_NODES - spent[index]
                if first is not None and total > first:
                    cap = min(cap, SLACK_NODES)      # past the shortest total: a cheap look only
                found = self._search(sl, sl.start(state), MAX_SLICE_CHOICES, max_cost=depth,
                                     max_nodes=cap, min_cost=depth)
                spent[index] += self.stats.nodes - before
                if found:
                    slices[index] = [(m, self.orbit.follow(state, m)) for m in found]
                    if first is None:
                        first = total
            total += 1
        return slices

    def _pairs_deepening(self, plans, max_results=1):
        """The pairs searches after the slice solutions of every start, deepened together
        on the total: (total, start index, m_slice, m_pairs), moves as seen in the start.

        plans: [(lower bound of the total, start index, moves before the slice stage,
        slice solutions, _pair_tries of them)], lowest bound first. For each total from
        the lowest bound up, the tries of each plan (up to MAX_PAIRS_TRIED, in the order
        of their bounds) are searched at the pairs length that total leaves them, and
        the first solution of a plan ends that plan's searches; the first total with a
        solution ends the search, its plan the one with the lowest start index (the
        candidate and frame order) among those with a solution at that total. So a try
        whose pairs stage is long is never searched to its end (a pairs search of a
        loose bound is the slowest part of a solve), and the result
        is what searching the tries one after another for a shorter total gives, the
        first in that order among the shortest. Each try gets at most PAIRS_TRY_NODES
        nodes in all; if none finds a solution within them, the first try of the first
        plan is searched to its end."""
        pairs, spent, best = self.pairs, {}, None
        top = max(p[2] + len(p[3][0][0]) for p in plans) + MAX_STAGE_COST - 1
        for total in range(plans[0][0], top + 1):
            for low, index, before_moves, slices, tries in plans:
                if low > total:
                    break                        # the plans are sorted by their bounds
                if best is not None and index > best[1]:
                    continue                     # a tie goes to the lower start index
                depth = total - before_moves - len(slices[0][0])
                for k, (bound, _, m, start) in enumerate(tries[:MAX_PAIRS_TRIED]):
                    if bound > depth:
                        break                    # the tries are sorted by their bounds
                    used = spent.get((index, k), 0)
                    if used > PAIRS_TRY_NODES:
                        continue
                    nodes = self.stats.nodes
                    found = self._search(pairs, start, max_cost=depth, min_cost=depth,
                                         max_nodes=PAIRS_TRY_NODES - used)
                    spent[(index, k)] = used + self.stats.nodes - nodes
                    if found:
                        best = (total, index, m, found[0])
                        break
            if best is not None:
                return [best] + self._gather(plans, best, GATHERED * (max_results - 1))
        _, index, before_moves, slices, tries = plans[0]
        m, start = tries[0][2:]
        found = self._search(pairs, start)
        return [(before_moves + len(m) + len(found[0]), index, m, found[0])]

    def _gather(self, plans, best, wanted):
        """Up to `wanted` more pairs solutions of best's total (other tries, other plans,
        more of the same try), within GATHER_NODES nodes: (total, index, m, m_pairs)."""
        total = best[0]
        got, cap = [], self.stats.nodes + GATHER_NODES
        if wanted <= 0:
            return got
        for low, index, before_moves, slices, tries in plans:
            if low > total:
                break
            depth = total - before_moves - len(slices[0][0])
            for bound, _, m, start in tries[:MAX_PAIRS_TRIED]:
                if bound > depth:
                    break
                if len(got) >= wanted or self.stats.nodes >= cap:
                    return got
                for m_pairs in self._search(self.pairs, start, max_solutions=wanted - len(got) + 1,
                                            max_cost=depth, min_cost=depth,
                                            max_nodes=cap - self.stats.nodes):
                    if (index, m, m_pairs) != best[1:] and len(got) < wanted:
                        got.append((total, index, m, m_pairs))
        return got

    def _slice_and_pairs_frames(self, candidates, max_results=1):
        """The slice and pairs stages after each candidate of stages 1-3, as they are
        and on the F/B axis (the cube seen turned by x: the E slice there is the
        original S slice); the fewest moves in all, stages 1-3 included:
        (candidate index, m_slice, m_pairs), moves as seen in the candidate's frame.

        candidates: [(moves of stages 1-3, cube after them)]. The slice searches
        deepen on the total (_slices_deepening); if none finds a solution within
        SLICE_NODES, the start with the smallest bound is searched to the end.
        Every slice search runs before the pairs searches, so the slice tables are
        unmapped before the pairs tables are read."""
        starts, where = [], []
        for c, (before_moves, cube) in enumerate(candidates):
            for turned in self.frames:
                seen = cube if turned is None else turned.seen(cube)
                state = self.orbit.start(self.centre_stage.start(centre_colours(seen)),
                                         wing_positions(seen), corner_parity(seen))
                low = before_moves + self.slice.heuristic(self.slice.start(state))
                starts.append((low, len(starts), before_moves, state))
                where.append((c, turned))
        found = self._slices_deepening(starts)
        if not any(found):
            _, index, _, state = min(starts, key=lambda s: s[:2])
            found[index] = self._slices(state)
        self.release("slice")
        self.clock.append(time.perf_counter())
        self.slice_nodes = self.stats.nodes
        # Each start with slice solutions is a plan, bounded below by its moves so far
        # + slice + smallest pairs bound; _pairs_deepening searches the plans together,
        # total by total (ties go to the candidate and frame order).
        plans = []
        for (_, index, before_moves, _), slices in zip(starts, found):
            if slices:
                tries = self._pair_tries(slices)
                plans.append((before_moves + len(slices[0][0]) + tries[0][0], index,
                              before_moves, slices, tries))
        plans.sort(key=lambda p: p[:2])
        results = self._pairs_deepening(plans, max_results)
        self.release("pairs")
        chosen = []
        for _, index, m_slice, m_pairs in results:
            c, turned = where[index]
            if turned is not None:
                m_slice, m_pairs = turned.moves_back(m_slice), turned.moves_back(m_pairs)
            chosen.append((c, m_slice, m_pairs))
        return chosen

    def solve(self, state, budget=None):
        """Result(candidates, stages, nodes); every table is unmapped on return."""
        try:
            return self._solve(state, budget)
        finally:
            self.release()

    def reductions(self, state, max_results=None):
        """Stages 1-5 only, no 3x3x3 finish: up to max_results reductions of the
        fewest moves, (names, [(parts, cube)]): parts the fixed-frame moves of the
        stages STAGES[:5] (names) and cube the reduced lettered state they leave;
        the others are different pairs-stage solutions (from other slice solutions
        or frames) after the same stages 1-3 candidate or another. names is None
        and parts the one direct solution when the cube is within DIRECT_DEPTH of
        solved. Tables stay mapped until release()."""
        max_results = MAX_REDUCED if max_results is None else max_results
        lettered, _ = label(state)
        direct = self._direct(lettered)
        if direct is not None:
            return None, [([direct], apply(lettered, direct, N))]
        self.clock = [time.perf_counter()]
        candidates = self._centres_and_wings_turned(lettered)
        self.release("centres", "wings")
        self.stats = Stats()
        self.clock.append(time.perf_counter())
        chosen = self._slice_and_pairs_frames([(cand[0], cand[-1]) for cand in candidates],
                                              max_results)
        self.clock.append(time.perf_counter())         # slice | pairs split inside
        found, seen = [], set()
        for c, m_slice, m_pairs in chosen:
            turned, m_lr, m_ud, m_eo = candidates[c][2:6]
            parts = [m_lr, m_ud, m_eo, m_slice, m_pairs]
            if turned is not None:
                parts = [turned.moves_back(part) for part in parts]
            cube = apply(lettered, [m for part in parts for m in part], N)
            if cube not in seen and len(found) < max_results:
                seen.add(cube)
                found.append((parts, cube))
        return STAGES[:5], found

    def _centres_and_wings_turned(self, lettered):
        """Stages centres-lr, centres-ud and wings in each of the frames CENTRE_ROTATIONS
        (the cube seen turned), in the order of their centres-lr lengths (a good bound
        early), each later frame searched only for at most FRAME_SLACK moves more than
        the best so far. The frames within FRAME_SLACK of the shortest, shortest first
        (then in that order), each with its ties (_centres_and_wings): [(moves,
        position, frame's Turned or None, m_lr, m_ud, m_wings, cube after)], moves and
        cube as seen in that frame."""
        lr, table = self.lr, self.lr_table
        seens = [lettered if turned is None else turned.seen(lettered) for turned in self.centre_frames]
        firsts = [table[lr.rank(lr.start(centre_colours(seen)))] for seen in seens]
        found, best = [], None
        for k in sorted(range(len(seens)), key=lambda k: (firsts[k], k)):
            if best is not None and firsts[k] > best + FRAME_SLACK:
                break                # its centres-lr stage alone is longer than any kept total
            turned, seen = self.centre_frames[k], seens[k]
            got = self._centres_and_wings(seen, None if best is None else best + FRAME_SLACK + 1)
            for one in got:
                moves = sum(len(part) for part in one[:3])
                found.append((moves, len(found), turned) + tuple(one))
                best = moves if best is None else min(best, moves)
        return sorted((f for f in found if f[0] <= best + FRAME_SLACK), key=lambda f: f[:2])

    def _solve(self, state, budget):
        names, reductions = self.reductions(state)
        if names is None:
            moves, _ = to_physical(reductions[0][0][0])
            stage_moves = dict((name, []) for name in STAGES)
            stage_moves["direct"] = moves
            return Result([moves], stage_moves, 0)

        # the reduced cubes' 3x3x3 in every view (with a budget: the views the time left
        # allows, the first reduced cube's first view at least), in this process, until
        # one finishes in GOOD_FINISH moves
        flat = [[mv for part in parts for mv in part] for parts, _ in reductions]

        def whole(k, finish):
            return simplify(to_physical(flat[k] + list(finish))[0])

        scored = solve3.finish_in_order([to_3x3(cube) for _, cube in reductions], whole,
                                        GOOD_FINISH, budget, REDUCED_VIEWS, FINISH_DEPTH,
                                        self.directory)
        candidates = [t[4] for t in scored]
        _, _, k, best_finish, _ = scored[0]
        stage_moves = dict(zip(STAGES, reductions[k][0] + [list(best_finish)]))
        self.clock.append(time.perf_counter())
        seconds = dict((name, self.clock[k + 1] - self.clock[k]) for k, name in enumerate(SECTIONS))
        stage_nodes = {"slice": self.slice_nodes, "pairs": self.stats.nodes - self.slice_nodes}
        return Result(candidates, stage_moves, self.stats.nodes, seconds, stage_nodes)
