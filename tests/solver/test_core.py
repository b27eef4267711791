"""The compiled search core against the pure-Python path (cubebot.solver.search).

Both paths run on the same states at the same node budgets and must give the same
solutions in the same order, the same node counts and the same BFS bytes; damaged
tables must raise TableError on either path. Under CI (the CI variable set) the
core must have been built.
"""

import os
import random
from array import array

import pytest

from cubebot.solver import api, facelets, moves, scramble, search, solve3
from cubebot.solver.errors import TableError
from cubebot.solver.search import CoordModel, DistanceTable, Rows, coord_bfs, coord_ida
from cubebot.solver.solve4 import reduce as reduce4
from cubebot.solver.solve4.model import N, centre_colours
from cubebot.solver.solve4.orbits import PAIR_MOVES, OrbitMover
from cubebot.solver.solve4.pieces import wing_positions
from .cubes import check_solves, disguise, seeded

needs_core = pytest.mark.skipif(search.core() is None, reason="the compiled core is not built here")


def both(monkeypatch, run):
    """run() on the compiled path and on the pure-Python one: (compiled, python)."""
    monkeypatch.delenv(search.PURE_PYTHON_ENV, raising=False)
    compiled = run()
    monkeypatch.setenv(search.PURE_PYTHON_ENV, "1")
    assert search.core_path() == search.PYTHON
    python = run()
    monkeypatch.delenv(search.PURE_PYTHON_ENV)
    return compiled, python


def test_the_core_is_built_under_ci():
    if not os.environ.get("CI"):
        pytest.skip("CI is not set: the core is optional here")
    assert search.core() is not None, "CI builds the compiled core (pip install -e .)"


def test_the_env_var_forces_python(monkeypatch):
    monkeypatch.setenv(search.PURE_PYTHON_ENV, "1")
    assert search.core() is None and search.core_path() == search.PYTHON
    monkeypatch.setenv(search.PURE_PYTHON_ENV, "0")
    assert search.core_path() == (search.PYTHON if search.core() is None else search.COMPILED)


@pytest.fixture(scope="module")
def reducer(tables_dir):
    r = reduce4.Reducer(tables_dir)
    yield r
    r.release()


def _pairs_states(reducer, count, seed):
    """Search states of the 4x4x4 pairs stage: a solved cube turned by random pairs
    moves (each state with the moves that made it)."""
    rng, orbit = random.Random(seed), OrbitMover(PAIR_MOVES)
    pairs = reducer.pairs
    cube = facelets.solved(N)
    start = orbit.start(reducer.centre_stage.start(centre_colours(cube)), wing_positions(cube), 0)
    out = []
    for _ in range(count):
        path = [rng.randrange(len(PAIR_MOVES)) for _ in range(rng.randrange(6, 14))]
        state = start
        for i in path:
            state = orbit.apply(state, i)
        out.append((pairs.start(state), moves.apply(cube, [PAIR_MOVES[i] for i in path], N)))
    return out


@needs_core
@pytest.mark.parametrize("budget", [None, 300, 5000])
def test_pairs_stage_same_solutions_and_nodes(reducer, monkeypatch, budget):
    pairs = reducer.pairs
    for state, cube in _pairs_states(reducer, 6, 7 + (budget or 0)):
        coords = pairs.coords(state)

        def run(coords=coords):
            stats = search.Stats()
            found = coord_ida(pairs.model, coords, max_cost=20, max_solutions=4, stats=stats,
                              max_nodes=budget, cheapest_only=True, more_nodes=2000)
            return found, stats.nodes

        compiled, python = both(monkeypatch, run)
        assert compiled == python
        # and the stage's own search over its mask states gives the same solutions
        h, stats = pairs.heuristic, search.Stats()
        own = list(search.ida_star(state, pairs.moves, pairs.apply, h, lambda s, h=h: h(s) == 0,
                                   max_cost=20, max_solutions=4, cheapest_only=True,
                                   more_nodes=2000, stats=stats,
                                   stop=None if budget is None else lambda stats=stats: stats.nodes > budget))
        assert (own, stats.nodes) == compiled
        for solution in compiled[0]:
            # applied back to the cube: the pairs stage's goal (its bound is 0 only there)
            assert pairs.heuristic(pairs.start(state_of(reducer, moves.apply(cube, solution, N)))) == 0


