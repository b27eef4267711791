"""The planner's actions, made on the cube, give exactly the state the moves promise."""

import itertools

import pytest

from cubebot.robot.machine import orientation
from cubebot.robot.machine.actions import (
    FLIP,
    ROTATE,
    TWIST,
    apply_actions,
    counts,
    final_where,
    flip,
    format_actions,
    rotate,
    table_quarters,
    twist,
)
from cubebot.robot.plan.planner import choose_fastest, fastest, plan, plan_naive
from cubebot.robot.machine.timing import AWAY, HOLD
from cubebot.solver.errors import InvalidCube
from cubebot.solver.moves import Move, apply, parse

from .planner_support import physical, random_solution, rng_for, time_model, unique_state

TM = time_model()
ORIENTS = orientation.all_orientations()


def check_plan(p, moves, start, n=3):
    """The plan's actions on the physical cube match the moves on the cube-frame cube."""
    c0 = unique_state(n)
    got = apply_actions(physical(c0, start), p.actions)
    want = physical(apply(c0, moves), p.end_where)
    assert got == want
    if all(m.last is not None and m.last < n for m in moves):      # no rotations in the solution
        check_steps(p, c0, start)
    if all(m.first == m.last == 1 for m in moves):      # no rotation relabels the faces
        assert final_where(start, p.actions) == p.end_where
    assert counts(p.actions)[TWIST] == len(p.moves)
    seconds, flipper = TM.seconds(p.actions, AWAY)
    assert seconds == pytest.approx(p.seconds)
    assert flipper == p.end_flipper


def test_actions_are_robot_frame_moves():
    state = unique_state(3)
    # a flip takes the back face to the bottom
    assert apply_actions(state, [flip()]) == apply(state, "x")
    assert apply_actions(state, [rotate(3), twist(2)]) == apply(state, "y' D2")
    assert final_where("URFDLB", [flip()])[3] == "B"
    assert format_actions([flip(), rotate(1), rotate(2), rotate(3), twist(1), twist(3)]) == "flip y y2 y' D D'"
    assert counts([flip(), flip(), twist(2)]) == {FLIP: 2, ROTATE: 0, TWIST: 1}
    assert [table_quarters(q) for q in (1, 2, 3)] == [1, 2, -1]
    with pytest.raises(ValueError):
        twist(4)


@pytest.mark.parametrize("start", ORIENTS)
def test_every_start_orientation(start):
    rng = rng_for(ORIENTS.index(start))
    for _ in range(4):
        moves = random_solution(rng, rng.randint(0, 22))
        for planner in (plan, plan_naive):
            check_plan(planner(moves, start, TM), moves, start)


def test_many_random_solutions_both_flipper_states():
    rng = rng_for(7)
    for k in range(150):
        moves = random_solution(rng, 20)
        start = rng.choice(ORIENTS)
        flipper = (AWAY, HOLD)[k % 2]
        p = plan(moves, start, TM, flipper_state=flipper)
        q = plan_naive(moves, start, TM, flipper_state=flipper)
        for pl in (p, q):
            check_plan_from(pl, moves, start, flipper)
        assert p.seconds <= q.seconds + 1e-9


def check_plan_from(p, moves, start, flipper, n=3):
    c0 = unique_state(n)
    assert apply_actions(physical(c0, start), p.actions) == physical(apply(c0, moves), p.end_where)
    assert TM.seconds(p.actions, flipper)[0] == pytest.approx(p.seconds)


def test_ours_at_least_as_fast_as_naive_and_faster_on_average():
    rng = rng_for(99)
    ours = naive = 0.0
    for _ in range(100):
        moves = random_solution(rng, 20)
        p, q = plan(moves, "URFDLB", TM), plan_naive(moves, "URFDLB", TM)
        assert p.seconds <= q.seconds + 1e-9
        ours += p.seconds
        naive += q.seconds
    assert ours < naive


def test_naive_uses_the_fixed_recipe():
    # from the identity: R is at R -> y' brings it to the back, the flip to the bottom
    p = plan_naive(parse("R"), "URFDLB", TM)
    assert format_actions(p.actions) == "y' flip D"
    assert plan_naive(parse("D2"), "URFDLB", TM).actions == [twist(2)]
    assert format_actions(plan_naive(parse("U"), "URFDLB", TM).actions) == "flip flip D"


def test_empty_and_repeated_moves():
    p = plan([], "URFDLB", TM)
    assert p.actions == [] and p.seconds == 0 and p.end_where == "URFDLB"
    moves = parse("R R")
    p = plan(moves, "URFDLB", TM)
    check_plan(p, moves, "URFDLB")
    assert counts(p.actions)[FLIP] == 1


