"""The compiled loops of the 5x5x5's phase 2 (solver/_solve5.c) against their Python.

Both paths run on the same random phase-2 states at the same node budgets and must give
the same solutions in the same order; every whole phase-2 solution is applied back to
the 5x5x5 model. Damaged tables and arguments must raise ValueError, never crash.
Under CI (the CI variable set) the module must have been built.
"""

import os
import random
from array import array

import pytest

from cubebot.solver import moves, search
from cubebot.solver.solve5 import midgecores, midges, pairsearch, stages, tcentres
from cubebot.solver.solve5.slices import MOVES, OUTER, written
from cubebot.solver.store import open_dense, open_records
from .test_solve5_middle import HALF_SLICES, N, SOLVED, reduced, scrambled

needs_module = pytest.mark.skipif(midges.native() is None, reason="the compiled 5x5x5 loops are not built here")


def both(monkeypatch, run):
    """run() on the compiled path and on the pure-Python one: (compiled, python)."""
    monkeypatch.delenv(search.PURE_PYTHON_ENV, raising=False)
    assert midges.native() is not None
    compiled = run()
    monkeypatch.setenv(search.PURE_PYTHON_ENV, "1")
    assert midges.native() is None
    python = run()
    monkeypatch.delenv(search.PURE_PYTHON_ENV)
    return compiled, python


def test_the_module_is_built_under_ci():
    if not os.environ.get("CI"):
        pytest.skip("CI is not set: the module is optional here")
    assert midges.native() is not None, "CI builds the compiled 5x5x5 loops (pip install -e .)"


def test_the_env_var_forces_python(monkeypatch):
    monkeypatch.setenv(search.PURE_PYTHON_ENV, "1")
    assert midges.native() is None


@needs_module
@pytest.mark.parametrize("seed", [41, 42, 43, 44])
def test_phase_2_gives_the_same_solution_on_both_paths(tables_dir, seed, monkeypatch):
    # at equal budgets: the cores' setups as long on both paths
    monkeypatch.setattr(midges, "COMPILED_SETUP_TURNS", midges.CORE_SETUP_TURNS)
    state = scrambled(seed)
    compiled, python = both(monkeypatch, lambda: stages.MiddleSolver().stages(state))
    assert compiled == python
    solution = written(stages.joined(compiled))
    assert reduced(moves.apply(state, solution, N))


@needs_module
@pytest.mark.parametrize("seed", [51, 52])
def test_the_axes_search_is_the_same_at_equal_budgets(tables_dir, seed, monkeypatch):
    cube = stages.MiddleSolver().relabel(scrambled(seed))
    stage = tcentres.AxesStage()
    walk = pairsearch.AxesWalk(stage, open_dense(stage.table))
    for nodes, count, slack in ((20000, 30, 0), (20000, 400, 1), (3000, 2000, 1), (0, 5, 0),
                                (60000, 1500, 1), (500, 50, 2)):
        compiled, python = both(monkeypatch, lambda n=nodes, c=count, s=slack: walk.paths(cube, n, c, s))
        assert compiled == python and compiled


@needs_module
@pytest.mark.parametrize("seed", [53, 54])
def test_the_pairs_walk_is_the_same_at_equal_budgets(tables_dir, seed, monkeypatch):
    cube = stages.MiddleSolver().relabel(scrambled(seed, list(OUTER) + HALF_SLICES))
    stage = tcentres.PairsStage()
    walk = pairsearch.RankWalk(stage, open_dense(stage.table))
    start = pairsearch.stage_start(stage, cube)
    for slack, count, nodes in ((0, 30, 10 ** 6), (2, 400, 20000), (2, 400, 300), (1, 5, 0)):
        compiled, python = both(monkeypatch, lambda s=slack, c=count, n=nodes: walk.paths(start, s, c, n))
        assert compiled == python and compiled


@needs_module
@pytest.mark.parametrize("seed", [55, 56, 57])
def test_the_midge_loops_are_the_same(tables_dir, seed, monkeypatch):
    # cores and outer turns from a solved cube: the centres stay home
    rng = random.Random(seed)
    index = midgecores.core_index(open_records(midgecores.TABLE))
    turns = []
    for _ in range(6):
        turns += index.moves(rng.randrange(len(index.values))) + [rng.choice(OUTER)]
    cube = moves.apply(SOLVED, written(turns), N)
    d = midges.dest(cube)
    stage = midges.MidgeStage(open_records(midges.TABLE), index)
    ranked = [(s, net, m) for s, net, m, _ in stage._ranked(d, [])][:5]
    for turns in (midges.COMPILED_SETUP_TURNS, midges.CORE_SETUP_TURNS):
        stage.setups, stage._setup_paths = midges.core_setups(turns), None
        for keep in (1, 12, 40):
            compiled, python = both(monkeypatch, lambda k=keep: stage._best_cores(d, ranked, k))
            assert compiled == python
    paths = [[rng.randrange(len(MOVES)) for _ in range(rng.randrange(12))] for _ in range(50)]

    def packed():
        ways = pairsearch.PairWays(MOVES, paths)
        return ways.srcs, ways.wants, ways.turns, ways.codes, ways.width

    compiled, python = both(monkeypatch, packed)
    assert compiled == python
    compiled, python = both(monkeypatch, lambda: stage.solve(cube))
    assert compiled == python
    assert reduced(moves.apply(cube, written(compiled), N))


