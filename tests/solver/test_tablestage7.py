"""The 7x7x7 centres staged by tables (solver/big/tablestage.py, its `_plan7`).

The 7x7x7 reads the 6x6x6's staging tables: each is built again from the 7x7x7's orbit and
turns and compared byte for byte. The move sets keep what each earlier search staged, checked
on facelets; only 2-layer quarter turns change the parity of wing orbit 2 against the view;
and a random 7x7x7 is staged by the six searches, checked from the facelets of the cube the
independent model (bench/cube3d.py) turns.
"""

import random

import pytest

from bench import cube3d
from cubebot.solver import facelets, maskstage, scramble
from cubebot.solver.big import tablestage as ts
from cubebot.solver.moves import apply, format_moves, permutation

N = 7
needs_module = pytest.mark.skipif(maskstage.compiled() is None,
                                  reason="the compiled staging module is not built here")


@needs_module
def test_the_7x7x7_orbits_read_the_6x6x6_staging_tables():
    # (6x6x6 table, [(7x7x7 orbit, the turns its search uses), ...])
    shared = [
        ("6x6-stage-x-lr", [(ts.INNER_X, ts.inner3_moves()), (ts.OUTER_X, ts.five_moves())]),
        ("6x6-stage-bar-lr", [(ts.INNER_T, ts.inner3_moves()), (ts.OUTER_T, ts.five_moves())]),
        ("6x6-stage-x-ud", [(ts.INNER_X, ts.keep_lr_inner3_moves()), (ts.OUTER_X, ts.keep_lr_five_moves())]),
        ("6x6-stage-bar-ud", [(ts.INNER_T, ts.keep_lr_inner3_moves()), (ts.OUTER_T, ts.keep_lr_five_moves())]),
    ]
    for name, uses in shared:
        orbit, moves, faces = ts.TABLES[name]
        goal = maskstage.face_mask(faces)
        six = maskstage.build_distances(moves(), maskstage.orbit_facelets(orbit[0], orbit[1], ts.N), ts.N, goal)
        for (i, j), seven_moves in uses:
            seven = maskstage.build_distances(seven_moves, maskstage.orbit_facelets(i, j, N), N, goal)
            assert seven == six, (name, (i, j))


