"""The midge stage of phase 2: every midge next to its own dedge, the right way round.

Run when every centre is home. A midge's "half slots" are the 24 midge facelets (half 2s + k
is facelet k of midge slot s, model.MIDGES order); dest[h] is the half slot where the midge
half now at h belongs. Goal: dest is the identity.

Steps keep every centre home and move midges:
  - the 3-cycles of table 5x5-midge-cycles: a setup of outer turns, then a core X^k F2 X^-k
    (X a middle slice, F2 a half turn of a face X passes through, 5 written turns), found by
    cycletables.cheapest_setups (an outer turn costs 1, a core 5);
  - with a midgecores.CoreIndex, the cores X^k W X^-k of table 5x5-midge-cores, as they are
    or after a setup of up to CORE_SETUP_TURNS outer turns (COMPILED_SETUP_TURNS where
    the cores are ranked in C).
Setups are never undone: an outer turn moves a dedge and its midge together. The stage is a
beam: from each cube the BEAM_BRANCH steps with the fewest written turns per midge placed,
the BEAM_WIDTH cubes with the fewest turns + BEAM_WEIGHT x midges out of place kept.
"""

import heapq

from cubebot.solver.errors import TableError, UnsolvableCube
from cubebot.solver.facelets import FACES
from cubebot.solver.moves import Move, apply, permutation, simplify
from cubebot.solver.search import compiled_module, successors, timed
from cubebot.solver.solve4.model import permutation_parity
from .cycletables import cheapest_setups, cycle_key, decode, write_cycles
from .slices import HALF, MIDDLE, MOVES, OUTER, SLICES, is_slice, written, written_length
from .model import MIDGES, N, WINGS

TABLE = "5x5-midge-cycles"
N_MIDGES = len(MIDGES)
N_HALVES = 2 * N_MIDGES        # 24 half slots; cycle_key's 24 ** 3 keys fit 16 bits
BEAM_WIDTH = 16                # cubes kept per round of the beam search
BEAM_BRANCH = 6                # cheapest cycles tried from each cube
BEAM_WEIGHT = 3.0              # turns a midge out of place is taken to cost (beam score)
TAIL = 4                       # moves of the solution so far a next cycle may cancel
CORE_COST = 5                  # X^k F2 X^-k written: 2 + 1 + 2
SETUP_COST = 1
CORE_SETUP_TURNS = 2           # outer turns a core may take as its setup (0, 1 or 2) ...
COMPILED_SETUP_TURNS = 3       # ... and where the cores are ranked in C (native)
MAX_STEPS = 3 * N_MIDGES       # a bound on the greedy's cycles (12 midges need at most ~9)
SLICE_AXIS_FACES = {"U": "FRBL", "R": "UFDB", "F": "URDL"}
HALF_OF = tuple(f for pair in MIDGES for f in pair)


def cores():
    """The 36 centre-keeping midge moves X^k F2 X^-k, as phase-2 moves."""
    result = []
    for x in SLICES:
        for face in SLICE_AXIS_FACES[x.face]:
            result.append([x, Move(face, 1, 1, HALF), Move(x.face, MIDDLE, MIDDLE, 4 - x.turns)])
    return result