def state_of(reducer, cube):
    """The pairs-stage orbit state of a cube."""
    from cubebot.solver.solve4.reduce import corner_parity
    return OrbitMover(PAIR_MOVES).start(reducer.centre_stage.start(centre_colours(cube)),
                                        wing_positions(cube), corner_parity(cube))


@needs_core
def test_slack_and_min_cost_and_all_solutions(reducer, monkeypatch):
    pairs, solved = reducer.pairs, 0
    for state, _ in _pairs_states(reducer, 3, 99):
        coords = pairs.coords(state)
        low = pairs.model.heuristic(coords)

        def run(coords=coords, low=low):
            stats = search.Stats()
            got = coord_ida(pairs.model, coords, max_cost=low + 4, max_solutions=None,
                            stats=stats, min_cost=low + 1, max_nodes=20000)
            return got, stats.nodes

        compiled, python = both(monkeypatch, run)
        assert compiled == python
        solved += len(compiled[0]) > 1
    assert solved


@needs_core
@pytest.mark.parametrize("seed", [5, 6])
def test_whole_4x4x4_solve_is_the_same_on_both_paths(tables_dir, monkeypatch, seed):
    # the search core's paths: the finish is kociemba's on both (the two-phase finish has its
    # own differential tests, tests/solver/test_twophase.py)
    monkeypatch.setattr(solve3, "finish_path", lambda: solve3.KOCIEMBA)
    state = disguise(scramble.random_state(N, seeded(seed)), seeded(seed + 100))
    compiled, python = both(monkeypatch, lambda: api.solve(state).moves)
    assert compiled == python
    check_solves(state, compiled)


def _random_model(rng, sizes, n_moves):
    """A model of random permutation moves on small coordinates, its table the exact
    distance of the product (built by the Python BFS)."""
    rows = []
    for size in sizes:
        perms = [rng.sample(range(size), size) for _ in range(n_moves)]
        rows.append(Rows.of([perms[i][c] for c in range(size) for i in range(n_moves)], size))
    return rows


