"""The stage between the phases: T-pairs made one colour, the 4x4x4 part kept."""

import pytest

from cubebot.solver import facelets, moves, scramble
from cubebot.solver.solve5 import outer4, reduce, stages, tpairs, tsets
from .cubes import seeded

N = 5
TAGGED = "".join(chr(0x100 + i) for i in range(6 * N * N))


def test_every_conjugated_slice_keeps_the_4x4x4_part_exactly_and_moves_t_centres():
    conjugates = [m for m, _, _ in tsets._steps() if len(m) == 3]
    assert len(conjugates) == 6 * 3 * 2 * 3            # wide turn x slice across it x slice turns
    for step in conjugates:
        after = moves.apply(TAGGED, tpairs.written(step), N)
        assert outer4.view(after) == outer4.view(TAGGED)
        assert any(after[f] != TAGGED[f] for f in tpairs.T_CENTRES)


def test_a_solved_cube_needs_no_t_pair_moves():
    assert tpairs.TPairStage().solve(facelets.solved(N)) == []


@pytest.mark.parametrize("guided", [True, False])
def test_t_pairs_made_one_colour_after_phase_1(tables_dir, guided):
    stage = tpairs.TPairStage.opened(tables_dir) if guided else tpairs.TPairStage()
    for seed in (430, 431):
        state = reduce.label(scramble.random_state(N, seeded(seed)))
        cube = moves.apply(state, outer4.reduce_outer(state)[0][0], N)
        assert not stages.pairs_one_colour(cube)          # phase 1 splits them
        solution = stage.solve(cube)
        assert solution and all(m.first == 1 and m.last in (1, 2, 3) for m in solution)
        after = moves.apply(cube, solution, N)
        assert stages.pairs_one_colour(after)
        assert outer4.part_reduced(after)          # outer turns move it, reduced still


def test_t_slot_sets_rank_round_trip():
    seen = set()
    for r in range(tsets.N_TSET):
        slots = tsets.unrank(r)
        assert len(set(slots)) == tsets.PER_COLOUR and tsets.rank(slots) == r
        seen.add(tuple(slots))
    assert len(seen) == tsets.N_TSET == 10626


def test_the_t_pair_set_table_is_zero_exactly_on_two_whole_pairs(tables_dir):
    from cubebot.solver import store
    dense = store.open_dense(tsets.TABLE, tables_dir)
    values = dense.values(range(tsets.N_TSET))
    goals = set(tsets.goals())
    assert len(goals) == tsets.N_GOALS == 66
    assert all((values[r] == 0) == (r in goals) for r in range(tsets.N_TSET))
    assert max(values) == 8                      # every set reached, none past 8 written turns
    # one step changes a set's cost by at most that step's written turns
    where = tsets.inverses()
    turns = [t for _, t, _ in tsets.steps()]
    for r in range(0, tsets.N_TSET, 37):
        for nxt, t in zip(tsets.neighbours(r, where), turns):
            assert abs(values[nxt] - values[r]) <= t
    table = tsets.TSetTable(dense)
    assert table.total("".join(facelets.solved(N)[f] for f in tpairs.T_CENTRES)) == 0


def test_the_guided_stage_joins_pairs_after_random_conjugated_slices(tables_dir):
    # a stage alone on states of its group: the 4x4x4 part reduced (solved), T-pairs split
    stage = tpairs.TPairStage.opened(tables_dir)
    rng = seeded(4242)
    conjugates = [m for m, _, _ in tsets.steps() if len(m) == 3]
    for _ in range(4):
        scramble_moves = [m for _ in range(6) for m in rng.choice(conjugates)]
        cube = moves.apply(facelets.solved(N), tpairs.written(scramble_moves), N)
        assert outer4.part_reduced(cube)
        solution = stage.solve(cube)
        after = moves.apply(cube, solution, N)
        assert stages.pairs_one_colour(after) and outer4.part_reduced(after)
        assert all(m.first == 1 for m in solution)       # outer and wide turns only


def test_the_move_table_rows_are_the_sets_each_step_leaves(tables_dir):
    from cubebot.solver import store
    table = store.open_words(tsets.MOVE_TABLE, tables_dir)
    try:
        assert len(table) == tsets.N_TSET * tsets.N_STEPS == 10626 * 135
        mapped, computed = tsets.SetMoves(table), tsets.SetMoves()
        where = tsets.inverses()
        for r in list(range(0, tsets.N_TSET, 53)) + [tsets.N_TSET - 1]:
            assert mapped.row(r) == computed.row(r) == tsets.neighbours(r, where)
            slots = tsets.unrank(r)
            for k, (_, _, perm) in enumerate(tsets.steps()):
                moved = [perm.index(s) for s in slots]       # new[k] = old[perm[k]]
                assert tsets.unrank(mapped.row(r)[k]) == sorted(moved)
    finally:
        table.close()


def test_six_set_ranks_score_a_cube_as_its_colours_do(tables_dir):
    stage = tpairs.TPairStage.opened(tables_dir)
    units = tsets.split_units()
    rng = seeded(77)
    for _ in range(30):
        colours = list("URFDLB" * 4)
        rng.shuffle(colours)
        colours = "".join(colours)
        state = tsets.ranks(colours)
        assert [tsets.unrank(r) for r in state] == [
            [k for k, c in enumerate(colours) if c == f] for f in facelets.FACES]
        assert sum(units[r] for r in state) == tpairs.split(colours)
        assert sum(stage.table.by_rank[r] for r in state) == stage.table.total(colours)
        k = rng.randrange(tsets.N_STEPS)
        after = "".join(colours[i] for i in tsets.steps()[k][2])
        assert tuple(stage.moves.row(r)[k] for r in state) == tsets.ranks(after)
