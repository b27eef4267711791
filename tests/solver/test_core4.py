"""The 4x4x4 stages the compiled core runs, against their pure-Python path.

The wing and slice searches (search.stage_ida), the centres-lr descents
(search.stage_descend) and the centres-ud choice (the core's ud_choose) run on
random states on both paths at equal node budgets: the same solutions in the same
order and the same node counts. Every solution is applied back to the stage's own
state. Damaged tables raise TableError in the core, never a crash.
"""

import random
from array import array

import pytest

from cubebot.solver import moves, scramble, search
from cubebot.solver.errors import TableError
from cubebot.solver.solve4 import reduce as reduce4
from cubebot.solver.solve4.model import N, centre_colours
from cubebot.solver.solve4.orbits import PHASE3_MOVES
from cubebot.solver.solve4.pieces import label, wing_parity, wing_positions
from .cubes import seeded
from .test_core import both

needs_core = pytest.mark.skipif(search.core() is None, reason="the compiled core is not built here")


@pytest.fixture(scope="module")
def reducer(tables_dir):
    r = reduce4.Reducer(tables_dir)
    yield r
    r.release()


def _scrambled(rng, move_set, low, high):
    """A solved 4x4x4 turned by low..high random moves of move_set."""
    from cubebot.solver.facelets import solved
    path = [rng.choice(move_set) for _ in range(rng.randrange(low, high))]
    return moves.apply(solved(N), path, N)


def _wing_cubes(reducer, count, seed):
    """Cubes with every centre on its axis and the wings even: the wing stage's input."""
    rng = seeded(seed)
    return [_scrambled(rng, reducer.wings.moves, 12, 30) for _ in range(count)]


@needs_core
@pytest.mark.parametrize("budget", [None, 400, 5000])
def test_wing_stage_same_solutions_and_nodes(reducer, monkeypatch, budget):
    ws = reducer.wings
    solved_some = 0
    for cube in _wing_cubes(reducer, 8, 40 + (budget or 0)):
        start = ws.start(centre_colours(cube), wing_positions(cube))

        def run(start=start):
            stats = search.Stats()
            found = search.stage_ida(ws, start, max_cost=15, max_solutions=4, stats=stats,
                                     max_nodes=budget, cheapest_only=True)
            return found, stats.nodes

        compiled, python = both(monkeypatch, run)
        assert compiled == python
        for solution in compiled[0]:
            state = start
            for move in solution:
                state = ws.apply(state, ws.moves.index(move))
            assert ws.heuristic(state) == 0
            # applied back to the cube: every edge has a wing in each orbit (the slice
            # stage's start raises UnsolvableCube otherwise)
            after = moves.apply(cube, solution, N)
            reducer.orbit.start(reducer.centre_stage.start(centre_colours(after)),
                                wing_positions(after), 0)
            solved_some += 1
    assert solved_some


def _orbit_states(reducer, count, seed):
    """Orbit states of cubes turned by random phase-3 moves (the slice stage's input)."""
    rng = seeded(seed)
    out = []
    for _ in range(count):
        cube = _scrambled(rng, PHASE3_MOVES, 15, 30)
        out.append(reducer.orbit.start(reducer.centre_stage.start(centre_colours(cube)),
                                       wing_positions(cube), reduce4.corner_parity(cube)))
    return out


@needs_core
@pytest.mark.parametrize("budget", [None, 500, 20000])
def test_slice_stage_same_solutions_and_nodes(reducer, monkeypatch, budget):
    sl = reducer.slice
    solved_some = 0
    for state in _orbit_states(reducer, 6, 60 + (budget or 0)):
        start = sl.start(state)
        low = sl.heuristic(start)

        def run(start=start, low=low):
            stats = search.Stats()
            found = search.stage_ida(sl, start, max_cost=low + 1, max_solutions=20, stats=stats,
                                     max_nodes=budget, cheapest_only=True, more_nodes=3000,
                                     min_cost=low)
            return found, stats.nodes

        compiled, python = both(monkeypatch, run)
        assert compiled == python
        for solution in compiled[0]:
            assert sl.heuristic(reducer.orbit.follow(start, solution)) == 0
            solved_some += 1
    if budget is None:
        assert solved_some


@needs_core
def test_slice_bound_is_the_same_in_the_core(reducer):
    sl, lib = reducer.slice, search.core()
    rng = random.Random(3)
    for state in _orbit_states(reducer, 5, 70):
        sl.start(state)             # chooses the sets of edges the bound reads
        for _ in range(20):
            state = reducer.orbit.apply(state, rng.randrange(len(PHASE3_MOVES)))
            assert lib.mask_bound(sl.core_spec(), sl.core_state(state)) == sl.heuristic(state)


@needs_core
@pytest.mark.parametrize("longer", [0, 1])
def test_centres_lr_descent_same_solutions(reducer, monkeypatch, longer):
    lr = reducer.lr_search
    for seed in range(4):
        cube, _ = label(scramble.random_state(N, seeded(80 + seed)))
        start = reducer.lr.start(centre_colours(cube))
        d = lr.heuristic(start)
        compiled, python = both(monkeypatch, lambda s=start, d=d: search.stage_descend(lr, s, 60, d + longer))
        assert compiled == python and compiled
        for solution in compiled:
            after = moves.apply(cube, solution, N)
            assert lr.heuristic(reducer.lr.start(centre_colours(after))) == 0
            assert len(solution) == d + longer


