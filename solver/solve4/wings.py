"""The wing-orientation stage: every edge gets one wing in each pair orbit.

Runs after the centres are on their axes with the wing permutation even
(centres.UDStage). Moves (AxisMoves, 15): the fixed-frame generators that
keep every centre colour on its axis and the wing permutation even: U, R, F
(any turn) and the half turns Uw2, Rw2, Fw2, 3Uw2, 3Rw2, 3Fw2.

Goal: for one choice of an "A wing" per edge, the A wings exactly on the
A-orbit slots (orbits.ORBIT_A); then every edge has a wing in each orbit,
as the slice and pairs stages need. Of the 2^12 = 4096 choices only the 2048 that leave the
A and B wings permuted with the same parity are used (choice_masks).

Table 4x4-eo: which 12 of the 24 wing slots hold the chosen A wings,
C(24, 12) = 2,704,156 ranks (colex, masks.CombCoord), 4 bits each, the
exact distance to the mask of ORBIT_A (at most 13). At the start the stage
ranks the masks of the 2048 choices, keeps the nearest, and IDA* walks
straight down the exact table.
"""

from cubebot.solver.coords import binomial
from cubebot.solver.search import MaskModel
from cubebot.solver.tables import UNREACHED, bfs
from cubebot.solver.solve4.centres import UD_SLOTS, CentreStage, UDStage
from cubebot.solver.solve4.masks import MaskMover, MaskStage, int32_array, mask_of_slots
from cubebot.solver.solve4.model import N_WINGS, permutation_parity, wing_map
from cubebot.solver.solve4.orbits import N_ORBIT, ORBIT_A, PHASE3_MOVES, wing_perm

N_EO = binomial(N_WINGS, N_ORBIT)       # C(24, 12) = 2,704,156
N_EDGES = N_WINGS // 2
NEAR_DEPTH = 4                          # EOStage.near_masks: the goal's neighbourhood kept in memory


def axis_moves():
    """The fixed-frame moves that keep all centres on their axes and the wings even."""
    ud = UDStage()
    on_axis = mask_of_slots(UD_SLOTS)
    return [m for i, m in enumerate(ud.moves)
            if ud.mover.apply(on_axis, i) == on_axis and not permutation_parity(wing_map(m))]


class CentreOrbitStage(object):
    """Table spec: centres (on their axes) into a configuration the slice and pairs stages can solve.

    Orbit moves (PHASE3_MOVES) turn the R and L centres only by half turns, so only
    58,800 of the 343,000 on-axis configurations (centres.CentreStage
    coordinate) can be solved by the slice and pairs stages: the goals here, found by the
    shared builder from the solved centres under orbits.PHASE3_MOVES. Table
    4x4-centres-p3: the distance to them under axis_moves().
    """

    table = "4x4-centres-p3"

    def __init__(self):
        self.cs = CentreStage()
        self.size = self.cs.size
        self.moves = axis_moves()
        self.mover = MaskMover(self.moves)

    def apply(self, state, i):
        return self.mover.apply3(state, i)

    def rank(self, state):
        return self.cs.rank(state)

    def goals(self):
        cs, mover = self.cs, MaskMover(PHASE3_MOVES)

        def neighbours(rank):
            a, b, c = cs.unrank(rank)
            move = mover.apply
            return [cs.rank((move(a, i), move(b, i), move(c, i))) for i in range(len(PHASE3_MOVES))]

        reached = bfs(cs.goals(), neighbours, n_states=self.size)
        return [r for r in range(self.size) if reached[r] != UNREACHED]

    def neighbours(self, rank):
        state = self.cs.unrank(rank)
        return [self.rank(self.apply(state, i)) for i in range(len(self.moves))]


class EOStage(MaskStage):
    """State = mask of the wing slots holding the chosen A wings."""

    table = "4x4-eo"

    def __init__(self):
        MaskStage.__init__(self, axis_moves(), wing_perm, range(N_WINGS), N_ORBIT, ORBIT_A)
        assert self.size == N_EO
        self._near = None

    def start(self, pos, table):
        """The mask of the best choice of A wings for wing positions pos (table: 4x4-eo):
        the nearest to the goal, the smallest mask among the nearest."""
        near = self._nearest(pos, NEAR_DEPTH + 1)
        if near is not None:
            return near[1]
        masks = choice_masks(pos)
        return min(zip(table.values(self.coord.ranks(masks)), masks))[1]

    def distance(self, pos, table, below):
        """The 4x4-eo distance of the best choice of A wings for wing positions pos
        if it is below `below`, else None.

        For below - 1 <= NEAR_DEPTH the masks near the goal (near_masks) are tried in
        order of distance against the choice rules (choice_test), which is a few
        hundred cheap tests at most instead of ranking the 2048 choices.
        """
        if below - 1 > NEAR_DEPTH:
            d = min(table.values(self.coord.ranks(choice_masks(pos))))
            return d if d < below else None
        near = self._nearest(pos, below)
        return None if near is None else near[0]

    def _nearest(self, pos, below):
        """(distance, mask) of the nearest choice mask within below - 1 <= NEAR_DEPTH
        moves of the goal, the smallest such mask (near_masks are sorted); else None."""
        pairs, home_b = choice_test(pos)
        for d, masks in enumerate(self.near_masks()[:below]):
            for mask in masks:
                for pair in pairs:
                    if not mask & pair:
                        break
                else:
                    if not bin(mask & home_b).count("1") & 1:
                        return d, mask
        return None

    def near_masks(self):
        """[the masks at distance d from the goal, for d = 0 .. NEAR_DEPTH] (619 masks,
        found by breadth-first search on first use: the axis moves hold their inverses)."""
        if self._near is None:
            seen = set([self.goal_mask])
            layers = [[self.goal_mask]]
            for _ in range(NEAR_DEPTH):
                layer = set()
                for mask in layers[-1]:
                    for i in range(len(self.moves)):
                        layer.add(self.mover.apply(mask, i))
                layer -= seen
                seen |= layer
                layers.append(sorted(layer))
            self._near = layers
        return self._near


