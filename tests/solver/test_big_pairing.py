"""The pairing stage of the big cubes (solver/big/pairbeam.py): its steps keep every centre
facelet joined, its beam joins wings on real scrambles, and the solve stays correct."""

import struct

import pytest

from cubebot.solver import facelets, maskstage, moves, scramble
from cubebot.solver.big import pairbeam, reduce, views
from .cubes import check_solves, seeded

SIZES = (6, 7)


def _centres_joined(cube, n):
    return sum(cube[a] == cube[b] for a, b in views.joins(n)[0])


@pytest.mark.parametrize("n", SIZES)
def test_every_step_keeps_the_centres_and_moves_only_outer_layers_and_free_slices(n):
    # a slice-flip-slice step puts every centre facelet back on its face, where only the
    # outer turn of the slice's axis may have turned it; a step keeps a blown-up cube's
    # centres blown up
    stage = pairbeam.PairingStage(n)
    centres = [a for a, _ in views.joins(n)[0]]
    start = "".join(chr(0x100 + i) for i in range(6 * n * n))
    blown = views.blown_up(scramble.random_state(n, seeded(1810 + n)), n)
    slices = 0

    def same_face(i):
        return range(i - i % (n * n), i - i % (n * n) + n * n)
    for seq, _ in stage.load_steps()[1]:
        assert all(m.first == 1 for m in seq)
        after = moves.apply(start, seq, n)
        if len(seq) > 1:
            slices += 1
            assert all(ord(after[i]) - 0x100 in same_face(i) for i in centres)
            assert after != start
        turned = moves.apply(blown, seq, n)
        assert _centres_joined(turned, n) == len(centres)
    assert slices > 500
    steps = stage.load_steps()[1]
    assert len(steps) == len(set(moves.apply(start, s, n) for s, _ in steps))


@pytest.mark.parametrize("n", SIZES)
def test_the_beam_joins_wings_and_leaves_the_centres_joined_as_they_were(n):
    stage = pairbeam.PairingStage(n)
    cube = scramble.random_state(n, seeded(1820 + n))
    found = stage.solve(cube)
    after = moves.apply(cube, found, n)
    assert stage.not_joined(after) + pairbeam.WEIGHT ** -1 * len(found) < stage.not_joined(cube)
    assert _centres_joined(after, n) == _centres_joined(cube, n)


def test_a_slice_flip_slice_case_is_paired_by_the_stage_and_solved(tables_dir):
    # three wings moved out of their pairs by a slice outside the view, a flip, the slice
    # back: the pairing stage pairs them again (no wing 3-cycle needed), applied back
    n = 6
    state = moves.apply(facelets.solved(n), "3R U R' 3R'", n)
    result = reduce.Reducer(n).solve(state)
    assert reduce.STAGES.index("pairing") == reduce.STAGES.index("inserts") + 1
    assert result.stages["pairing"] and not result.stages["wings"]
    check_solves(state, result.candidates[0])


def test_each_step_s_flags_getter_counts_the_wings_it_leaves_not_joined():
    # the beam scores a child by one getter over its parent's flags; that sum must be
    # the child's own wing facelets not joined, counted facelet by facelet
    n = 6
    stage = pairbeam.PairingStage(n)
    wings = views.joins(n)[1]
    cube = scramble.random_state(n, seeded(1812))
    pairs, steps, _ = stage.load_steps()
    flags = pairs.flags(cube)
    for seq, getter in steps:
        child = moves.apply(cube, seq, n)
        assert sum(getter(flags)) == sum(child[a] != child[b] for a, b in wings) == stage.not_joined(child)


@pytest.mark.parametrize("n", SIZES)
def test_the_compiled_ranking_gives_the_python_ranking_and_the_same_beam(n):
    # pair_rank (solver/_stage.c) against the Python ranking: the same children, in the same
    # order, from beams of real scrambles; the whole beam then takes the same path
    lib = maskstage.compiled()
    if lib is None:
        pytest.skip("the compiled staging module is not built")
    stage = pairbeam.PairingStage(n)
    loaded = stage.load_steps()
    pairs = loaded[0]
    cubes = [scramble.random_state(n, seeded(1830 + n + k)) for k in range(3)]
    flags = [pairs.flags(c) for c in cubes]
    for costs in ([0, 0, 0], [7, 3, 12]):
        for keep in (1, 64, 500):
            assert pairbeam.ranked(flags, costs, loaded, keep, lib) == \
                pairbeam.ranked(flags, costs, loaded, keep, None)
    assert stage.solve(cubes[0], loaded, lib) == stage.solve(cubes[0], loaded, None)


def test_the_compiled_ranking_refuses_bad_arguments():
    lib = maskstage.compiled()
    if lib is None:
        pytest.skip("the compiled staging module is not built")
    four = struct.pack("=2I", 0, 1)
    lib.pair_rank((b"\x00\x01",), four, b"\x01", (0,), 5.0, 1)       # well formed: no error
    bad = [
        ((b"\x00\x01",), struct.pack("=2I", 0, 2), b"\x01", (0,), 5.0, 1),    # a flag past the flags
        ((b"\x00\x01", b"\x00"), four, b"\x01", (0, 0), 5.0, 1),              # flags of two lengths
        ((b"\x00\x01",), four, b"\x01", (0, 0), 5.0, 1),                      # a cost too many
        ((b"\x00\x01",), four[:6], b"\x01", (0,), 5.0, 1),                    # froms not 4-byte
        ((b"\x00\x01",), four, b"\x01", (0,), 5.0, 0),                        # nothing kept
        ((b"\x00\x01",), four, b"\x01", (-1,), 5.0, 1),                       # a negative cost
        ((), b"", b"", (), 5.0, 1),                                           # no parent
    ]
    for args in bad:
        with pytest.raises(ValueError):
            lib.pair_rank(*args)