@needs_module
@pytest.mark.parametrize("seed", [61, 62])
def test_the_centre_stages_keep_the_same_best(tables_dir, seed, monkeypatch):
    cube = stages.MiddleSolver().relabel(scrambled(seed))
    walks = stages.centre_walks(stages._tables())
    for count, nodes in ((6, None), (40, 5000), (1, 300)):
        compiled, python = both(monkeypatch, lambda c=count, n=nodes: stages.centre_stages(walks, cube, n, c, {}))
        assert compiled == python and len(compiled) == count


@needs_module
def test_bad_tables_and_arguments_raise_value_error(tables_dir):
    fast = midges.native()
    _, inverses, outer = midges.half_tables(MOVES)
    d = list(range(24))
    costs = bytes(len(outer))
    with pytest.raises(ValueError):
        fast.pack_ways([[0, -1]], inverses, outer, costs)       # a move past the maps
    with pytest.raises(ValueError):
        fast.pack_ways([[0]], b"\x63" * len(inverses), outer, costs)   # a map past 23
    with pytest.raises(ValueError):
        fast.pack_ways([[0] * 300], inverses, outer, b"\x01" * len(outer))   # turns past a byte
    dests = bytes(d)
    with pytest.raises(ValueError):                             # a src past 23
        fast.best_pairs([(b"\x40" * 12, b"\x00" * 12, b"\x01")], dests, [0], bytes(256), 3)
    with pytest.raises(ValueError):                             # a score past one byte
        fast.best_pairs([(b"\x00" * 12, b"\x01" * 12, b"\xf0")], dests, [0], bytes([200] * 256), 3)
    with pytest.raises(ValueError):                             # a dest past 23
        fast.best_pairs([(b"\x00" * 12, b"\x01" * 12, b"\x01")], b"\x30" * 24, [0], bytes(256), 3)
    axes = tcentres.AxesStage()
    spec = pairsearch.axes_spec(axes)
    amaps, _, aouter = midges.half_tables(axes.moves)
    with pytest.raises(ValueError):                             # a path past the moves
        fast.axes_follow([[0, 99]], spec[0], spec[5], spec[6], (0, 0, 0, 0), d, amaps, aouter)
    with pytest.raises(ValueError):                             # a mask past 12 bits
        fast.axes_follow([[0]], spec[0], spec[5], spec[6], (1 << 12, 0, 0, 0), d, amaps, aouter)
    index = midgecores.core_index(open_records(midgecores.TABLE))
    by, starts, moved, cost = index.flat()
    omaps, _, oouter = midges.half_tables(OUTER)
    bad = array("i", by)
    bad[0] = len(cost) + 5
    with pytest.raises(ValueError):
        fast.best_cores(d[:2][::-1] + d[2:], [[]], omaps, oouter, bad, starts, moved, cost, 1, 12)
    with pytest.raises(ValueError):
        fast.best_cores(d, [[99]], omaps, oouter, by, starts, moved, cost, 1, 12)
    stage = tcentres.PairsStage()
    rows = array("H", pairsearch.all_rows(stage))
    cost_bytes = open_dense(stage.table).unpacked()
    allowed = search.successors(stage.moves)
    costs = bytes(stage.costs)
    with pytest.raises(ValueError):
        fast.rank_walk(rows, len(stage.moves), cost_bytes, costs, allowed, len(cost_bytes), 0, 1, 100)
    rows[5] = 60000
    with pytest.raises(ValueError):
        fast.rank_walk(rows, len(stage.moves), cost_bytes, costs, allowed, 0, 0, 1, 100)
    table = open_dense(axes.table)
    buffer, offset = table.nibbles()
    spec = pairsearch.axes_spec(axes)
    with pytest.raises(ValueError):                         # a table cut short
        fast.axes_search(spec + (b"\x11" * 100, 0, search.successors(axes.moves)), (15, 240, 0),
                         1, 100, 1, 40, 1)
    with pytest.raises(ValueError):                         # not 4 of 12 pairs
        fast.axes_search(spec + (buffer, offset, search.successors(axes.moves)), (1, 240, 0),
                         1, 100, 1, 40, 1)
    with pytest.raises(ValueError):                         # a successor past the moves
        fast.axes_search(spec + (buffer, offset, ((99,),) * (len(axes.moves) + 1)), (15, 240, 0),
                         1, 100, 1, 40, 1)