@needs_core
def test_centres_ud_choice_is_the_same(reducer, monkeypatch):
    chosen = 0
    for seed in range(6):
        cube, _ = label(scramble.random_state(N, seeded(90 + seed)))
        lr_moves = reducer._exact(reducer.lr_search, reducer.lr_table,
                                  reducer.lr.start(centre_colours(cube)))[0]
        after = moves.apply(cube, lr_moves, N)
        ud_state = reducer.ud.start(centre_colours(after), wing_parity(wing_positions(after)))
        start = reducer.ud.rank(ud_state)
        for extra in (0, 2, 6):
            budget = reducer.ud_ranked.distance[start] + extra
            compiled, python = both(monkeypatch, lambda a=after, s=start, b=budget: reducer._centres_ud(a, s, b))
            assert compiled == python
            if compiled is not None:
                chosen += 1
                m_ud, cube_after = compiled
                assert cube_after == moves.apply(after, m_ud, N) and len(m_ud) <= budget
    assert chosen


# ---------------------------------------------------------------- damaged tables

def _wing_start(reducer):
    ws = reducer.wings
    cube = _wing_cubes(reducer, 1, 5)[0]
    return ws, ws.start(centre_colours(cube), wing_positions(cube))


class _Patched(object):
    """A stage whose core spec is replaced (the Python stage otherwise)."""

    def __init__(self, stage, spec):
        self.stage, self.spec = stage, spec
        self.moves = stage.moves

    def core_spec(self):
        return self.spec

    def core_state(self, state):
        return self.stage.core_state(state)


@needs_core
def test_a_truncated_eo_table_is_a_table_error(reducer):
    ws, start = _wing_start(reducer)
    spec = list(ws.core_spec())
    tables = list(spec[4])
    buffer, offset, terms = tables[0]
    tables[0] = (bytes(buffer[offset:offset + 5000]), 0, terms)
    spec[4] = tuple(tables)
    with pytest.raises(TableError):
        search.stage_ida(_Patched(ws, tuple(spec)), start, max_cost=15)


@needs_core
def test_a_garbage_mover_is_a_table_error(reducer):
    ws, start = _wing_start(reducer)
    spec = list(ws.core_spec())
    rng = random.Random(9)
    spec[1] = (array("i", [rng.randrange(-5, 1 << 26) for _ in range(len(ws.moves) * 768)]),) + spec[1][1:]
    with pytest.raises(TableError):
        search.stage_ida(_Patched(ws, tuple(spec)), start, max_cost=15)
    spec[1] = (array("i", [0] * 100),) + spec[1][1:]        # short
    with pytest.raises(TableError):
        search.stage_ida(_Patched(ws, tuple(spec)), start, max_cost=15)


@needs_core
def test_a_damaged_slice_set_table_is_a_table_error(reducer):
    sl = reducer.slice
    state = _orbit_states(reducer, 1, 71)[0]
    start = sl.start(state)
    spec = list(sl.core_spec())
    buffer, offset, by_mask, subsets = spec[6]
    spec[6] = (buffer, offset, array("i", [-1] * len(by_mask)), subsets)
    with pytest.raises(TableError):
        search.stage_ida(_Patched(sl, tuple(spec)), start, max_cost=12)
    spec[6] = (bytes(buffer[offset:offset + 100]), 0, by_mask, subsets)
    with pytest.raises(TableError):
        search.stage_ida(_Patched(sl, tuple(spec)), start, max_cost=12)


@needs_core
def test_a_state_outside_its_ranges_is_a_table_error(reducer):
    sl = reducer.slice
    start = sl.start(_orbit_states(reducer, 1, 72)[0])
    masks, a, b, cp = start
    bad = (masks, a[:-1] + (a[0],), b, cp)          # not a permutation of the A indices
    with pytest.raises(TableError):
        search.stage_ida(sl, bad, max_cost=12)


@needs_core
def test_a_damaged_centres_ud_choice_is_a_table_error(reducer):
    ws, ud = reducer.wings, reducer.ud
    spec = list(ws.choice_spec(ud))
    spec[2] = bytes([200]) * len(spec[2])             # wing maps beyond the 24 slots
    cube, _ = label(scramble.random_state(N, seeded(3)))
    choose = search.core_function("ud_choose")
    masks = tuple(ws.centres.cs.start(centre_colours(cube)))
    with pytest.raises(TableError):
        choose(tuple(spec), [[0, 1]], masks, tuple(wing_positions(cube)), 20)


@needs_core
def test_slice_sets_are_chosen_the_same_in_the_core(reducer, monkeypatch):
    sl = reducer.slice
    for state in _orbit_states(reducer, 6, 73):
        compiled, python = both(monkeypatch, lambda s=state: (sl.start(s), list(sl.subsets))[1])
        assert compiled == python and compiled


class _CutTable(object):
    """A 4-bit table cut short (the first `keep` bytes of its entries)."""

    def __init__(self, table, keep):
        buffer, offset = table.nibbles()
        self.data = bytes(buffer[:offset + keep])
        self.offset = offset

    def nibbles(self):
        return self.data, self.offset


def test_a_truncated_wing_table_is_a_table_error_on_either_path(reducer, monkeypatch):
    from cubebot.solver.solve4.wings import WingStage
    ws, start = _wing_start(reducer)
    cut = WingStage(_CutTable(ws.eo_table, 1000), ws.centre_table)
    for pure in ("", "1"):
        monkeypatch.setenv(search.PURE_PYTHON_ENV, pure)
        with pytest.raises(TableError):
            search.stage_ida(cut, start, max_cost=15)
