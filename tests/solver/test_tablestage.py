"""The centre staging by tables (solver/maskstage.py, solver/_stage.c, solver/big/tablestage.py).

Masks and slot maps against the independent cube model (bench/cube3d.py); the
compiled BFS and IDA* against the pure-Python ones on small instances; the move
sets keep what each search relies on; and a random 6x6x6 staged by the four
searches, checked from the facelets of the cube the independent model turns.
"""

import random

import pytest

from bench import cube3d
from cubebot.solver import facelets, maskstage, scramble, search
from cubebot.solver.big import tablestage as ts
from cubebot.solver.moves import Move, apply, format_moves, permutation

N = ts.N
needs_module = pytest.mark.skipif(maskstage.compiled() is None,
                                  reason="the compiled staging module is not built here")


def _random_mask(rng):
    return sum(1 << s for s in rng.sample(range(maskstage.N_SLOTS), maskstage.N_PIECES))


def _python(monkeypatch):
    monkeypatch.setenv(search.PURE_PYTHON_ENV, "1")


def test_rank_is_a_bijection_on_the_masks():
    rng = random.Random(4401)
    seen = set()
    for _ in range(300):
        mask = _random_mask(rng)
        r = maskstage.rank(mask)
        assert 0 <= r < maskstage.N_RANKS
        assert maskstage.unrank(r) == mask
        seen.add(r)
    assert maskstage.rank(0xFF) == 0 and maskstage.rank(0xFF0000) == maskstage.N_RANKS - 1
    lib = maskstage.compiled()
    if lib is not None:
        for _ in range(100):
            mask = _random_mask(rng)
            assert lib.rank(mask) == maskstage.rank(mask)


def test_slot_maps_move_the_masks_as_the_independent_model_moves_the_facelets():
    rng = random.Random(4402)
    state = cube3d.apply(facelets.solved(N), cube3d.random_layer_turns(N, rng, 60))
    for orbit in (ts.OUTER_X, ts.OBLIQUE_A, ts.OBLIQUE_B, ts.INNER_X):
        places = maskstage.orbit_facelets(orbit[0], orbit[1], N)
        for move in ts.all_moves():
            after = cube3d.apply(state, format_moves([move]))
            for colours in ("LR", "UD"):
                before = maskstage.mask_of(state, places, colours)
                dest = maskstage.slot_map(move, places, N)
                assert maskstage.apply_mask(before, dest) == maskstage.mask_of(after, places, colours)


