"""The 6x6x6 centres solved after the staging (solver/big/tablesolve.py, solver/_stage.c),
and the beam that ends every staging search (maskstage.MaskStage.beam).

Sub-masks move as the independent cube model (bench/cube3d.py) moves the facelets;
each stage's steps keep what the earlier stages made; the compiled breadth-first
search matches a Python one on a small instance; a staged cube is solved by the
three descents and checked from the facelets the independent model turns; and the
compiled module refuses bad arguments with a named error.
"""

import random
import pytest

from bench import cube3d
from cubebot.solver import facelets, maskstage, scramble
from cubebot.solver.big import tablesolve as tsol
from cubebot.solver.big import tablestage as ts
from cubebot.solver.cubies import corner_facelets
from cubebot.solver.moves import Move, apply, format_moves

N = tsol.N
needs_module = pytest.mark.skipif(maskstage.compiled() is None,
                                  reason="the compiled staging module is not built here")


def _staged_cube(rng, turns=40):
    """A random staged cube: the solved cube turned by random staging-keeping turns."""
    moves = [rng.choice(tsol.keep_staged_moves()) for _ in range(turns)]
    return cube3d.apply(facelets.solved(N), format_moves(moves))


def _orbit_faces(cube, axis):
    """For each face of `axis`, the colours its centre facelets show."""
    out = []
    for f in axis:
        slots = range(4 * facelets.FACES.index(f), 4 * facelets.FACES.index(f) + 4)
        out.append(set(cube[maskstage.orbit_facelets(i, j, N)[s]] for i, j in tsol.ORBITS for s in slots))
    return out


def _solved_axes(cube):
    return [axis for axis in ("LR", "UD", "FB") if all(len(c) == 1 for c in _orbit_faces(cube, axis))]


def test_sub_masks_move_as_the_independent_model_moves_the_facelets():
    rng = random.Random(4411)
    cube = _staged_cube(rng)
    for name in tsol.ORDER:
        steps, axis = tsol.TABLES[name]
        perms = tsol.sub_perms(steps(), axis)
        colour = cube[maskstage.orbit_facelets(1, 1, N)[tsol.axis_slots(axis)[0]]]
        before = tsol.sub_masks(cube, axis, colour)
        for k, step in enumerate(steps()):
            seq = step if isinstance(step, list) else [step]
            after = tsol.sub_masks(cube3d.apply(cube, format_moves(seq)), axis, colour)
            for o in range(len(tsol.ORBITS)):
                look = tsol._mask_lookup(perms, (k * len(tsol.ORBITS) + o) * tsol.SUB_SLOTS)
                assert look[before[o]] == after[o], (name, seq, o)


def test_each_stage_keeps_what_the_earlier_ones_made():
    rng = random.Random(4412)
    solved = facelets.solved(N)
    # keep_staged_moves keep every centre on its axis
    for move in tsol.keep_staged_moves():
        after = apply(_staged_cube(rng, 10), [move], N)
        assert ts.staged(after, ("LR", "UD")), move
    # keep_lr_moves keep L/R solved; the F/B steps keep L/R and U/D solved
    for move in tsol.keep_lr_moves():
        assert "LR" in _solved_axes(apply(solved, [move], N)), move
    for step in tsol.fb_steps():
        assert set(_solved_axes(apply(solved, step, N))) >= {"LR", "UD"}, step
    # and a step that breaks them is not among them
    assert "LR" not in _solved_axes(apply(solved, [Move("U", 1, 2, 2)], N))


@needs_module
def test_compiled_and_python_breadth_first_give_the_same_bytes():
    # a small instance: three steps reach a few dozen of the 70^4 states
    steps = [Move("R", 1, 2, 2), Move("U", 1, 1, 1), [Move("L", 1, 3, 2), Move("F", 1, 1, 1), Move("L", 1, 3, 2)]]
    perms = tsol.sub_perms(steps, "UD")
    compiled = maskstage.compiled().sub_bfs(perms, len(steps), len(tsol.ORBITS), ((tsol.GOAL,) * 4,))
    python = tsol._python_distances(perms, len(steps))
    assert compiled == python
    reached = [d for d in python if d != 255]
    assert 20 < len(reached) < tsol.N_AXIS_STATES and max(reached) > 3


