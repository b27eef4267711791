"""The stage between the phases: T-pairs made one colour, the 4x4x4 part kept."""

from cubebot.solver import facelets, moves, scramble
from cubebot.solver.solve5 import outer4, reduce, stages, tpairs
from .cubes import seeded

N = 5
TAGGED = "".join(chr(0x100 + i) for i in range(6 * N * N))


def test_every_conjugated_slice_keeps_the_4x4x4_part_exactly_and_moves_t_centres():
    conjugates = [m for m, _, _ in tpairs._steps() if len(m) == 3]
    assert len(conjugates) == 6 * 3 * 2 * 3            # wide turn x slice across it x slice turns
    for step in conjugates:
        after = moves.apply(TAGGED, tpairs.written(step), N)
        assert outer4.view(after) == outer4.view(TAGGED)
        assert any(after[f] != TAGGED[f] for f in tpairs.T_CENTRES)


def test_a_solved_cube_needs_no_t_pair_moves():
    assert tpairs.TPairStage().solve(facelets.solved(N)) == []


def test_t_pairs_made_one_colour_after_phase_1(tables_dir):
    stage = tpairs.TPairStage()
    for seed in (430, 431):
        state = reduce.label(scramble.random_state(N, seeded(seed)))
        cube = moves.apply(state, outer4.reduce_outer(state)[0], N)
        assert not stages.pairs_one_colour(cube)          # phase 1 splits them
        solution = stage.solve(cube)
        assert solution and all(m.first == 1 and m.last in (1, 2, 3) for m in solution)
        after = moves.apply(cube, solution, N)
        assert stages.pairs_one_colour(after)
        assert outer4.part_reduced(after)          # outer turns move it, reduced still