def test_brute_force_optimal_on_short_sequences():
    """The DP's time equals the best over every action sequence up to a length bound."""
    reorient = [flip(), rotate(1), rotate(2), rotate(3)]
    rng = rng_for(3)
    for _ in range(6):
        moves = random_solution(rng, 2)
        start = rng.choice(ORIENTS)
        best = brute_force(moves, start, reorient, max_between=3)
        assert plan(moves, start, TM).seconds == pytest.approx(best)


def brute_force(moves, start, reorient, max_between):
    """Cheapest time over all plans with at most max_between reorienting actions before each twist."""
    seqs = [[]]
    for k in range(1, max_between + 1):
        seqs.extend(list(s) for s in itertools.product(reorient, repeat=k))
    best = [float("inf")]

    def go(i, where, flipper, spent):
        if spent >= best[0]:
            return
        if i == len(moves):
            best[0] = spent
            return
        face, q = moves[i].face, moves[i].turns
        for seq in seqs:
            w = final_where(where, seq)
            if orientation.face_at(w, "D") != face:
                continue
            s, f = TM.seconds(seq + [twist(q)], flipper)
            go(i + 1, w, f, spent + s)

    go(0, start, AWAY, 0.0)
    return best[0]


def test_commuting_moves_may_be_reordered():
    # U D: the plan may turn D first; the state must still match
    moves = parse("R U D' F")
    p = plan(moves, "URFDLB", TM)
    check_plan(p, moves, "URFDLB")
    assert sorted(p.moves) == sorted(moves)


def test_wide_turns_and_rotations():
    moves = [Move("R", 1, 2, 1), Move("U", 1, None, 1), Move("F", 1, 1, 2), Move("B", 1, 2, 3)]
    for start in ORIENTS[:6]:
        check_plan(plan(moves, start, TM), moves, start)
        check_plan(plan_naive(moves, start, TM), moves, start)
    with pytest.raises(InvalidCube):
        plan([Move("R", 2, 2, 1)], "URFDLB", TM)


def test_two_by_two():
    rng = rng_for(22)
    for _ in range(30):
        moves = random_solution(rng, 11, faces="URF")
        start = rng.choice(ORIENTS)
        for planner in (plan, plan_naive):
            check_plan_n(planner(moves, start, TM, size=2), moves, start, 2)


def check_plan_n(p, moves, start, n):
    c0 = unique_state(n)
    assert apply_actions(physical(c0, start), p.actions) == physical(apply(c0, moves), p.end_where)
    check_steps(p, c0, start)


def check_steps(p, c0, start):
    """After the k-th twist the physical cube is the state after moves[:k+1] lying as wheres[k]."""
    assert len(p.moves) == len(p.wheres) == counts(p.actions)[TWIST]
    phys, k = physical(c0, start), 0
    for a in p.actions:
        phys = apply_actions(phys, [a])
        if a.kind == TWIST:
            assert phys == physical(apply(c0, p.moves[:k + 1]), p.wheres[k])
            k += 1


def test_choose_fastest_picks_lowest_plan_time():
    rng = rng_for(5)
    cands = [random_solution(rng, 20) for _ in range(5)]
    best = choose_fastest(cands, "URFDLB", TM)
    times = [plan(c, "URFDLB", TM).seconds for c in cands]
    assert plan(best, "URFDLB", TM).seconds == min(times)
    assert best is cands[times.index(min(times))]
    moves, p = fastest(cands, "URFDLB", TM)
    assert moves is best and p.seconds == min(times)
    with pytest.raises(ValueError):
        choose_fastest([], "URFDLB", TM)


def test_bad_start():
    with pytest.raises(ValueError):
        plan(parse("R"), "UUFDLB", TM)
    with pytest.raises(ValueError):
        plan(parse("R"), "URFDLB", TM, flipper_state="up")
    with pytest.raises(ValueError):
        plan(parse("R"), "URFDLB", None)


@pytest.mark.parametrize("n", [2, 3])
def test_random_wide_turns_rotations_and_same_axis_runs(n):
    """Mixed outer turns, (N-1)-layer wide turns and rotations, often on one axis in a row."""
    rng = rng_for(40 + n)
    for _ in range(40):
        moves = []
        for _ in range(rng.randint(1, 14)):
            face = rng.choice("UD" if rng.random() < 0.4 else "URFDLB")
            last = rng.choice([1, 1, n - 1, None])
            moves.append(Move(face, 1, last, rng.choice((1, 2, 3))))
        start = rng.choice(ORIENTS)
        for planner in (plan, plan_naive):
            p = planner(moves, start, TM, size=n)
            c0 = unique_state(n)
            assert apply_actions(physical(c0, start), p.actions) == physical(apply(c0, moves), p.end_where)
        assert plan(moves, start, TM, size=n).seconds <= plan_naive(moves, start, TM, size=n).seconds + 1e-9