@needs_module
def test_the_compiled_module_refuses_bad_arguments():
    lib = maskstage.compiled()
    good = bytes(range(8))
    with pytest.raises(ValueError, match="not a permutation"):
        lib.sub_bfs(bytes([0] * 8), 1, 1, ((tsol.GOAL,),))
    with pytest.raises(ValueError, match="not 4 of 8"):
        lib.sub_bfs(good, 1, 1, ((0x07,),))
    with pytest.raises(ValueError, match="n_orbits"):
        lib.sub_bfs(good * 5, 1, 5, ((tsol.GOAL,) * 5,))
    stage = maskstage.MaskStage(ts.five_moves(), [maskstage.orbit_facelets(1, 1, N)], N, [])
    with pytest.raises(ValueError, match="width"):
        lib.beam(stage.spec, (0xFF,), 0, 10)
    with pytest.raises(ValueError, match="8 of 24"):
        lib.beam(stage.spec, (0x7F,), 10, 10)


@needs_module
def test_a_staged_cube_is_solved_by_the_three_descents(tables_dir):
    rng = random.Random(4413)
    solving = tsol.Solving(tables_dir)
    for _ in range(3):
        cube = _staged_cube(rng)
        colours = tsol.staged_colours(cube)
        parts = solving.solve(cube, colours)
        after = cube3d.apply(cube, format_moves([m for p in parts for m in p]))   # independent model
        assert _solved_axes(after) == ["LR", "UD", "FB"]
        # the colours agree with the corners: a corner piece reads U's, F's and L's colours
        # clockwise, as the UFL corner of a solved cube does
        face = dict((f, _orbit_faces(after, f)[0].pop()) for f in "UFL")
        want = [face["U"], face["F"], face["L"]]
        pieces = [[after[x] for x in spots] for spots in corner_facelets(N)]
        assert any(p[k:] + p[:k] == want for p in pieces for k in range(3))
    solving.close()


@needs_module
def test_the_beam_pairs_what_the_node_limited_search_leaves(tables_dir):
    state = scramble.random_state(N, random.Random(6666))
    staging = ts.Staging(tables_dir)
    _name, variants, orbits, which = staging.searches[0]          # lr-inner
    start = staging.masks(state, orbits, ts.colour_pairs(state)[0][which])
    paths, _nodes = variants[-1].search(start, ts.MAX_COST, 1, 1000)
    assert not paths                                              # too few nodes
    path = variants[-1].beam(start, ts.BEAM_WIDTH, ts.BEAM_DEPTH)
    assert path and len(path) <= ts.BEAM_DEPTH
    after = cube3d.apply(state, format_moves(path))
    lr = ts.colour_pairs(state)[0][0]
    inner = maskstage.orbit_facelets(2, 2, N)
    assert maskstage.mask_of(after, inner, lr) == maskstage.face_mask("LR")
    a = maskstage.mask_of(after, maskstage.orbit_facelets(1, 2, N), lr)
    assert a == maskstage.mask_of(after, maskstage.orbit_facelets(1, 3, N), lr)


def test_only_two_layer_quarter_turns_change_the_inner_wing_parity(tables_dir):
    from cubebot.solver.big.reduce import Reducer
    from cubebot.solver.big.views import blown_up
    reducer = Reducer(N, tables_dir)
    odd = lambda cube: bool(reducer.parity(cube, blown_up(cube, N)))  # noqa: E731
    rng = random.Random(4414)
    for _ in range(2):
        state = scramble.random_state(N, rng)
        for move in ts.all_moves():
            assert odd(apply(state, [move], N)) != odd(state) or not ts.flips_wings(move), move
            assert odd(apply(state, [move], N)) == odd(state) or ts.flips_wings(move), move
