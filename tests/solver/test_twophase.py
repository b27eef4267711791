"""The two-phase 3x3x3 search (cubebot.solver.twophase) and its compiled twin (_finish3).

Cubie moves agree with the facelet model; the move tables agree with cubie moves; the
distance tables are consistent distances; every solution found solves its cube (the
solver's facelet model and the independent one); each one found is shorter than the
one before; the compiled search gives the same solutions and node counts as the
reference on random states at small budgets; bad starts raise ValueError and damaged
tables TableError on both paths. Under CI the module must have been built.
"""

import os
import shutil

import pytest

from cubebot.solver import facelets, moves, store, twophase
from cubebot.solver.cubies import from_facelets
from cubebot.solver.errors import TableError
from cubebot.solver.tables import HEADER
from .cubes import check_solves, seeded

needs_module = pytest.mark.skipif(twophase.compiled() is None,
                                  reason="the compiled two-phase search is not built here")
SCRAMBLE_MOVES = 25
TURN_NAMES = [twophase.move_name(m) for m in range(twophase.N_MOVES)]


def scrambled(rng, length=SCRAMBLE_MOVES):
    return moves.apply(facelets.solved(3), " ".join(rng.choice(TURN_NAMES) for _ in range(length)), 3)


@pytest.fixture(scope="module")
def tables(tables_dir):
    opened = twophase.Tables(tables_dir)
    yield opened
    opened.close()


def test_the_module_is_built_under_ci():
    if not os.environ.get("CI"):
        pytest.skip("CI is not set: the module is optional here")
    assert twophase.compiled() is not None, "CI builds the two-phase module (pip install -e .)"


def test_cubie_moves_follow_the_facelet_model():
    rng = seeded(1)
    cubies = twophase.cubie_moves()
    for _ in range(20):
        state = scrambled(rng)
        m = rng.randrange(twophase.N_MOVES)
        after = moves.apply(state, TURN_NAMES[m], 3)
        assert twophase.multiply(from_facelets(state, 3), cubies[m]) == from_facelets(after, 3)


def test_solved_coordinates():
    start = twophase.start_of(from_facelets(facelets.solved(3), 3))
    assert start[:4] == (0, 0, 0, twophase.SOLVED_SLICE)
    assert twophase.phase2_coords(list(range(8)), list(range(12))) == (0, 0, 0)


def test_move_tables_follow_cubie_moves(tables):
    rng = seeded(2)
    cubies = twophase.cubie_moves()
    words = tables.moves.words()
    base, at = {}, 0
    for name, size, n in twophase.MOVE_LAYOUT:
        base[name] = at
        at += size * n
    for _ in range(30):
        cube = from_facelets(scrambled(rng), 3)
        m = rng.randrange(twophase.N_MOVES)
        tw, fl, sl = twophase.phase1_coords(cube)
        after = twophase.phase1_coords(twophase.multiply(cube, cubies[m]))
        got = tuple(words[base[name] + c * twophase.N_MOVES + m]
                    for name, c in (("twist", tw), ("flip", fl), ("slice", sl)))
        assert got == after
        # a cube in G1: the phase-2 coordinates under G1's moves
        g1 = from_facelets(moves.apply(facelets.solved(3), " ".join(
            TURN_NAMES[rng.choice(twophase.PHASE2_MOVES)] for _ in range(15)), 3), 3)
        k = rng.randrange(twophase.N_PHASE2)
        before = twophase.phase2_coords(g1.cp, g1.ep)
        moved = twophase.multiply(g1, cubies[twophase.PHASE2_MOVES[k]])
        got = tuple(words[base[name] + c * twophase.N_PHASE2 + k]
                    for name, c in zip(("cperm", "udedge", "sliceperm"), before))
        assert got == twophase.phase2_coords(moved.cp, moved.ep)


def test_distance_tables_are_consistent(tables):
    """0 only at the goal, and one move changes a distance by at most 1."""
    rng = seeded(3)
    cubies = twophase.cubie_moves()

    def read(k, rank):
        return tables.dist[k][rank]

    assert read(0, twophase.SOLVED_SLICE) == 0 and read(1, twophase.SOLVED_SLICE) == 0
    assert read(2, 0) == 0 and read(3, 0) == 0 and read(4, 0) == 0
    for _ in range(40):
        cube = from_facelets(scrambled(rng), 3)
        m = rng.randrange(twophase.N_MOVES)
        nxt = twophase.multiply(cube, cubies[m])
        for c1, c2 in ((cube, nxt),):
            a, b = twophase.phase1_coords(c1), twophase.phase1_coords(c2)
            pairs = ((0, a[0] * twophase.N_SLICE + a[2], b[0] * twophase.N_SLICE + b[2]),
                     (1, a[1] * twophase.N_SLICE + a[2], b[1] * twophase.N_SLICE + b[2]),
                     (2, a[0] * twophase.N_FLIP + a[1], b[0] * twophase.N_FLIP + b[1]))
            for k, x, y in pairs:
                d1, d2 = read(k, x), read(k, y)
                assert abs(d1 - d2) <= 1 and 0 < max(d1, d2) < 15


