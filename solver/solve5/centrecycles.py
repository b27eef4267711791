"""Centre 3-cycles: the centre stage's last step, and the table 5x5-centre-cycles.

For every 3-cycle of the 24 X-centre slots, and of the 24 T-centre slots
(a -> b -> c, 2 x 4,048), a short move sequence that does exactly that and
moves nothing else. Each is a commutator [a b a', Q] (a an inner slice or a
wide turn, b and Q outer turns or inner slices) that the build found to be a pure centre
3-cycle, conjugated by setup moves (cycletables.conjugates).

`CentreCycles.solve(lettered)` then solves the centres greedily: each step
takes the 3-cycle with the fewest moves per centre facelet it puts home
(net, up to three). Centre pieces of one colour are alike,
so it ends when every X- and T-centre shows its face's colour.
"""

from cubebot.solver.errors import TableError
from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, apply, invert, simplify
from .cycletables import added, conjugates, cycle_key, decode, open_cycle, shortest_pure, write_cycles
from .model import ALL_MOVES, N, N_SLOTS, T_CENTRES, X_CENTRES, slot_perm

TABLE = "5x5-centre-cycles"
ORBITS = (X_CENTRES, T_CENTRES)
ORBIT_KEYS = N_SLOTS ** 3      # key = orbit * ORBIT_KEYS + cycle_key


def _slot_map(slots):
    def map_of(move):
        perm = slot_perm(move, slots)          # new[k] = old[perm[k]]
        result = [0] * len(slots)
        for k, j in enumerate(perm):
            result[j] = k
        return tuple(result)
    return map_of


def base_cycles(slots):
    """{cycle key: ((a, b, c), shortest commutator)} of one orbit."""
    pieces = tuple((f,) for f in slots)
    inner = [Move(f, 2, 2, t) for f in FACES for t in (1, 2, 3)]
    outer = [m for m in ALL_MOVES if m.last == 1]

    def commutators():
        for a in inner + [m for m in ALL_MOVES if m.last == 2]:
            for b in outer + inner:
                if b.face != a.face:
                    p = [a, b] + invert([a])
                    for q in outer + inner:
                        yield p + [q] + invert(p) + invert([q])
    return shortest_pure(commutators(), pieces)


def build(path, progress=None):
    """Write 5x5-centre-cycles (records key -> moves, as cycletables.write_cycles writes them)."""
    cycles = {}
    for k, slots in enumerate(ORBITS):
        found = conjugates(list(base_cycles(slots).values()), _slot_map(slots))
        if progress:
            progress("{} 3-cycles of {}-centres".format(len(found), "XT"[k]))
        for key, moves in found.items():
            cycles[k * ORBIT_KEYS + key] = moves
    write_cycles(path, cycles)


class CentreCycles(object):
    """Solves the centres of a lettered 5x5x5 by table 3-cycles."""

    def __init__(self, table):
        self.table = table
        self.face_of = tuple(tuple(FACES[f // (N * N)] for f in slots) for slots in ORBITS)

    def cycle(self, orbit, a, b, c):
        value = self.table.get(orbit * ORBIT_KEYS + cycle_key(a, b, c))
        if value is None:
            raise TableError("table {} has no centre cycle {}->{}->{}: run `cubebot tables build "
                             "--size 5`".format(TABLE, a, b, c))
        return decode(value)

    def _step(self, orbit, shown, solution):
        """(net facelets placed, moves added, moves, (a, b, c)) of the 3-cycle of one orbit
        with the fewest moves per facelet placed (moves counted after merging with the
        solution so far), or None if the orbit is solved."""
        face = self.face_of[orbit]
        wrong = [s for s in range(N_SLOTS) if shown[s] != face[s]]
        if not wrong:
            return None
        tiers = {}                     # net facelets placed -> up to CHOICES cycles
        for a in wrong:
            for b in wrong:
                if b == a:
                    continue
                gain_ab = shown[a] == face[b]
                for c in range(N_SLOTS):       # c may be a solved slot (two wrong left)
                    if c == a or c == b:
                        continue
                    net = gain_ab + (shown[b] == face[c]) + (shown[c] == face[a]) - (shown[c] == face[c])
                    if net > 0:
                        tier = tiers.setdefault(net, [])
                        if len(tier) < CHOICES:
                            tier.append((a, b, c))
        best = None
        for net, cycles in tiers.items():
            for cyc in cycles:
                cost = added(solution, open_cycle(self.cycle(orbit, *cyc)))
                if best is None or cost * best[0] < best[1] * net:
                    best = (net, cost, cyc)
        net, cost, cyc = best
        return net, cost, open_cycle(self.cycle(orbit, *cyc)), cyc

    def solve(self, lettered):
        """Moves that solve the centres (wings and midges stay where they are, up to
        outer turns: every wing stays next to the same midge).

        A cycle's closing outer turns (the undoing of its setup) are left out: an
        outer turn keeps every centre facelet on its face, so it keeps what is
        home home; the centres are read again from the cube after each cycle.
        """
        cube = lettered
        solution = []
        for _ in range(2 * N_SLOTS):
            shown = [[cube[f] for f in slots] for slots in ORBITS]
            steps = [(self._step(k, shown[k], solution), k) for k in range(len(ORBITS))]
            steps = [(s, k) for s, k in steps if s is not None]
            if not steps:
                return solution
            (_, _, moves, _), _ = min(steps, key=lambda sk: sk[0][1] / float(sk[0][0]))
            solution = simplify(solution + moves)
            cube = apply(cube, moves, N)
        raise TableError("the centres were not solved in {} cycles: table {} is wrong".format(
            2 * N_SLOTS, TABLE))


CHOICES = 40                   # 3-cycles of the best gain compared by length, per step