def dedge_colours(cube):
    """colours[s]: the colours the dedge at midge slot s shows on the two midge faces."""
    by_face = []
    for e, (a, b) in enumerate(MIDGES):
        wing = WINGS[2 * e]
        shown = dict((f // (N * N), cube[f]) for f in wing)
        by_face.append((shown[a // (N * N)], shown[b // (N * N)]))
    return by_face


def dest(cube):
    """dest[h] for every half slot h (see the module docstring)."""
    dedges = dedge_colours(cube)
    where = {}
    for t, (p, q) in enumerate(dedges):
        where[(p, q)] = (2 * t, 2 * t + 1)
        where[(q, p)] = (2 * t + 1, 2 * t)
    result = []
    for s, (a, b) in enumerate(MIDGES):
        pair = where.get((cube[a], cube[b]))
        if pair is None:
            raise UnsolvableCube("the midge at slot {} shows {}{}, which no dedge shows".format(
                s, cube[a], cube[b]))
        result += pair
    if sorted(result) != list(range(N_HALVES)):
        raise UnsolvableCube("two midges show the same colours")
    return result


def wrong(d):
    """The number of midges not home (or flipped) under dest d."""
    return sum(1 for s in range(N_MIDGES) if d[2 * s] != 2 * s)


def partner(h):
    return h ^ 1


def midge_key(a, b, c):
    """The key of the midge 3-cycle whose half a goes to b, b to c, c to a."""
    pa, pb, pc = partner(a), partner(b), partner(c)
    if min(pa, pb, pc) < min(a, b, c):
        a, b, c = pa, pb, pc
    return cycle_key(a, b, c)


def half_map(move):
    """The move as a map of half slots: the midge half at h goes to m[h] (None: not a half)."""
    perm = permutation(move, N)
    at = dict((f, h) for h, f in enumerate(HALF_OF))
    return tuple(at.get(perm.index(f)) for f in HALF_OF)


def _solved_cube():
    return "".join(f * N * N for f in FACES)


def base_cycles():
    """[(a, b, c), moves] for each core that is a midge 3-cycle as seen from the dedges."""
    solved = _solved_cube()
    result = []
    for core in cores():
        d = dest(apply(solved, written(core), N))
        moved = [h for h in range(N_HALVES) if d[h] != h]
        if len(moved) != 6:
            continue
        a = min(moved)
        # the half now at h belongs at d[h]: the piece from d[h] went to h
        went = dict((d[h], h) for h in moved)
        b = went[a]
        # seen after the core's half turn; the cycle it does is that one seen before it
        back = _back(half_map(core[1]))
        result.append(((back[a], back[b], back[went[b]]), core))
    return result


def _back(mp):
    back = [0] * len(mp)
    for h, t in enumerate(mp):
        back[t] = h
    return back


def build_cycles():
    """{midge key: moves} for every midge 3-cycle: setup (outer turns) + core, fewest turns."""
    bases = [(CORE_COST, cyc, core) for cyc, core in base_cycles()]
    found = cheapest_setups(bases, OUTER, half_map, midge_key, lambda m, setup: SETUP_COST)
    return dict((key, simplify(setup) + core) for key, (setup, core) in found.items())


def build(path, progress=None):
    """Write 5x5-midge-cycles: records key -> moves (one byte each, MOVES index + 1)."""
    cycles = build_cycles()
    if progress:
        progress("{} midge 3-cycles".format(len(cycles)))
    write_cycles(path, cycles, MOVES)


_MAPS = {}                     # move -> its half map, filled as moves are met
_INVERSES = {}                 # move -> (its inverse half map as a translate table, outer?)
_HALVES = bytes(range(N_HALVES))


_SOLVE5 = []                   # the outcome of importing the compiled module, once


def native():
    """The compiled phase-2 loops (cubebot.solver._solve5, solver/_solve5.c), or None
    (not built, or CUBEBOT_PURE_PYTHON=1): the same answers as the Python here. Each
    call's wall time counts in search.CORE_SECONDS, as compiled code's."""
    module = compiled_module("_solve5", _SOLVE5)
    return None if module is None else _Timed(module)


class _Timed(object):
    """A compiled module whose functions add their wall time to search.CORE_SECONDS
    (the brick-time estimate scales that part by the compiled-code factor)."""

    def __init__(self, module):
        self._module = module

    def __getattr__(self, name):
        return timed(getattr(self._module, name))


_TABLES = {}                   # tuple(moves) -> half_tables(moves)


def half_tables(moves):
    """(maps, inverses, outer) of phase-2 moves for the compiled loops: each move's half
    map and its inverse (24 bytes a move, in order) and 1 for an outer turn, 0 for a
    slice (a byte a move); made once per move list."""
    key = tuple(moves)
    found = _TABLES.get(key)
    if found is None:
        maps = b"".join(bytes(_map(m)) for m in key)
        inverses = b"".join(_inverse(m)[0][:N_HALVES] for m in key)
        outer = bytes(0 if is_slice(m) else 1 for m in key)
        found = _TABLES[key] = (maps, inverses, outer)
    return found


def core_setups(max_turns=None):
    """The outer setups a core is tried after: [] and every sequence of 1..max_turns
    (default CORE_SETUP_TURNS, or COMPILED_SETUP_TURNS on the compiled path) outer
    turns that no shorter one equals, as
    search.successors prunes them (no face twice in a row, one order of two commuting
    opposite faces): 1 + 18 + 243 for two."""
    if max_turns is None:
        max_turns = CORE_SETUP_TURNS if native() is None else COMPILED_SETUP_TURNS
    allowed = successors(OUTER)
    result = [[]]
    last = [((), -1)]                  # (setup as indices, its last index; -1: none)
    for _ in range(max_turns):
        last = [(setup + (j,), j) for setup, k in last for j in allowed[k]]
        result += [[OUTER[j] for j in setup] for setup, _ in last]
    return result


def follow(d, moves):
    """dest d after phase-2 moves, without the cube: a slice moves midges away from
    their dedges (new[m[h]] = d[h]), an outer turn moves both (new[m[h]] = m[d[h]])."""
    for move in moves:
        mp = _map(move)
        new = [0] * N_HALVES
        if is_slice(move):
            for h in range(N_HALVES):
                new[mp[h]] = d[h]
        else:
            for h in range(N_HALVES):
                new[mp[h]] = mp[d[h]]
        d = new
    return d


def maps(moves):
    """(A, B): the half-slot maps of all the moves and of their outer turns only (the
    half at h goes to A[h])."""
    a, b = list(range(N_HALVES)), list(range(N_HALVES))
    for move in moves:
        mp = _map(move)
        a = [mp[h] for h in a]
        if not is_slice(move):
            b = [mp[h] for h in b]
    return a, b


def paths_checks(paths, moves):
    """[(src, want)] of each path, a list of indices into `moves` (phase-2 moves), 12
    bytes each: after the path the midge of slot s is home iff d[src[s]] == want[s] for
    the dest d before it. From follow: with A the half-slot map of all the moves and B
    of their outer turns only, d'[A[h]] = B[d[h]], so src[s] = A^-1[2s] and want[s] =
    B^-1[2s]; A^-1 is the inverse maps composed last move first, each a
    bytes.translate of the 24 halves (_inverse, looked up once for all the paths)."""
    inverses = [_inverse(m) for m in moves]
    return [_checks([inverses[i] for i in path]) for path in paths]


def _checks(inverses):
    a = b = _HALVES
    for table, outer in reversed(inverses):
        a = a.translate(table)
        if outer:
            b = b.translate(table)
    return a[0:N_HALVES:2], b[0:N_HALVES:2]


def _map(move):
    """The move's half map (half_map), kept in _MAPS."""
    mp = _MAPS.get(move)
    if mp is None:
        mp = _MAPS[move] = half_map(move)
    return mp


def _inverse(move):
    """(translate table of the move's inverse half map, True for an outer turn), kept
    in _INVERSES."""
    found = _INVERSES.get(move)
    if found is None:
        mp = _map(move)
        table = list(range(256))
        for h in range(N_HALVES):
            table[mp[h]] = h
        found = _INVERSES[move] = (bytes(table), not is_slice(move))
    return found


def lookup(d):
    """d as a bytes.translate table: paths_checks' src.translate(lookup(d)) is d[src[s]]
    for every s."""
    return bytes(d) + bytes(256 - N_HALVES)


def parity(d):
    """The parity of the midge permutation (slots) of dest d."""
    return permutation_parity([d[2 * s] // 2 for s in range(N_MIDGES)])


def flips(d):
    """The number of midges flipped in place."""
    return sum(1 for s in range(N_MIDGES) if d[2 * s] == 2 * s + 1)


class MidgeStage(object):
    """Puts every midge next to its dedge by table 3-cycles (the centres must be home)."""

    def __init__(self, table, cores=None):
        self.table = table
        self.cores = cores             # a midgecores.CoreIndex, or None: 3-cycles only
        self.decoded = {}              # cycle key -> its moves, as looked up (at most 24 ** 3)
        self.setups = core_setups() if cores is not None else ()   # the cores' setups
        self._setup_paths = None       # the setups as indices into OUTER (compiled path)

    def cycle(self, a, b, c):
        """The table's moves of the 3-cycle a -> b -> c (a new list each call)."""
        key = midge_key(a, b, c)
        moves = self.decoded.get(key)
        if moves is None:
            value = self.table.get(key)
            if value is None:
                raise TableError("table {} has no midge cycle {}->{}->{}: run `cubebot tables build "
                                 "--size 5`".format(TABLE, a, b, c))
            moves = self.decoded[key] = decode(value, MOVES)
        return list(moves)

    def _choices(self, d):
        """(net midges placed, (a, b, c)) of the 3-cycles worth trying on dest d: those
        that place most if any place some; else (two midges swapped, or flipped in
        place) those that place none but leave a cycle that does."""
        wrong = [h for h in range(N_HALVES) if d[h] != h]
        result = []
        for a in wrong:
            b = d[a]                                   # a's midge goes home to b
            if b == partner(a):
                continue
            for c in range(N_HALVES):
                if c // 2 in (a // 2, b // 2):
                    continue
                net = 1 + (d[b] == c) + (d[c] == a) - (d[c] == c)
                result.append((net, (a, b, c)))
        if any(net > 0 for net, _ in result):
            return [(net, cyc) for net, cyc in result if net > 0]
        result = [(net, cyc) for net, cyc in result if net == 0]
        if not result:                                 # only midges flipped in place
            a = wrong[0]
            result = [(0, (a, b, c)) for b in wrong for c in range(N_HALVES)
                      if len(set((a // 2, b // 2, c // 2))) == 3]
        return result

    def _ranked(self, d, tail, carry=()):
        """[(score, net, moves, cycle)] of the 3-cycles on dest d, fewest turns per midge
        placed first. With `carry` (moves to be made first) d is the dests after them in
        the frame before them, and each cycle is looked up in the frame they leave."""
        carry = list(carry)
        result = []
        base = written_length(tail + carry)
        for net, cyc in self._choices(d):
            moves = self.cycle(*(self._carried(cyc, carry) if carry else cyc))
            cost = written_length(tail + carry + moves) - base
            score = (cost / float(net)) if net > 0 else float(cost)
            result.append((score, net, moves, cyc))
        result.sort(key=lambda r: r[0])
        return result

    def _pair(self, d, tail):
        """Two cycles that together place midges where no single cycle does (two midges
        swapped, or flipped in place). The second is looked up in the frame the first
        leaves (its outer turns move the dedges); the pair is applied as one step."""
        best = None
        base = written_length(tail)
        for _, (a, b, c) in self._choices(d):
            first = self.cycle(a, b, c)
            after = list(d)                    # the dests once a -> b -> c (and partners)
            for x, y, z in ((a, b, c), (partner(a), partner(b), partner(c))):
                after[y], after[z], after[x] = d[x], d[y], d[z]
            lost = wrong(after) - wrong(d)
            carry = self._carried(_HALVES, first)      # each half slot carried along
            costs = {}                         # second cycle's key -> its cost after first
            for net, cyc in self._choices(after):
                if net <= lost:
                    continue
                moved = (carry[cyc[0]], carry[cyc[1]], carry[cyc[2]])
                key = midge_key(*moved)
                cost = costs.get(key)
                if cost is None:
                    cost = costs[key] = written_length(tail + first + self.cycle(*moved)) - base
                if best is None or cost * best[1] < best[0] * (net - lost):
                    best = (cost, net - lost, first + self.cycle(*moved))
        if best is None:
            raise UnsolvableCube("no pair of midge cycles places a midge")
        return best[2]

    def _carried(self, halves, moves):
        """Half slots carried along by the outer turns among `moves`."""
        for m in moves:
            if not is_slice(m):
                mp = _map(m)
                halves = tuple(mp[h] for h in halves)
        return halves

    def solve(self, cube):
        """Phase-2 moves (outer turns and middle slices) that pair every midge with its dedge.

        A beam search over cycles and cores: each cube of the beam (BEAM_WIDTH, fewest
        turns + BEAM_WEIGHT x midges out of place first) takes its BEAM_BRANCH cheapest
        steps per midge placed (_steps; a pair of cycles where none places one), the cube
        read again after
        each; it stops once no cube of the beam can beat the shortest finished one. Every
        step places a midge, so it ends within MAX_STEPS rounds.
        """
        d = dest(cube)
        if parity(d):
            raise UnsolvableCube("the midges are an odd permutation of the dedges")
        if sum(d[2 * s] & 1 for s in range(N_MIDGES)) & 1:
            raise UnsolvableCube("an odd number of midges is flipped against its dedge")
        beam = [([], cube, d)]
        done = None
        for _ in range(MAX_STEPS):
            scored = []
            for solution, cube, d in beam:
                if wrong(d) == 0:
                    if done is None or written_length(solution) < written_length(done):
                        done = solution
                    continue
                for moves in self._steps(d, solution[-TAIL:]):
                    after = apply(cube, written(moves), N)
                    da = dest(after)
                    nxt = simplify(solution + moves)
                    scored.append((written_length(nxt) + BEAM_WEIGHT * wrong(da), nxt, after, da))
            if not scored:
                break
            scored.sort(key=lambda r: r[0])
            if done is not None and written_length(done) <= scored[0][0]:
                break
            beam, seen = [], set()
            for _, solution, cube, d in scored:
                if cube not in seen:
                    seen.add(cube)
                    beam.append((solution, cube, d))
                    if len(beam) == BEAM_WIDTH:
                        break
        if done is None:
            raise UnsolvableCube("the midges were not paired in {} cycles".format(MAX_STEPS))
        return done

    def _steps(self, d, tail):
        """The BEAM_BRANCH best next steps on dest d: table 3-cycles and cores (self.cores)
        that place midges, fewest turns per midge placed first, or else one pair of
        cycles (_pair). Cores are tried as they are and after each setup of up to
        CORE_SETUP_TURNS outer turns (SETUP_COST each, never undone: core_setups),
        ranked by their own turns first; the 2 x BEAM_BRANCH best of both are then
        ranked again with their turns merged with the tail."""
        ranked = [(score, net, moves) for score, net, moves, _ in self._ranked(d, tail) if net > 0]
        if self.cores is not None:
            base = written_length(tail)
            merged = []
            for _, net, moves in self._best_cores(d, ranked, 2 * BEAM_BRANCH):
                if not isinstance(moves, list):
                    setup, i = moves
                    moves = list(setup) + self.cores.moves(i)
                merged.append(((written_length(tail + moves) - base) / float(net), net, moves))
            merged.sort(key=lambda r: r[0])
            ranked = merged
        if ranked:
            return [moves for _, _, moves in ranked[:BEAM_BRANCH]]
        return [self._pair(d, tail)]

    def _best_cores(self, d, ranked, keep):
        """The `keep` entries (score, net, moves or (setup, core index)) with the lowest
        scores among `ranked` (the 3-cycles) and the cores after each setup, ties in that
        order: sorted(all)[:keep], holding at most `keep` of them at a time (a max-heap
        on (score, order))."""
        fast = native()
        if fast is not None:
            return self._best_cores_compiled(fast, d, ranked, keep)
        heap = []                              # (-score, -order, net, moves)
        for order, (score, net, moves) in enumerate(self._candidates(d, ranked)):
            if len(heap) < keep:
                heapq.heappush(heap, (-score, -order, net, moves))
            elif score < -heap[0][0]:
                heapq.heapreplace(heap, (-score, -order, net, moves))
        heap.sort(reverse=True)
        return [(-s, net, moves) for s, _, net, moves in heap]

    def _best_cores_compiled(self, fast, d, ranked, keep):
        """_best_cores with the cores' candidates ranked in C (midgecores.CoreIndex.flat):
        it returns the `keep` best cores by (score, order); merged with `ranked`, which
        all come first in order, the `keep` best of both are those of _best_cores."""
        if self._setup_paths is None:
            index = dict((m, i) for i, m in enumerate(OUTER))
            self._setup_paths = [[index[m] for m in setup] for setup in self.setups]
        maps, _, outer = half_tables(OUTER)
        by, starts, moved, cost = self.cores.flat()
        entries = [(score, order, net, moves) for order, (score, net, moves) in enumerate(ranked)]
        first = len(entries)
        for j, (score, net, s, i) in enumerate(fast.best_cores(d, self._setup_paths, maps, outer, by,
                                                                 starts, moved, cost, SETUP_COST,
                                                                 keep)):
            entries.append((score, first + j, net, (tuple(self.setups[s]), i)))
        entries.sort(key=lambda e: e[:2])
        return [(score, net, moves) for score, _, net, moves in entries[:keep]]

    def _candidates(self, d, ranked):
        """`ranked`, then (score, net, (setup, core index)) of every core that places
        midges after each setup of core_setups() (score: its turns and the setup's per
        midge placed), in that order."""
        for entry in ranked:
            yield entry
        seen = {(): d}                         # setup (as a tuple) -> dest d after it
        cost, placing = self.cores.cost, self.cores.placing
        for setup in self.setups:
            key = tuple(setup)
            if key not in seen:
                seen[key] = follow(seen[key[:-1]], key[-1:])
            extra = SETUP_COST * len(setup)
            for net, i in placing(seen[key]):
                yield (cost[i] + extra) / float(net), net, (key, i)
