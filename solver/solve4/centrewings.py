"""Stages 1-3 of the 4x4x4 reduction, searched nearly as one: centres-lr, centres-ud, wings.

CentresAndWings is the part of solve4.reduce.Reducer that finds them, in one centre
frame: the optimal centres-lr solutions and those a move longer, ranked by what the
exact centres-ud table says follows; after each of the best, the centres-ud solution
(of the optimal ones and those a move longer) with the fewest moves plus wing-stage
bound; then the wing stage, branch and bound on the total (docs/solver4.md, "How the
stages search"). It reads the Reducer's stages and mapped tables: lr, ud (the stages),
lr_table (4x4-centres-lr), ud_ranked (centres.RankedStage) and wings (wings.WingStage).
All lengths are in moves (OBTM).
"""

from cubebot.solver.errors import TableError
from cubebot.solver.moves import apply
from cubebot.solver.search import Stats, coord_descend, core_function, descend, stage_descend, stage_ida
from cubebot.solver.solve4.model import N, centre_colours
from cubebot.solver.solve4.pieces import wing_parity, wing_positions
from cubebot.solver.solve4.wings import CentreOrbitStage, EOStage

MAX_CENTRE_STAGE = 15          # above every exact table's largest distance
MAX_LR_CHOICES = 100           # optimal centres-lr solutions compared by their centres-ud stage
MAX_LR_LONGER = 100            # centres-lr solutions one move longer, ranked with them by
                               # their length plus the centres-ud stage's
MAX_LR_TRIED = 40              # of all those, the ones taken through centres-ud and wings
MAX_UD_CHOICES = 50            # optimal centres-ud solutions compared by their wing bound, per try
MAX_UD_LONGER = 200            # centres-ud solutions one move longer compared with them (length
                               # plus wing bound), per try
MAX_WING_SOLUTIONS = 4         # shortest wing-stage solutions of a try, the others kept as ties
WING_NODES = 100000            # nodes (about 0.4 s here) for each wing-stage search; in the first
                               # centre frame only, the first try that runs out is searched to the
                               # end if no try finds one (later frames skip their cut tries)
MAX_TIES = 2                   # other stages 1-3 solutions as short as a frame's best, per frame,
                               # that go on with it (another centres-lr try)


def _shared(a, b):
    """The length of the common prefix of two move lists."""
    k, end = 0, min(len(a), len(b))
    while k < end and a[k] is b[k]:
        k += 1
    return k


