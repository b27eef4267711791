"""The 7x7x7 centres solved after the staging (solver/big/tablesolve.py `Solving7`, the
compiled `sub_ida` of solver/_stage.c).

Sub-masks move as the independent cube model (bench/cube3d.py) moves the facelets; each
search's steps keep what the earlier searches made; the compiled IDA* finds paths as long
as a breadth-first search's distance; a staged 7x7x7 is solved search by search, checked
from the facelets the independent model turns; and a whole 7x7x7 solve goes through the
staged path and is applied back.
"""

import random

import pytest

from bench import cube3d
from cubebot.solver import facelets, maskstage, scramble
from cubebot.solver.big import tablesolve as tsol
from cubebot.solver.big import tablestage as ts
from cubebot.solver.moves import Move, apply, format_moves

N = 7
needs_module = pytest.mark.skipif(maskstage.compiled() is None,
                                  reason="the compiled staging module is not built here")
SEARCHES = [(axis, steps) for axis, bars, ring, _ in tsol.AXES7 for steps in (bars, ring)]


def _staged_cube(rng, turns=60):
    """A random staged 7x7x7: the solved cube turned by random staging-keeping turns."""
    moves = [rng.choice(tsol.keep_staged_moves()) for _ in range(turns)]
    return cube3d.apply(facelets.solved(N), format_moves(moves))


def _face_colours(cube, face):
    """The colours the centre facelets of `face` show (the fixed centre too)."""
    k = facelets.FACES.index(face) * N * N
    return set(cube[k + r * N + c] for r in range(1, N - 1) for c in range(1, N - 1))