def choice_test(pos):
    """(pairs, home_b): a 12-bit mask is one of choice_masks(pos) exactly when it
    meets every pair (the two slots of one edge's wings) and has an even number
    of bits on home_b (the slots of the wings whose home slot is in orbit B)."""
    in_a = set(ORBIT_A)
    pairs, home_b = [], 0
    for e in range(N_EDGES):
        first, second = 2 * e, 2 * e + 1
        if first not in in_a:
            first, second = second, first
        pairs.append(1 << pos[first] | 1 << pos[second])
        home_b |= 1 << pos[second]
    return pairs, home_b


def choice_masks(pos):
    """The A-wing masks of the 2048 usable choices of one wing (2e or 2e+1) per edge e.

    The pairs stage can pair the edges only if the A wings and the B wings are
    permuted (as edges) with the same parity. With the wing permutation
    even, that holds exactly when an even number of edges have as A wing
    the piece whose home slot is in the B orbit; the other choices are left
    out.
    """
    in_a = set(ORBIT_A)
    masks = ([0], [])                     # by parity of A wings whose home is in orbit B
    for e in range(N_EDGES):
        first, second = 2 * e, 2 * e + 1
        if first not in in_a:
            first, second = second, first
        at_a, at_b = 1 << pos[first], 1 << pos[second]
        even, odd = masks
        masks = ([m | at_a for m in even] + [m | at_b for m in odd],
                 [m | at_a for m in odd] + [m | at_b for m in even])
    return masks[0]


class WingStage(object):
    """The search of the stage: state (A-wing mask, centre masks), axis moves.

    Heuristic: max of 4x4-eo and 4x4-centres-p3 (each exact for its part);
    goal: both 0.
    """

    def __init__(self, eo_table, centre_table):
        self.eo = EOStage()
        self.centres = CentreOrbitStage()
        self.moves = self.eo.moves
        self.eo_table = eo_table
        self.centre_table = centre_table
        # apply and heuristic as closures over bound methods: the search calls them at
        # every node (tens of thousands a solve), and each saved call counts on the brick
        eo_apply, centre_apply = self.eo.mover.apply, self.centres.mover.apply3
        eo_rank = self.eo.coord.rank
        eo_bytes, eo_offset = eo_table.nibbles()           # 4x4-eo read inline (no call an entry)
        centre_bytes, centre_offset = centre_table.nibbles()
        (cu, cr, cf), base = self.centres.cs.coords, self.centres.cs.base
        cu, cr, cf = cu.rank, cr.rank, cf.rank

        def apply(state, i):
            return (eo_apply(state[0], i), centre_apply(state[1], i))

        def heuristic(state):
            u, r, f = state[1]
            x = eo_rank(state[0])
            a = (eo_bytes[eo_offset + (x >> 1)] >> ((x & 1) << 2)) & 15
            x = (cu(u) * base + cr(r)) * base + cf(f)
            b = (centre_bytes[centre_offset + (x >> 1)] >> ((x & 1) << 2)) & 15
            return a if a > b else b

        self.apply, self.heuristic = apply, heuristic
        self._choice = None
        self.model = MaskModel(
            self.moves, [self.eo.mover.flat(), self.centres.mover.flat()], [0, 1, 1, 1],
            [self.eo.coord.flat()] + [c.flat() for c in self.centres.cs.coords],
            [(eo_bytes, eo_offset, ((0, 0, 1, None),)),
             (centre_bytes, centre_offset, ((1, 1, base * base, None), (2, 2, base, None),
                                            (3, 3, 1, None)))])

    def core_spec(self):
        """The stage as a search.MaskModel spec (search.stage_ida): the A-wing mask
        and the three centre masks, the same moves and bound."""
        return self.model.spec

    @staticmethod
    def core_state(state):
        return (state[0],) + tuple(state[1])

    def start(self, symbols, pos):
        return (self.eo.start(pos, self.eo_table), self.centres.cs.start(symbols))

    def choice_spec(self, ud):
        """The spec of the core's ud_choose (centrewings._centres_ud's choice) after the
        moves of centres.UDStage `ud`: their centre mover and wing maps, the centre and
        4x4-eo tables and ranks, the A-orbit slots and the masks near the goal."""
        if self._choice is None:
            cs = self.centres.cs
            near = self.eo.near_masks()
            ends, total = [], 0
            for layer in near:
                total += len(layer)
                ends.append(total)
            centre_bytes, centre_offset = self.centre_table.nibbles()
            eo_bytes, eo_offset = self.eo_table.nibbles()
            self._choice = (len(ud.moves), ud.mover.flat(),
                            bytes(t for to in ud.wing_maps for t in to),
                            tuple(c.flat() for c in cs.coords), cs.base, centre_bytes, centre_offset,
                            self.eo.coord.flat(), eo_bytes, eo_offset, mask_of_slots(ORBIT_A),
                            int32_array(m for layer in near for m in layer), tuple(ends))
        return self._choice

    def bound(self, masks, pos, below):
        """heuristic(start(symbols, pos)) if it is below `below`, else None (cheaper);
        masks = self.centres.cs.start(symbols), the centre masks."""
        centres = self.centre_table[self.centres.rank(masks)]
        if centres >= below:
            return None
        eo = self.eo.distance(pos, self.eo_table, below)
        if eo is None:
            return None
        return eo if eo > centres else centres