def _axis_of(x):
    return {"L": "LR", "R": "LR", "U": "UD", "D": "UD", "F": "FB", "B": "FB"}[facelets.FACES[x // (N * N)]]


def _staged_on(cube, orbits, axis, colours):
    """Every facelet of `orbits` shows one of `colours` exactly where it is on `axis`."""
    return all((cube[x] in colours) == (_axis_of(x) == axis)
               for i, j in orbits for x in maskstage.orbit_facelets(i, j, N))


def _bars(i, j_list):
    return list(zip(*[maskstage.orbit_facelets(i, j, N) for j in j_list]))


def test_the_7x7x7_move_sets_keep_what_the_earlier_searches_made():
    inner = (ts.INNER_X, ts.INNER_T)
    bars = _bars(1, (2, 3, 4))
    for move in ts.keep_inner3_moves():
        p = permutation(move, N)            # the inner X and T stay on their face's axis
        assert all(_axis_of(p[x]) == _axis_of(x) or _axis_of(x) != "LR" and _axis_of(p[x]) != "LR"
                   for i, j in inner for x in maskstage.orbit_facelets(i, j, N)), move
    for move in ts.five_moves():            # row-1 bars move as one piece, inner X and T keep their face
        p = permutation(move, N)
        where = dict((source, target) for target, source in enumerate(p))
        assert all(tuple(where[x] for x in bar) in set(bars) for bar in bars), move
        assert all(where[x] // (N * N) == x // (N * N)
                   for i, j in inner for x in maskstage.orbit_facelets(i, j, N)), move
    for moves in (ts.keep_lr_inner3_moves(), ts.keep_ud_inner3_moves(), ts.keep_lr_five_moves()):
        for move in moves:                  # every centre keeps off or on L/R
            p = permutation(move, N)
            assert all((_axis_of(p[x]) == "LR") == (_axis_of(x) == "LR")
                       for i, j in ts.ORBITS[N] for x in maskstage.orbit_facelets(i, j, N)), move
    for move in ts.keep_ud_inner3_moves():  # the U/D inner X and T stay on U/D
        p = permutation(move, N)
        assert all((_axis_of(p[x]) == "UD") == (_axis_of(x) == "UD")
                   for i, j in inner for x in maskstage.orbit_facelets(i, j, N)), move
    for move in ts.keep_lr_five_moves():    # and the U/D bars move as one piece
        p = permutation(move, N)
        where = dict((source, target) for target, source in enumerate(p))
        assert all(tuple(where[x] for x in bar) in set(bars) for bar in bars if _axis_of(bar[0]) == "UD"), move


def test_only_two_layer_quarter_turns_change_the_7x7x7_wing_parity(tables_dir):
    from cubebot.solver.big.reduce import Reducer
    from cubebot.solver.big.views import blown_up
    reducer = Reducer(N, tables_dir)
    odd = lambda cube: bool(reducer.parity(cube, blown_up(cube, N)))  # noqa: E731
    state = scramble.random_state(N, random.Random(4701))
    for move in ts._turns(facelets.FACES, (1, 2, 3)):
        assert (odd(apply(state, [move], N)) != odd(state)) == ts.flips_wings(move), move


def test_the_fixed_centres_give_the_7x7x7_its_colour_pairs():
    state = scramble.random_state(N, random.Random(4702))
    assert ts.colour_pairs(state) == [("LR", "UD")]
    renamed = state.translate(str.maketrans("URFDLB", "wrgyob"))     # U white, R red, ...
    assert ts.colour_pairs(renamed) == [("or", "wy")]
    turned = apply(state, "x y", N)                                  # centres moved: U shows F's colour
    assert ts.colour_pairs(turned)[0][1] == "".join(turned[facelets.face_index(f, 3, 3, N)] for f in "UD")


@needs_module
def test_a_random_7x7x7_is_staged_by_the_six_searches(tables_dir):
    state = scramble.random_state(N, random.Random(7000))
    staging = ts.Staging(tables_dir, N)
    try:
        colours = ts.colour_pairs(state)[0]
        parts, cube = staging.stage(state, colours)
    finally:
        staging.close()
    assert [name for name, _, _, _ in staging.searches] == [
        "lr-inner3", "lr-bars", "lr-outer", "ud-inner3", "ud-bars", "ud-outer"]
    assert len(parts) == 6 and all(parts)
    moves = [m for p in parts for m in p]
    after = cube3d.apply(state, format_moves(moves))       # the independent model
    assert after == cube and ts.staged(after, colours)
    # from the facelets, stage by stage: each search's goal holds after every later search
    lr, ud = colours
    inner, ring = (ts.INNER_X, ts.INNER_T), (ts.OUTER_X, ts.OBLIQUE_A, ts.OUTER_T, ts.OBLIQUE_C)
    cube = state
    for k, part in enumerate(parts):
        cube = cube3d.apply(cube, format_moves(part))
        assert _staged_on(cube, inner, "LR", lr)
        paired = all(len(set(cube[x] in lr for x in bar)) == 1 for bar in _bars(1, (2, 3, 4)))
        assert paired or k < 1
        if k >= 2:
            assert _staged_on(cube, ring, "LR", lr)
        if k >= 3:
            assert _staged_on(cube, inner, "UD", ud)
        if k >= 4:
            assert all(len(set(cube[x] in ud for x in bar)) == 1 for bar in _bars(1, (2, 3, 4))
                       if _axis_of(bar[0]) != "LR")
    assert _staged_on(cube, ring, "UD", ud)
    assert not ts.staged(state, colours)