def _bars_uniform(cube, axis):
    bars = zip(*[maskstage.orbit_facelets(1, j, N) for j in (2, 3, 4)])
    return all(len(set(cube[x] for x in bar)) == 1 for bar in bars
               if facelets.FACES[bar[0] // (N * N)] in axis)


def _inner_solved(cube, axis):
    return all(len(set(cube[maskstage.orbit_facelets(i, j, N)[s]] for i, j in ((2, 2), (2, 3))
                       for s in range(4 * facelets.FACES.index(f), 4 * facelets.FACES.index(f) + 4))
                   | {tsol.centre_colour(cube, f)}) == 1 for f in axis)


def test_sub_masks_move_as_the_independent_model_moves_the_facelets():
    rng = random.Random(4711)
    cube = _staged_cube(rng)
    for axis, steps in SEARCHES:
        colour = tsol.centre_colour(cube, axis[0])
        perms = tsol.sub_perms(steps(), axis, N, tsol.ORBITS7)
        before = tsol.sub_masks(cube, axis, colour, N, tsol.ORBITS7)
        for k, step in enumerate(steps()):
            seq = step if isinstance(step, list) else [step]
            after = tsol.sub_masks(cube3d.apply(cube, format_moves(seq)), axis, colour, N, tsol.ORBITS7)
            for o in range(len(tsol.ORBITS7)):
                look = tsol._mask_lookup(perms, (k * len(tsol.ORBITS7) + o) * tsol.SUB_SLOTS)
                assert look[before[o]] == after[o], (axis, seq, o)


def test_each_search_keeps_what_the_earlier_ones_made():
    solved = facelets.solved(N)
    rng = random.Random(4712)
    for move in tsol.keep_staged_moves():        # every centre stays on its axis
        assert ts.staged(apply(_staged_cube(rng, 10), [move], N), ("LR", "UD")), move
    done = []
    for axis, bars, ring, _ in tsol.AXES7:
        for step in bars() + ring():              # the earlier axes stay solved
            after = apply(solved, step if isinstance(step, list) else [step], N)
            assert all(len(_face_colours(after, f)) == 1 for f in "".join(done)), (axis, step)
        cube = _staged_cube(rng)
        for step in ring():                       # the ring steps keep the inner X, T and bars
            seq = step if isinstance(step, list) else [step]
            for start in (solved, cube):
                after = apply(start, seq, N)
                assert _inner_solved(after, axis) == _inner_solved(start, axis), (axis, step)
                if _bars_uniform(start, axis):
                    assert _bars_uniform(after, axis), (axis, step)
        done.append(axis)
    assert set(tsol.ring_lr_moves()) < set(tsol.keep_staged_moves())
    assert set(tsol.ring_ud_moves()) < set(tsol.keep_lr_moves())
    assert Move("U", 1, 2, 2) not in tsol.ring_ud_moves()


@needs_module
def test_the_compiled_ida_finds_paths_as_long_as_the_breadth_first_distance():
    lib = maskstage.compiled()
    steps = tsol.keep_staged_moves()
    orbits = [tsol.ORBITS7[o] for o in tsol.INNER7]
    perms = tsol.sub_perms(steps, "LR", N, orbits)
    dist = lib.sub_bfs(perms, len(steps), 2, ((tsol.GOAL, tsol.GOAL),))
    assert dist == tsol._python_distances(perms, len(steps), 2)
    ranks = tsol.sub_ranks()
    masks = sorted(ranks, key=ranks.get)
    rng = random.Random(4713)
    for _ in range(20):
        start = (rng.choice(masks), rng.choice(masks))
        want = dist[tsol.index_of(start, ranks)]
        paths, nodes = lib.sub_ida(perms, len(steps), 2, (((0, 1), dist),), tsol._successors7(steps), start,
                                   30, -1, 100, 5)
        assert paths and len(paths) <= 5 and nodes >= len(paths[0])
        for path in paths:
            assert len(path) == want
            after = start
            for k in path:
                after = tuple(tsol._mask_lookup(perms, (k * 2 + o) * 8)[m] for o, m in enumerate(after))
            assert after == (tsol.GOAL, tsol.GOAL)
    with pytest.raises(ValueError, match="weight"):
        lib.sub_ida(perms, len(steps), 2, (((0, 1), dist),), tsol._successors7(steps), start, 30, -1, 99, 1)
    with pytest.raises(ValueError, match="shorter"):
        lib.sub_ida(perms, len(steps), 2, (((0, 1), dist[:100]),), tsol._successors7(steps), start, 30, -1, 100, 1)
    with pytest.raises(ValueError, match="names no orbit"):
        lib.sub_ida(perms, len(steps), 2, (((0, 2), dist),), tsol._successors7(steps), start, 30, -1, 100, 1)


@needs_module
def test_compiled_and_python_breadth_first_agree_from_many_goals():
    # a small instance of a bars table: the three bar orbits, 70 goals (each a bar sub-mask)
    steps = [Move("U", 1, 2, 2), Move("L", 1, 1, 1), Move("F", 1, 3, 2)]
    orbits = (tsol.OBLIQUE_A7, tsol.OUTER_T7, tsol.OBLIQUE_C7)
    perms = tsol.sub_perms(steps, "LR", N, [tsol.ORBITS7[o] for o in orbits])
    goals = tsol._goals7(orbits)
    assert len(goals) == tsol.N_SUB and all(g[0] == g[1] == g[2] for g in goals)
    compiled = maskstage.compiled().sub_bfs(perms, len(steps), 3, goals)
    python = tsol._python_distances(perms, len(steps), 3, goals)
    assert compiled == python
    reached = [d for d in python if d != 255]
    assert tsol.N_SUB < len(reached) < tsol.N_SUB ** 3 and max(reached) >= 2
    assert tsol._goals7((tsol.INNER_X7, tsol.OUTER_T7))[5] == (tsol.GOAL, sorted(tsol.sub_ranks())[5])


@needs_module
def test_a_staged_7x7x7_is_solved_search_by_search(tables_dir):
    rng = random.Random(4714)
    solving = tsol.Solving7(tables_dir)
    try:
        for _ in range(2):
            cube = _staged_cube(rng, 200)
            done = []
            for axis, _, _, _ in tsol.AXES7:
                bars, ring = solving.solve_axis(axis, cube)
                cube = cube3d.apply(cube, format_moves(bars))          # the independent model
                assert _inner_solved(cube, axis) and _bars_uniform(cube, axis), axis
                assert all(len(_face_colours(cube, f)) == 1 for f in "".join(done))
                cube = cube3d.apply(cube, format_moves(ring))
                done.append(axis)
                assert all(len(_face_colours(cube, f)) == 1 for f in "".join(done)), axis
            assert all(_face_colours(cube, f) == {f} for f in facelets.FACES)
    finally:
        solving.close()


@needs_module
def test_a_7x7x7_is_solved_through_the_staged_path(tables_dir, monkeypatch):
    from cubebot.solver import big
    from cubebot.solver.big import reduce
    monkeypatch.setattr(reduce, "TABLE_STAGING", True)
    monkeypatch.setattr(reduce, "TRIED", {N: 1})             # one orientation: quicker
    state = scramble.random_state(N, random.Random(7777))
    result = big.solve_stages(state)
    assert result.stages["staging"] and result.stages["solving"] and not result.stages["free"]
    assert not result.stages["parity"] and not result.stages["centres"]
    assert cube3d.solves(state, format_moves(result.candidates[0]))