class CentresAndWings(object):
    """Stages 1-3 (a mixin of solve4.reduce.Reducer, which holds the stages and tables)."""

    def _exact(self, stage, table, start, max_solutions=1, as_indices=False):
        """Up to max_solutions shortest stage solutions (the table is exact: the
        search walks straight down it); as_indices (a stage with a CoordModel): as
        indices into its moves."""
        rank, get = stage.rank, table.__getitem__

        def distance(state):
            return get(rank(state))

        found, model = [], getattr(stage, "model", None)
        if distance(start) <= MAX_CENTRE_STAGE:
            if hasattr(stage, "core_spec"):
                found = stage_descend(stage, start, max_solutions)
            elif model is not None:
                found = coord_descend(model, (start,), max_solutions, as_indices=as_indices)
            else:
                found = descend(start, stage.moves, stage.apply, distance, max_solutions)
        if not found:
            raise TableError("table {} gives no path to its goal: run `cubebot tables build`".format(
                stage.table))
        return found

    def _wings(self, cube, max_cost=MAX_CENTRE_STAGE, max_nodes=None):
        """The shortest wing-stage solutions (up to MAX_WING_SOLUTIONS) for a cube with its
        centres on their axes: None if they need more than max_cost moves (<
        MAX_CENTRE_STAGE), False if none was found within max_nodes nodes (None: no cap)."""
        ws, stats = self.wings, Stats()
        solutions = stage_ida(ws, ws.start(centre_colours(cube), wing_positions(cube)),
                              max_cost=max_cost, stats=stats, max_nodes=max_nodes,
                              cheapest_only=True, max_solutions=MAX_WING_SOLUTIONS)
        if not solutions and max_nodes is not None and stats.nodes > max_nodes:
            return False
        if not solutions and max_cost >= MAX_CENTRE_STAGE:
            raise TableError("tables {} and {} give no path to their goal: run `cubebot tables "
                             "build`".format(EOStage.table, CentreOrbitStage.table))
        return solutions or None

    def _centres_and_wings(self, cube, beat=None):
        """Stages centres-lr, centres-ud and wings.

        Of the optimal centres-lr solutions (up to MAX_LR_CHOICES) and those one
        move longer (up to MAX_LR_LONGER), the MAX_LR_TRIED with the fewest moves
        through the centres-ud stage (4x4-centres-ud is exact) are tried. After
        each, of the optimal centres-ud solutions and those a move longer
        (_centres_ud) the one with the fewest moves plus wing-stage lower bound
        is taken and the wing stage searched, only for solutions shorter in
        all than the best so far (and than `beat` moves, if given), each search
        capped at WING_NODES nodes; a try cut there is skipped, and only without
        `beat` (the first frame), if every try was cut, is the first cut one
        searched to its end. Each try's wing stage gives up to MAX_WING_SOLUTIONS
        shortest solutions. The other solutions as short as the best are kept with it
        as ties: its own other wing solutions, and other tries while there are fewer
        than MAX_TIES ties (after that only a shorter try counts). Returns
        [(m_lr, m_ud, m_wings, cube after)], the best first
        and then those ties, or [] if nothing is below `beat`.
        """
        table = self.ud_ranked.distance
        lr, lr_search = self.lr, self.lr_search
        lr_start = lr.start(centre_colours(cube))
        found = self._exact(lr_search, self.lr_table, lr_start, MAX_LR_CHOICES)
        if MAX_LR_LONGER:
            found += stage_descend(lr_search, lr_start, MAX_LR_LONGER, len(found[0]) + 1)
        ud_state = self.ud.start(centre_colours(cube), wing_parity(wing_positions(cube)))
        starts = [self.ud.rank(self.ud.after(ud_state, m)) for m in found]
        order = sorted(range(len(found)), key=lambda k: (len(found[k]) + table[starts[k]], k))
        best, unfinished, ties = None, None, []
        for k in order[:MAX_LR_TRIED]:
            shortest = table[starts[k]]
            budget = MAX_CENTRE_STAGE + shortest       # moves for centres-ud and wings together
            # the centres-ud stage is at least `shortest`; the order makes it longer and longer
            if best is not None:
                # as long as the best while there is room for ties, else shorter
                budget = sum(map(len, best[:3])) - len(found[k]) - (1 if len(ties) >= MAX_TIES else 0)
            elif beat is not None:
                budget = min(budget, beat - len(found[k]) - 1)
            if budget < shortest:
                break
            chosen = self._centres_ud(apply(cube, found[k], N), starts[k], budget)
            if chosen is None:
                continue
            m_ud, after = chosen
            limit = budget - len(m_ud)
            wing_solutions = self._wings(after, limit, WING_NODES)
            if wing_solutions is False:
                if unfinished is None:
                    unfinished = (found[k], m_ud, after, limit)
                continue
            # the try's other wing solutions (as short) go on as ties: they leave the
            # slice and pairs stages other wings and centres
            for m_wings in wing_solutions or ():
                got = (found[k], m_ud, m_wings, apply(after, m_wings, N))
                if best is not None and sum(map(len, got[:3])) == sum(map(len, best[:3])):
                    ties.append(got)
                else:
                    best, ties = got, []
        if best is None and unfinished is not None and beat is None:
            # the fallback that always finishes: the first try cut by WING_NODES, searched on
            m_lr, m_ud, after, limit = unfinished
            wing_solutions = self._wings(after, limit)
            if wing_solutions:
                best = (m_lr, m_ud, wing_solutions[0], apply(after, wing_solutions[0], N))
        return [] if best is None else [best] + ties

    def _centres_ud(self, cube, start, budget):
        """The centres-ud solution, of the shortest (up to MAX_UD_CHOICES) and those one
        move longer (up to MAX_UD_LONGER), whose length plus wing-stage lower bound is
        smallest (the first such): (moves, cube after); None if none is within budget
        (then no wing stage within budget follows any of them)."""
        ws, ud, ranked = self.wings, self.ud, self.ud_ranked
        distance = ranked.distance
        choose = core_function("ud_choose")
        if choose is not None and ranked.model is not None:
            # in the core: the solutions as move indices, chosen there
            found = self._exact(ranked, distance, start, MAX_UD_CHOICES, as_indices=True)
            if MAX_UD_LONGER and distance[start] < budget:
                found += coord_descend(ranked.model, (start,), MAX_UD_LONGER, distance[start] + 1,
                                       as_indices=True)
            k = choose(ws.choice_spec(ud), found, tuple(ws.centres.cs.start(centre_colours(cube))),
                       tuple(wing_positions(cube)), budget)
            if k < 0:
                return None
            best = [ranked.moves[i] for i in found[k]]
            return best, apply(cube, best, N)
        # each solution followed on the centre masks and the wing positions (not the
        # facelets): only the one chosen is applied to the cube
        index, centre_apply, wing_maps = ud.index, ud.mover.apply3, ud.wing_maps
        found = self._exact(ranked, distance, start, MAX_UD_CHOICES)
        if MAX_UD_LONGER and distance[start] < budget:
            if ranked.model is not None:
                found += coord_descend(ranked.model, (start,), MAX_UD_LONGER, distance[start] + 1)
            else:
                found += descend(start, ranked.moves, ranked.apply, distance.__getitem__,
                                 MAX_UD_LONGER, distance[start] + 1)
        centre_rank, centre_table = ws.centres.rank, ws.centre_table
        # the centre masks and wing positions after each prefix of a solution seen last:
        # solutions come in search order, so the next one shares most of its prefix
        cs, c_of = [ws.centres.cs.start(centre_colours(cube))], []
        ps, p_of = [wing_positions(cube)], []
        best_total, best = budget + 1, None
        for m in found:
            cs, c_of = cs[:_shared(c_of, m) + 1], m
            for move in m[len(cs) - 1:]:
                cs.append(centre_apply(cs[-1], index[move]))
            below = best_total - len(m)
            if centre_table[centre_rank(cs[-1])] >= below:
                continue             # the wing positions need not be followed
            ps, p_of = ps[:_shared(p_of, m) + 1], m
            for move in m[len(ps) - 1:]:
                to = wing_maps[index[move]]
                ps.append([to[s] for s in ps[-1]])
            bound = ws.bound(cs[-1], ps[-1], below)
            if bound is not None:
                best_total, best = bound + len(m), m
        return None if best is None else (best, apply(cube, best, N))