def _solve_all(tables, starts, budget, python):
    return twophase.search(tables, starts, budget, max_nodes=300000, python=python)


@pytest.mark.parametrize("python", [True, False])
def test_solutions_solve_and_improve(tables, python):
    if not python and twophase.compiled() is None:
        pytest.skip("the compiled two-phase search is not built here")
    rng = seeded(4)
    for _ in range(3):
        states = [scrambled(rng) for _ in range(2)]
        offsets = [rng.randrange(3), 0]
        starts = [twophase.start_of(from_facelets(s, 3), o) for s, o in zip(states, offsets)]
        found, nodes = _solve_all(tables, starts, 3000, python)
        assert found and nodes > 0
        totals = [offsets[s] + len(path) for s, path in found]
        assert totals == sorted(set(totals), reverse=True)
        for s, path in found:
            check_solves(states[s], moves.parse(" ".join(TURN_NAMES[m] for m in path)))


def test_a_solved_cube_needs_no_moves(tables):
    start = twophase.start_of(from_facelets(facelets.solved(3), 3))
    # one phase-1 node (already in G1) and one phase-2 node (already solved)
    assert twophase.search(tables, [start], 0, python=True) == ([(0, [])], 2)


@needs_module
def test_the_compiled_search_matches_the_reference(tables):
    rng = seeded(5)
    for _ in range(12):
        states = [scrambled(rng) for _ in range(rng.choice([1, 3]))]
        starts = [twophase.start_of(from_facelets(s, 3), rng.randrange(2)) for s in states]
        budget = rng.choice([0, 50, 2000, 8000])
        reference = _solve_all(tables, starts, budget, True)
        assert _solve_all(tables, starts, budget, False) == reference
    # the hard node cap ends a search that has nothing yet, on both paths alike
    starts = [twophase.start_of(from_facelets(scrambled(rng), 3))]
    capped = twophase.search(tables, starts, 0, max_nodes=30, python=True)
    assert capped == ([], 31)
    assert twophase.search(tables, starts, 0, max_nodes=30) == capped


@pytest.mark.parametrize("python", [True, False])
def test_every_solution_within_a_length(tables, python):
    """max_length: many distinct solutions, each within it and solving its cube; the same
    list on both paths."""
    if not python and twophase.compiled() is None:
        pytest.skip("the compiled two-phase search is not built here")
    rng = seeded(7)
    states = [scrambled(rng) for _ in range(2)]
    starts = [twophase.start_of(from_facelets(s, 3), k) for k, s in enumerate(states)]
    first, _ = _solve_all(tables, starts, 2000, python)
    limit = starts[first[-1][0]][0] + len(first[-1][1]) + 1      # a move above the best found
    found, _ = twophase.search(tables, starts, 100000, max_nodes=300000, python=python,
                               max_length=limit)
    assert len(found) > 1 and len(set((s, tuple(p)) for s, p in found)) == len(found)
    for s, path in found:
        assert starts[s][0] + len(path) <= limit
        check_solves(states[s], moves.parse(" ".join(TURN_NAMES[m] for m in path)))
    if not python:
        assert (found, _) == twophase.search(tables, starts, 100000, max_nodes=300000, python=True,
                                             max_length=limit)


@pytest.mark.parametrize("python", [True, False])
def test_bad_starts_are_value_errors(tables, python):
    if not python and twophase.compiled() is None:
        pytest.skip("the compiled two-phase search is not built here")
    good = twophase.start_of(from_facelets(facelets.solved(3), 3))
    for bad in (good[:-1], (0, twophase.N_TWIST) + good[2:], (-1,) + good[1:],
                good[:4] + (0,) * 8 + good[12:]):
        with pytest.raises(ValueError):
            twophase.search(tables, [bad], 100, python=python)


@pytest.fixture
def damaged(tables_dir, tmp_path):
    """A copy of the 3x3-* tables whose twist moves all point out of range."""
    for name in (twophase.MOVE_TABLE,) + twophase.DISTANCE_TABLES:
        shutil.copy(store.table_path(name, tables_dir), str(tmp_path))
    shutil.copy(os.path.join(tables_dir, "manifest.json"), str(tmp_path))
    path = store.table_path(twophase.MOVE_TABLE, str(tmp_path))
    with open(path, "r+b") as fh:
        fh.seek(HEADER.size)
        fh.write(b"\xff\xff" * twophase.N_TWIST * twophase.N_MOVES)
    opened = twophase.Tables(str(tmp_path))
    yield opened
    opened.close()


@pytest.mark.parametrize("python", [True, False])
def test_damaged_tables_are_table_errors(damaged, python):
    if not python and twophase.compiled() is None:
        pytest.skip("the compiled two-phase search is not built here")
    start = twophase.start_of(from_facelets(scrambled(seeded(6)), 3))
    with pytest.raises(TableError, match="3x3-moves"):
        twophase.search(damaged, [start], 100, python=python)


def test_missing_tables_are_table_errors(tmp_path):
    with pytest.raises(TableError, match="3x3-moves"):
        twophase.Tables(str(tmp_path))