def _model(rows, dist, bits=8):
    sizes = [r.size for r in rows]
    terms, mult = [], 1
    for k in reversed(range(len(sizes))):
        terms.append((k, mult, None))
        mult *= sizes[k]
    return CoordModel(list(PAIR_MOVES[:len(rows[0].entries) // rows[0].size]), rows,
                      [DistanceTable(dist, 0, bits, terms)])


@needs_core
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bfs_same_bytes(monkeypatch, seed):
    rng = random.Random(seed)
    n_moves = 4
    rows = _random_model(rng, [rng.randrange(3, 12) for _ in range(3)], n_moves)
    probe = _model(rows, bytes(1))
    goals = sorted(rng.sample(range(probe.n_states), 2))
    depth = None if seed != 3 else 2
    compiled, python = both(monkeypatch, lambda: coord_bfs(probe, goals, max_depth=depth))
    assert isinstance(compiled, bytearray) and compiled == python
    assert compiled[goals[0]] == 0 and len(compiled) == probe.n_states


@needs_core
def test_bfs_of_the_pairs_coordinates_matches_the_table_builder(reducer, monkeypatch):
    """(E rank, bit) of the pairs stage: the BFS of its rows, compiled and in Python,
    against tables.bfs over neighbours written from the stage's own move parts."""
    from cubebot.solver.solve4.pairs import N_BIT, N_E, N_MOVES
    from cubebot.solver.tables import bfs
    pairs = reducer.pairs
    rows = pairs.model.rows[4:]
    model = CoordModel(pairs.moves, rows, [DistanceTable(bytes(N_E * N_BIT), 0, 8,
                                                         ((0, N_BIT, None), (1, 1, None)))])
    compiled, python = both(monkeypatch, lambda: coord_bfs(model, [0]))

    def neighbours(r):
        e, bit = divmod(r, N_BIT)
        return [pairs.e[i][e] * N_BIT + (bit ^ pairs.flips[i]) for i in range(N_MOVES)]

    assert compiled == python == bfs([0], neighbours, n_states=N_E * N_BIT)


@needs_core
def test_ida_on_random_models_same_solutions(monkeypatch):
    rng = random.Random(11)
    for _ in range(5):
        rows = _random_model(rng, [rng.randrange(4, 10) for _ in range(2)], 6)
        probe = _model(rows, bytes(1))
        dist = coord_bfs(probe, [0])
        model = _model(rows, bytes(dist))
        start = probe.unrank(rng.randrange(probe.n_states))
        if dist[probe.rank(start)] == 255:
            continue
        compiled, python = both(monkeypatch, lambda model=model, start=start: coord_ida(
            model, start, max_cost=12, max_solutions=10))
        assert compiled == python
        for solution in compiled:
            state = start
            for m in solution:
                state = model.apply(state, model.moves.index(m))
            assert model.rank(state) == 0


# ---------------------------------------------------------------- damaged tables

def _pairs_like(reducer):
    pairs = reducer.pairs
    state = _pairs_states(reducer, 1, 3)[0][0]
    return pairs, pairs.coords(state)


def _with(model, rows=None, tables=None):
    return CoordModel(model.moves, rows or model.rows, tables or model.tables)


def _on_both(monkeypatch, run):
    for pure in ("", "1"):
        monkeypatch.setenv(search.PURE_PYTHON_ENV, pure)
        with pytest.raises(TableError):
            run()


def test_truncated_move_table_is_a_table_error(reducer, monkeypatch):
    pairs, coords = _pairs_like(reducer)
    rows = list(pairs.model.rows)
    whole = bytes(array("H", list(rows[3].entries)))
    cut = whole[:len(whole) // 3]
    rows[3] = Rows(cut, 0, 2, rows[3].size)
    model = _with(pairs.model, rows=rows)
    _on_both(monkeypatch, lambda: coord_ida(model, coords, max_cost=20))


def test_truncated_distance_table_is_a_table_error(reducer, monkeypatch):
    pairs, coords = _pairs_like(reducer)
    tables = list(pairs.model.tables)
    t = tables[2]
    tables[2] = DistanceTable(bytes(t.buffer[:t.offset + 1000]), t.offset, 4, t.terms)
    model = _with(pairs.model, tables=tables)
    _on_both(monkeypatch, lambda: coord_ida(model, coords, max_cost=20))


@needs_core
def test_garbage_move_table_is_a_table_error(reducer, monkeypatch):
    pairs, coords = _pairs_like(reducer)
    rows = list(pairs.model.rows)
    rng = random.Random(4)
    garbage = bytes(rng.randrange(256) for _ in range(rows[3].size * len(pairs.moves) * 2))
    rows[3] = Rows(garbage, 0, 2, rows[3].size)
    model = _with(pairs.model, rows=rows)
    monkeypatch.delenv(search.PURE_PYTHON_ENV, raising=False)
    with pytest.raises(TableError):
        coord_ida(model, coords, max_cost=20)
    alone = CoordModel(pairs.moves, rows[3:4], [DistanceTable(bytes(1), 0, 8, ((0, 1, None),))])
    with pytest.raises(TableError):
        coord_bfs(alone, [0])


def test_a_state_outside_the_coordinates_is_a_table_error(reducer, monkeypatch):
    pairs, coords = _pairs_like(reducer)
    bad = coords[:3] + (pairs.model.sizes[3],) + coords[4:]
    _on_both(monkeypatch, lambda: coord_ida(pairs.model, bad, max_cost=20))


def test_a_missing_rank_is_a_table_error(reducer, monkeypatch):
    pairs, coords = _pairs_like(reducer)
    tables = list(pairs.model.tables)
    t = tables[1]
    terms = [(c, m, None if r is None else [None] * len(r)) for c, m, r in t.terms]
    tables[1] = DistanceTable(t.buffer, t.offset, 4, terms)
    model = _with(pairs.model, tables=tables)
    _on_both(monkeypatch, lambda: coord_ida(model, coords, max_cost=20))


# ---------------------------------------------------------------- the T-pair beam (5x5x5)

@pytest.fixture(scope="module")
def tpair_stage(tables_dir):
    from cubebot.solver.solve5 import tpairs
    return tpairs.TPairStage.opened(tables_dir)


@needs_core
@pytest.mark.parametrize("seed", [21, 22])
def test_tpair_beams_same_solutions(tpair_stage, monkeypatch, seed):
    from cubebot.solver.solve5 import reduce as reduce5, stages, tpairs
    cube = reduce5.label(scramble.random_state(5, seeded(seed)))
    start = tpairs.ranks("".join(cube[f] for f in tpairs.T_CENTRES))
    for ranking, width, weight in tpairs.TRIES[:3] + tpairs.EXTRA:
        compiled, python = both(monkeypatch, lambda r=ranking, w=width, x=weight: tpair_stage._run(
            start, r, w, x, tpairs.CHOICES))
        assert compiled == python
        for solution in compiled:
            # applied back to the cube: every T-pair one colour
            assert stages.pairs_one_colour(moves.apply(cube, tpairs.written(solution), 5))
    compiled, python = both(monkeypatch, lambda: tpair_stage.solutions(cube))
    assert compiled == python and compiled


@needs_core
def test_rank_beam_on_a_small_random_table(monkeypatch):
    """A made-up table of 50 ranks and 7 steps: both paths, widths 1 to 5, the same paths."""
    rng = random.Random(8)
    n, n_steps = 50, 7
    words = array("H", [rng.randrange(n) for _ in range(n * n_steps)])
    data = bytes(search._little(words))
    units = [rng.randrange(3) for _ in range(n)]
    units[0] = 0
    turns = [rng.randrange(1, 4) for _ in range(n_steps)]

    def row(r):
        return list(words[r * n_steps:(r + 1) * n_steps])

    answered = 0
    for width in range(1, 6):
        start = tuple(rng.randrange(1, n) for _ in range(3))
        compiled, python = both(monkeypatch, lambda w=width, s=start: search.rank_beam(
            s, row, units, turns, 0.5, w, 4, 12, 2, 1, table=(data, 0)))
        assert compiled == python
        answered += compiled is not None
        for path in compiled or ():
            state = start
            for k in path:
                state = tuple(row(r)[k] for r in state)
            assert sum(units[r] for r in state) == 0
    assert answered


def test_a_damaged_beam_table_is_a_table_error(monkeypatch):
    if search.core() is None:
        pytest.skip("the compiled core is not built here")
    units, turns = [0, 1, 1], [1, 1]
    with pytest.raises(TableError):      # rows for 3 ranks x 2 steps need 6 words
        search.rank_beam((1, 2), None, units, turns, 1.0, 2, 1, 5, 2, 0, table=(bytes(8), 0))
    garbage = bytes(array("H", [1, 2, 9, 0, 1, 2]))       # rank 9 of 3
    with pytest.raises(TableError):
        search.rank_beam((1, 1), None, units, turns, 1.0, 2, 1, 5, 2, 0, table=(garbage, 0))


# ---------------------------------------------------------------- the 4x4x4 centres-ud descent

@needs_core
@pytest.mark.parametrize("longer", [0, 1])
def test_centres_ud_descent_same_solutions(reducer, monkeypatch, longer):
    ranked = reducer.ud_ranked
    rng = random.Random(30 + longer)
    for _ in range(20):
        start = rng.randrange(len(ranked.distance))
        d = ranked.distance[start]
        if d > 15:
            continue

        def run(start=start, d=d):
            return search.coord_descend(ranked.model, (start,), 50, d + longer)

        compiled, python = both(monkeypatch, run)
        assert compiled == python
        # the stage's own descent over its ranks gives the same solutions
        assert compiled == search.descend(start, ranked.moves, ranked.apply,
                                          ranked.distance.__getitem__, 50, d + longer)
        for solution in compiled:
            state = start
            for m in solution:
                state = ranked.apply(state, ranked.moves.index(m))
            assert ranked.distance[state] == 0 and len(solution) == d + longer


def test_a_damaged_descent_table_is_a_table_error(reducer, monkeypatch):
    ranked = reducer.ud_ranked
    rows = ranked.model.rows[0]
    cut = Rows(bytes(array("H", list(rows.entries)[:1000])), 0, 2, rows.size)
    model = CoordModel(ranked.moves, [cut], ranked.model.tables)
    start = next(r for r in range(len(ranked.distance) - 1, 0, -1) if 0 < ranked.distance[r] < 15)
    _on_both(monkeypatch, lambda: search.coord_descend(model, (start,), 5))
