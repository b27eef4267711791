"""Phase 1 of the 5x5x5: the 4x4x4 view of its outer part, and that part reduced."""

import pytest

from cubebot.solver import facelets, moves, scramble, solve3
from cubebot.solver.moves import Move
from cubebot.solver.solve4 import finish as finish4
from cubebot.solver.solve5 import outer4, reduce
from .cubes import check_solves, outer_wing_parity, seeded

N = 5
N4 = 4
TAGGED = "".join(chr(0x100 + i) for i in range(6 * N * N))     # every facelet its own symbol


def test_the_view_of_a_solved_5x5x5_is_a_solved_4x4x4():
    assert outer4.view(facelets.solved(N)) == facelets.solved(N4)


@pytest.mark.parametrize("face", facelets.FACES)
def test_every_outer_and_wide_turn_moves_the_view_as_the_same_4x4x4_turn(face):
    for layers in (1, 2, 3):           # outer, wide, and the 4x4x4 3Fw (the 5x5x5 4Fw)
        for turns in (1, 2, 3):
            move4 = Move(face, 1, layers, turns)
            move5 = outer4.to_5x5(move4)
            assert move5.last == (layers if layers < 3 else 4)
            after5 = moves.apply(TAGGED, [move5], N)
            assert outer4.view(after5) == moves.apply(outer4.view(TAGGED), [move4], N4), move4


@pytest.mark.parametrize("face", facelets.FACES)
def test_the_middle_slices_never_touch_the_view(face):
    for turns in (1, 2, 3):
        after = moves.apply(TAGGED, [Move(face, 3, 3, turns)], N)
        assert after != TAGGED
        assert outer4.view(after) == outer4.view(TAGGED)


def test_a_random_sequence_moves_the_view_as_on_a_4x4x4():
    rng = seeded(401)
    pool = [Move(f, 1, d, t) for f in facelets.FACES for d in (1, 2, 3) for t in (1, 2, 3)]
    sequence = [rng.choice(pool) for _ in range(60)]
    after5 = moves.apply(TAGGED, [outer4.to_5x5(m) for m in sequence], N)
    assert outer4.view(after5) == moves.apply(outer4.view(TAGGED), sequence, N4)


def _part_reduced_without_parity(state):
    """The 4x4x4 part: X-centres one colour a face, wings paired, and its 3x3x3
    view solved by the 3x3x3 solver (so no OLL or PLL parity), applied back."""
    if outer4.x_colours(state) is None or not outer4.paired(state):
        return False
    part = outer4.view(state)
    finish = solve3.solve(finish4.to_3x3(part), fork=False, views=solve3.VIEWS[:1])[0]   # no budget
    return facelets.is_solved(moves.apply(part, finish, N4))


@pytest.mark.parametrize("seed", [410, 411])
def test_phase_1_alone_reduces_the_part_of_a_random_state(tables_dir, seed):
    state = reduce.label(scramble.random_state(N, seeded(seed)))
    solution, stages = outer4.reduce_outer(state)[0]
    assert all(m.first == 1 and m.last in (1, 2) for m in solution)      # outer and wide turns
    assert len(solution) == sum(stages.values())
    after = moves.apply(state, solution, N)
    assert _part_reduced_without_parity(after)
    # the middle slices' pieces were left as they fall: only phase 2 and the finish remain
    result = reduce.Reducer().solve(state)
    check_solves(state, result.candidates[0])


@pytest.mark.parametrize("rotation", ["x2", "y2", "z"])
def test_phase_1_seen_turned_reduces_the_part_with_other_moves(tables_dir, rotation):
    # solve4 keeps the DLB corner still: seen turned, another corner stays, another reduction
    state = reduce.label(scramble.random_state(N, seeded(413)))
    plain, _ = outer4.reduce_outer(state)[0]
    turned, stages = outer4.reduce_outer(state, rotation=rotation)[0]
    assert turned != plain and len(turned) == sum(stages.values())
    assert all(m.first == 1 and m.last in (1, 2) for m in turned)
    assert _part_reduced_without_parity(moves.apply(state, turned, N))


def test_phase_1_with_an_odd_wing_permutation_at_the_start(tables_dir):
    # Rw is an odd permutation of the wings (OLL parity of the 4x4x4 part)
    state = moves.apply(scramble.random_state(N, seeded(412)), "Rw", N)
    assert outer_wing_parity(reduce.label(state)) != outer_wing_parity(
        moves.apply(reduce.label(state), "Rw'", N))
    solution, _ = outer4.reduce_outer(reduce.label(state))[0]
    assert _part_reduced_without_parity(moves.apply(reduce.label(state), solution, N))


def test_part_reduced_tells_a_reduced_part_from_parity():
    solved = facelets.solved(N)
    assert outer4.part_reduced(moves.apply(solved, "R U F' Rw' Lw L2 Uw Dw'", N))
    pll = moves.apply(solved, "Rw2 R2 U2 Rw2 R2 Uw2 Rw2 R2 Uw2", N)
    assert outer4.x_colours(pll) is not None and outer4.paired(pll)
    for odd in ("Rw U2 Rw U2 Rw U2 Rw U2 Rw",       # not paired (odd wing permutation)
                "Rw2 R2 U2 Rw2 R2 Uw2 Rw2 R2 Uw2"):  # paired, PLL parity (r2 U2 r2 Uw2 r2 Uw2)
        assert not outer4.part_reduced(moves.apply(solved, odd, N)), odd
    assert not outer4.part_reduced(moves.apply(solved, "Rw", N))


def test_a_solved_part_needs_no_phase_1(tables_dir):
    # only the middle slices turned: the part is solved, the fixed centres moved
    state = moves.apply(facelets.solved(N), [Move("R", 3, 3, 1), Move("U", 3, 3, 2)], N)
    assert outer4.reduce_outer(state) == [([], {})]
    assert not outer4.matches(state)               # phase 2 turns the fixed centres home


def test_phase_1_gives_several_reductions_as_short_each_leaving_another_part(tables_dir):
    state = reduce.label(scramble.random_state(N, seeded(414)))
    found = outer4.reduce_outer(state, count=3)
    assert 2 <= len(found) <= 3 and found[0] == outer4.reduce_outer(state)[0]
    assert len(set(len(solution) for solution, _ in found)) == 1          # equally short
    parts = set()
    for solution, stages in found:
        assert len(solution) == sum(stages.values())
        after = moves.apply(state, solution, N)
        assert _part_reduced_without_parity(after)
        parts.add(outer4.view(after))
    assert len(parts) == len(found)                                      # each another part