def _lr_staged_cube(rng):
    """A random cube whose centre facelets are L/R-coloured exactly on L and R."""
    cube = list(facelets.solved(N))
    places = [x for o in (ts.OUTER_X, ts.OBLIQUE_A, ts.OBLIQUE_B, ts.INNER_X)
              for x in maskstage.orbit_facelets(o[0], o[1], N)]
    lr = [x for x in places if facelets.FACES[(x // (N * N))] in "LR"]
    rest = [x for x in places if x not in lr]
    for group in (lr, rest):
        colours = [cube[x] for x in group]
        rng.shuffle(colours)
        for x, c in zip(group, colours):
            cube[x] = c
    return "".join(cube)


def _lr_staged(cube):
    return all((cube[x] in "LR") == (facelets.FACES[x // (N * N)] in "LR")
               for o in (ts.OUTER_X, ts.OBLIQUE_A, ts.OBLIQUE_B, ts.INNER_X)
               for x in maskstage.orbit_facelets(o[0], o[1], N))


def test_the_later_move_sets_keep_what_the_earlier_searches_staged():
    rng = random.Random(4403)
    cube = _lr_staged_cube(rng)
    assert _lr_staged(cube)
    for move in ts.keep_lr_moves():
        assert _lr_staged(apply(cube, [move], N)), move
    # outer and 2-layer turns: the inner X stays on its face, obliques (1,2), (1,3) move as bars
    inner = maskstage.orbit_facelets(2, 2, N)
    bars = list(zip(maskstage.orbit_facelets(1, 2, N), maskstage.orbit_facelets(1, 3, N)))
    for move in ts.five_moves():
        p = permutation(move, N)
        assert all(p[x] // (N * N) == x // (N * N) for x in inner), move
        where = dict((source, target) for target, source in enumerate(p))
        pairs = set(bars)
        assert all((where[a], where[b]) in pairs for a, b in bars), move
    assert set(ts.keep_lr_five_moves()) <= set(ts.five_moves()) & set(ts.keep_lr_moves())
    assert set(ts.inner_ud_moves()) < set(ts.keep_lr_moves())
    assert set(ts.inner_lr_moves()) < set(ts.all_moves())


def test_compiled_and_python_breadth_first_give_the_same_bytes(monkeypatch):
    if maskstage.compiled() is None:
        pytest.skip("the compiled staging module is not built here")
    moves = [Move(f, 1, 2, t) for f in "RU" for t in (1, 2, 3)]      # a small instance
    places = maskstage.orbit_facelets(1, 1, N)
    goal = maskstage.face_mask("LR")
    compiled = maskstage.build_distances(moves, places, N, goal)
    _python(monkeypatch)
    python = maskstage.build_distances(moves, places, N, goal)
    assert compiled == python
    reached = [d for d in python if d != maskstage.UNREACHED]
    assert 1 < len(reached) < maskstage.N_RANKS and max(reached) >= 2


@needs_module
def test_compiled_and_python_search_give_the_same_paths(monkeypatch, tmp_path):
    path = str(tmp_path / "x.bin")
    ts.build_x_lr(path, lambda message: None)
    from cubebot.solver.tables import DenseTable
    table = DenseTable(path).nibbles()
    places = maskstage.orbit_facelets(1, 1, N)
    stage = maskstage.MaskStage(ts.five_moves(), [places], N, [(0, table)])
    rng = random.Random(4404)
    start_cube = apply(facelets.solved(N), [rng.choice(ts.five_moves()) for _ in range(4)], N)
    start = (maskstage.mask_of(start_cube, places, "LR"),)
    compiled = stage.search(start, 8, 5)
    _python(monkeypatch)
    python = stage.search(start, 8, 5)
    assert compiled == python and compiled[0]
    for moves in compiled[0]:
        after = cube3d.apply(start_cube, format_moves(moves))
        assert maskstage.mask_of(after, places, "LR") == maskstage.face_mask("LR")


@pytest.fixture(scope="module")
def staging_tables(tmp_path_factory):
    directory = tmp_path_factory.mktemp("staging")
    for name in ts.TABLES:
        getattr(ts, "build_" + name[len("6x6-stage-"):].replace("-", "_"))(
            str(directory / (name + ".bin")), lambda message: None)
    return str(directory)


@needs_module
def test_a_random_6x6x6_is_staged_by_the_four_searches(staging_tables):
    state = scramble.random_state(N, random.Random(6666))     # the bench's first 6x6x6
    staging = ts.Staging(staging_tables)
    found = staging.solve_all(state)
    assert found
    for parts, cube in found:
        assert [len(p) for p in parts] and all(len(p) <= ts.MAX_COST for p in parts)
        moves = [m for p in parts for m in p]
        after = cube3d.apply(state, format_moves(moves))        # the independent model
        assert after == cube
        colours = [c for c in ts.colour_pairs(state) if ts.staged(after, c)]
        assert len(colours) == 1
        # from the facelets: every centre facelet of a face shows a colour of that face's axis
        lr, ud = colours[0]
        axis = {"L": lr, "R": lr, "U": ud, "D": ud}
        for o in (ts.OUTER_X, ts.OBLIQUE_A, ts.OBLIQUE_B, ts.INNER_X):
            for x in maskstage.orbit_facelets(o[0], o[1], N):
                face = facelets.FACES[x // (N * N)]
                if face in axis:
                    assert after[x] in axis[face]
                else:
                    assert after[x] not in lr + ud
    assert not ts.staged(state, ("LR", "UD"))


@needs_module
def test_a_long_staging_ended_by_a_beam_has_the_next_choice_tried_beside_it(staging_tables, monkeypatch):
    # every search made to run out of nodes at once, so the beam ends each one: a staging of
    # more than RETRY_ABOVE moves does not count, and each choice of colour pairs is staged
    state = scramble.random_state(N, random.Random(6666))
    monkeypatch.setattr(ts, "MAX_NODES", 1)
    monkeypatch.setattr(ts, "RETRY_ABOVE", 10 ** 6)
    staging = ts.Staging(staging_tables)
    assert len(staging.solve_all(state)) == 1 and staging.beams == 4
    monkeypatch.setattr(ts, "RETRY_ABOVE", 0)
    found = staging.solve_all(state)
    assert staging.tried == len(ts.colour_pairs(state)) == len(found)
    for (parts, cube), colours in zip(found, ts.colour_pairs(state)):
        assert cube3d.apply(state, format_moves([m for p in parts for m in p])) == cube
        assert ts.staged(cube, colours)


@needs_module
def test_the_inner_x_reads_the_outer_x_tables():
    for name, moves in ts.INNER_TABLES.items():
        orbit, own, faces = ts.TABLES[name]
        goal = maskstage.face_mask(faces)
        outer = maskstage.build_distances(own(), maskstage.orbit_facelets(1, 1, N), N, goal)
        inner = maskstage.build_distances(moves(), maskstage.orbit_facelets(2, 2, N), N, goal)
        assert outer == inner


@needs_module
def test_a_6x6x6_is_solved_through_the_staged_path(tables_dir, monkeypatch):
    from cubebot.solver import big
    from cubebot.solver.big import reduce
    monkeypatch.setattr(reduce, "TABLE_STAGING", True)
    monkeypatch.setattr(reduce, "TRIED", {N: 2})             # two orientations: quicker
    state = scramble.random_state(N, random.Random(6666))     # one the staging stages
    result = big.solve_stages(state)
    assert result.stages["staging"] and result.stages["solving"] and not result.stages["free"]
    # the staging ends the inner wings even and the solving leaves every centre solved
    assert not result.stages["parity"] and not result.stages["centres"]
    assert cube3d.solves(state, format_moves(result.candidates[0]))


def test_colour_pairs_are_the_cubes_opposite_colours():
    state = scramble.random_state(N, random.Random(4405))
    assert ts.colour_pairs(state)[0] == ("LR", "UD")
    assert ts.opposite_pairs(state) == ["BF", "DU", "LR"]
    renamed = state.translate(str.maketrans("URFDLB", "wrgyob"))     # U white, R red, ...
    assert ts.opposite_pairs(renamed) == ["bg", "or", "wy"]
    assert ts.colour_pairs(renamed) == [("bg", "or"), ("or", "wy"), ("wy", "bg")]
