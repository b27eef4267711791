"""Phase 2 of the 5x5x5 (solve5.middle): T-centres, fixed centres and midges under outer
turns and middle slices. Every solution is applied back to the 5x5x5 model and the goal
checked by `reduced` below, written apart from the solver's own checks."""

import random

import pytest

from cubebot.solver import facelets, moves, search
from cubebot.solver.errors import InvalidCube, UnsolvableCube
from cubebot.solver.solve5 import midgecores, midges, pairsearch, stages, tcentres
from cubebot.solver.solve5.middle import solve_middle
from cubebot.solver.solve5.slices import MOVES, OUTER, SLICES, is_slice, names, written, written_length
from cubebot.solver.store import open_dense, open_records
from .cubes import disguise, seeded

N = 5
AREA = N * N
SOLVED = facelets.solved(N)
HALF_SLICES = [m for m in SLICES if m.turns == 2]


def reduced(state):
    """True if every face's nine centre facelets are one colour and every edge's three
    facelets on each face are one colour: a 3x3x3 in 5x5x5 clothes."""
    for f in range(6):
        face = state[f * AREA:(f + 1) * AREA]
        if len(set(face[r * N + c] for r in (1, 2, 3) for c in (1, 2, 3))) != 1:
            return False
        for line in ([face[c] for c in (1, 2, 3)], [face[20 + c] for c in (1, 2, 3)],
                     [face[r * N] for r in (1, 2, 3)], [face[r * N + 4] for r in (1, 2, 3)]):
            if len(set(line)) != 1:
                return False
    return True


def scrambled(seed, pool=MOVES, low=40, high=100):
    rng = random.Random(seed)
    turns = [rng.choice(pool) for _ in range(rng.randint(low, high))]
    return moves.apply(SOLVED, written(turns), N)


def check(state, solution_names):
    after = moves.apply(state, " ".join(solution_names), N) if solution_names else state
    assert reduced(after)
    # only outer turns and slices written as 3Xw Xw': no 2-layer-only turns left alone
    for m in moves.parse(solution_names):
        assert m.first == 1 and m.last in (1, 2, 3)
    return after


# ---------------------------------------------------------------- the model


def test_slice_written_as_two_turns_is_the_slice():
    for m in SLICES:
        assert moves.apply(SOLVED, written([m]), N) == moves.apply(SOLVED, [m], N)
        assert len(written([m])) == 2


def test_written_length_counts_what_written_leaves():
    rng = seeded(9191)
    few = [m for m in MOVES if m.face in "UDR"]          # one face pair and a slice: many merges
    for n in range(0, 40):
        for pool in (MOVES, few):
            seq = [rng.choice(pool) for _ in range(n)]
            # and sequences that cancel at a seam: followed by part of their inverse
            back = moves.invert(seq)[:n // 2 + 1]
            for s in (seq, seq + back):
                assert written_length(s) == len(written(s))
    assert written_length([SLICES[0], moves.Move(SLICES[0].face, 3, 3, 4 - SLICES[0].turns)]) == 0


def test_every_phase_2_move_keeps_the_t_pairs_and_the_4x4x4_part():
    for m in MOVES:
        perm = tcentres.slot_perm(m, tcentres.T_CENTRES)
        of = dict((k, p) for p, pair in enumerate(tcentres.PAIRS) for k in pair)
        for a, b in tcentres.PAIRS:
            assert of[perm[a]] == of[perm[b]]
    state = scrambled(1)
    stages.MiddleSolver().relabel(state)            # X-centres one colour, dedges paired


def test_cores_keep_the_centres_and_cycle_three_midges():
    base = midges.base_cycles()
    assert len(base) == 24                           # k = 1, 3 of the 36 cores
    for _cyc, core in base:
        after = moves.apply(SOLVED, written(core), N)
        for f in range(6):
            face = after[f * AREA:(f + 1) * AREA]
            assert len(set(face[r * N + c] for r in (1, 2, 3) for c in (1, 2, 3))) == 1
        d = midges.dest(after)
        assert sum(1 for s in range(12) if d[2 * s] != 2 * s) == 3


def test_table_sizes_follow_their_derivations(tables_dir):
    assert tcentres.N_AXES == 495 * 70 * 24 == len(open_dense("5x5-middle-axes"))
    assert tcentres.N_PAIRS == 6 ** 3 * 4 == len(open_dense("5x5-middle-pairs"))
    pairs = open_dense("5x5-middle-pairs")
    assert all(pairs[r] < pairs.unreached for r in range(len(pairs)))
    assert len(open_records("5x5-midge-cycles")) == 12 * 11 * 10 // 3 * 4


def test_every_midge_table_entry_does_its_cycle(tables_dir):
    # a cube whose midges are the keyed 3-cycle away from their dedges (and nothing else
    # out of place) is reduced by the entry's moves; the table on disk holds them all
    table = open_records("5x5-midge-cycles")
    built = midges.build_cycles()
    assert len(built) == len(table) == 12 * 11 * 10 // 3 * 4
    for key, found in built.items():
        a, b, c = key // 576, key // 24 % 24, key % 24
        d = list(range(24))
        for x, y, z in ((a, b, c), (a ^ 1, b ^ 1, c ^ 1)):
            d[x], d[y], d[z] = y, z, x                  # the piece at x belongs at y, ...
        state = list(SOLVED)
        for h in range(24):
            state[midges.HALF_OF[h]] = SOLVED[midges.HALF_OF[d[h]]]
        state = "".join(state)
        assert midges.dest(state) == d
        assert reduced(moves.apply(state, written(found), N))
        assert midges.MidgeStage(table).cycle(a, b, c) == found


def test_cheapest_setups_takes_the_cheapest_setup_of_each_cycle():
    from cubebot.solver.solve5.cycletables import cheapest_setups, cycle_key
    turn = "r"                                       # slots 0..4 turned one on: s -> s + 1
    found = cheapest_setups([(7, (0, 1, 2), ["slow"]), (5, (0, 1, 2), ["fast"])], [turn],
                            lambda m: [1, 2, 3, 4, 0], cycle_key, lambda m, setup: 2)
    assert found[cycle_key(0, 1, 2)] == ([], ["fast"])
    # one setup turn: the cycle seen before it, each slot one back
    assert found[cycle_key(4, 0, 1)] == (["r"], ["fast"])
    assert found[cycle_key(3, 4, 0)] == (["r", "r"], ["fast"])
    assert len(found) == 5


# ---------------------------------------------------------------- each stage alone


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_the_axes_stage_alone(tables_dir, seed):
    solver = stages.MiddleSolver()
    cube = solver.relabel(scrambled(seed))
    stage = tcentres.AxesStage()
    found = pairsearch.ida_solutions(stage, open_dense(stage.table), cube, count=3)
    for solution in found:
        after = moves.apply(cube, written(solution), N)
        for f in range(6):                            # every T-centre and centre on its axis
            axis = tcentres.AXIS_OF[f]
            centre = [after[f * AREA + r * N + c] for r, c in ((1, 2), (2, 1), (2, 2), (2, 3), (3, 2))]
            assert all(tcentres.AXIS_OF[facelets.FACES.index(x)] == axis for x in centre)


@pytest.mark.parametrize("seed", [6, 7])
def test_the_pairs_stage_alone_on_its_group(tables_dir, seed):
    solver = stages.MiddleSolver()
    cube = solver.relabel(scrambled(seed, list(OUTER) + HALF_SLICES))
    stage = tcentres.PairsStage()
    solution = pairsearch.ida_solutions(stage, open_dense(stage.table), cube)[0]
    after = moves.apply(cube, written(solution), N)
    for f in range(6):
        face = after[f * AREA:(f + 1) * AREA]
        assert set(face[r * N + c] for r in (1, 2, 3) for c in (1, 2, 3)) == set(facelets.FACES[f])


@pytest.mark.parametrize("seed", [8, 9, 10])
def test_the_midge_stage_alone_on_its_group(tables_dir, seed):
    rng = random.Random(seed)
    turns = []
    for _ in range(15):
        turns += rng.choice(midges.cores()) + [rng.choice(OUTER)]
    cube = moves.apply(SOLVED, written(turns), N)
    solution = midges.MidgeStage(open_records("5x5-midge-cycles")).solve(cube)
    assert reduced(moves.apply(cube, written(solution), N))


@pytest.mark.parametrize("seed", [14, 15, 16])
def test_the_midge_stage_with_cores_alone_on_its_group(tables_dir, seed):
    # a cube made by random cores of the core table and outer turns (centres home)
    rng = random.Random(seed)
    index = midgecores.core_index(open_records(midgecores.TABLE))
    turns = []
    for _ in range(8):
        turns += index.moves(rng.randrange(len(index.values))) + [rng.choice(OUTER)]
    cube = moves.apply(SOLVED, written(turns), N)
    assert midges.wrong(midges.dest(cube)) > 0
    plain = midges.MidgeStage(open_records("5x5-midge-cycles")).solve(cube)
    solution = midges.MidgeStage(open_records("5x5-midge-cycles"), index).solve(cube)
    assert reduced(moves.apply(cube, written(solution), N))
    assert reduced(moves.apply(cube, written(plain), N))


def test_core_setups_are_every_distinct_outer_turn_sequence_once():
    # [] + 18 single turns + 18 x 15 pairs (no face twice in a row) less the 27 pairs of
    # opposite faces in the second order: 1 + 18 + 243; no two of them act alike
    for turns, count in ((0, 1), (1, 19), (2, 262)):
        setups = midges.core_setups(turns)
        assert len(setups) == count
        assert all(len(s) <= turns and all(not is_slice(m) for m in s) for s in setups)
        acted = set(moves.apply(SOLVED, written(s), N) for s in setups)
        assert len(acted) == count
    # every sequence of two outer turns acts as one of them (or as a shorter one)
    reached = set(moves.apply(SOLVED, written(s), N) for s in midges.core_setups(2))
    for a in OUTER:
        for b in OUTER:
            assert moves.apply(SOLVED, written([a, b]), N) in reached


@pytest.mark.parametrize("seed", [14, 15])
def test_the_core_steps_kept_are_the_best_of_all_ranked(tables_dir, seed):
    # the bounded heap keeps what sorting every candidate would: the same entries in the
    # same order, ties in the order the candidates come
    rng = random.Random(seed)
    index = midgecores.core_index(open_records(midgecores.TABLE))
    stage = midges.MidgeStage(open_records("5x5-midge-cycles"), index)
    turns = []
    for _ in range(6):
        turns += index.moves(rng.randrange(len(index.values))) + [rng.choice(OUTER)]
    d = midges.dest(moves.apply(SOLVED, written(turns), N))
    ranked = [(score, net, ms) for score, net, ms, _ in stage._ranked(d, []) if net > 0]
    everything = list(stage._candidates(d, ranked))
    assert len(everything) > 100
    expected = sorted(everything, key=lambda r: r[0])
    for keep in (1, 12, 50):
        assert stage._best_cores(d, ranked, keep) == expected[:keep]


@pytest.mark.parametrize("seed", [12, 13])
def test_phase_2_keeps_the_shortest_of_its_centre_trials(tables_dir, seed):
    # each of the MIDGE_TRIALS centre solutions puts the centres home; the midge stage
    # after each reduces the cube; phase 2 returns the shortest of them
    solver = stages.MiddleSolver()
    cube = solver.relabel(scrambled(seed))
    tables = stages._tables()
    tried = stages.centre_stages(stages.centre_walks(tables), cube)
    assert 1 <= len(tried) <= stages.MIDGE_TRIALS
    totals = []
    for _, axes, pairs in tried:
        after = moves.apply(cube, written(axes + pairs), N)
        mids = midges.MidgeStage(tables["5x5-midge-cycles"]).solve(after)
        assert reduced(moves.apply(after, written(mids), N))
        totals.append(len(written(axes + pairs + mids)))
    found = solver.stages(cube)
    assert len(written(found["axes"] + found["pairs"] + found["midges"])) <= min(totals)
    check(cube, names(found["axes"] + found["pairs"] + found["midges"]))


def test_plans_then_finish_is_phase_2_in_two_steps(tables_dir):
    # plans() gives the centre stages' best solutions, smallest estimate first; finish()
    # after each reduces the cube; stages() keeps the shortest of them
    solver = stages.MiddleSolver()
    state = scrambled(14)
    plans = solver.plans(state)
    assert 1 <= len(plans) <= stages.MIDGE_TRIALS
    assert [p.estimate for p in plans] == sorted(p.estimate for p in plans)
    totals = []
    for plan in plans:
        solution = written(stages.joined(solver.finish(plan)))
        check(state, names(solution))
        totals.append(len(solution))
    found = written(stages.joined(solver.stages(state)))
    check(state, names(found))
    assert len(found) <= min(totals)
    assert len(solver.plans(state, count=1)) == 1


def test_descent_fallback_with_no_search_nodes(tables_dir):
    state = scrambled(11)
    check(state, solve_middle(state, max_nodes=0))


# ---------------------------------------------------------------- the whole phase 2


@pytest.mark.parametrize("seed", [21, 22, 23, 24, 25])
def test_seeded_phase_2_states(tables_dir, seed):
    state = scrambled(seed)
    check(state, solve_middle(state))


def test_disguised_states_are_read_by_their_x_centres(tables_dir):
    state = disguise(scrambled(26), seeded(26))
    check(state, solve_middle(state))


def test_even_words_are_the_ones_with_even_quarter_turns_per_face():
    parse = moves.parse
    assert midgecores.even_word(parse("R2"))
    assert midgecores.even_word(parse("R U R' U'"))
    assert midgecores.even_word(parse("U R2 U"))
    assert not midgecores.even_word(parse("R U2"))
    assert not midgecores.even_word(parse("R U R'"))
    found = midgecores.words(2)
    assert all(midgecores.even_word(w) for w in found)
    # length 1: the 6 half turns; length 2: two half turns of different faces (6 x 5)
    assert len(found) == 6 + 6 * 5


def test_midge_core_table_round_trips_and_every_core_keeps_the_centres(tables_dir):
    # the table on disk is what the build makes: record i = (effect, moves) of core i
    table = open_records(midgecores.TABLE)
    built = midgecores.build_cores()
    assert len(table) == len(built) > 0
    assert len(set(tuple(e) for e, _ in built)) == len(built)      # one core per effect
    index = midgecores.CoreIndex(table)
    sizes = set()
    for i, (effect, core) in enumerate(built):
        assert index.moves(i) == core
        assert midgecores.effect(core) == effect
        after = moves.apply(SOLVED, written(core), N)
        for f in range(6):                     # every centre home, whatever W did
            face = after[f * AREA:(f + 1) * AREA]
            assert set(face[r * N + c] for r in (1, 2, 3) for c in (1, 2, 3)) == set(facelets.FACES[f])
        d = midges.dest(after)
        assert midges.follow(list(range(24)), core) == d
        moved = midgecores.moved(effect)
        assert len(moved) == midges.wrong(d) and sum(index.moved_mask[i] >> s & 1 for s in moved) == len(moved)
        sizes.add(len(moved))
    assert sizes == set([3, 4, 5, 6])           # more than a ring's 4 midges


@pytest.mark.parametrize("seed", [31, 32])
def test_core_index_counts_what_each_core_places(tables_dir, seed):
    # on a cube in the midge group, the net midges each core places (CoreIndex.placing)
    # is what applying it to the cube shows; and no core left out places one
    cube = scrambled(seed)
    solver = stages.MiddleSolver()
    cube = solver.relabel(cube)
    d = midges.dest(cube)
    index = midgecores.core_index(open_records(midgecores.TABLE))
    predicted = dict((i, net) for net, i in index.placing(d))
    assert predicted
    for i in range(len(index.values)):
        after = moves.apply(cube, written(index.moves(i)), N)
        net = midges.wrong(d) - midges.wrong(midges.dest(after))
        assert predicted.get(i, min(net, 0)) == net


def test_solved_and_one_move_states():
    assert solve_middle(SOLVED) == []
    for m in MOVES:
        state = moves.apply(SOLVED, written([m]), N)
        solution = solve_middle(state)
        check(state, solution)
        if m in OUTER:
            assert solution == []                   # an outer turn keeps it reduced


@pytest.mark.parametrize("turn", ["3R", "3U'", "3F2", "3R 3U"])
def test_parity_cases_odd_and_even_slices(tables_dir, turn):
    # a quarter slice: midges an odd permutation of the dedges, fixed centres a 4-cycle
    state = moves.apply(SOLVED, turn, N)
    check(state, solve_middle(state))


@pytest.mark.parametrize("which", [(0, 1), (0, 11), (4, 9)])
def test_two_midges_flipped_in_place(tables_dir, which):
    state = list(SOLVED)
    for s in which:
        a, b = midges.MIDGES[s]
        state[a], state[b] = state[b], state[a]
    state = "".join(state)
    assert midges.flips(midges.dest(state)) == 2
    check(state, solve_middle(state))


def test_two_midges_swapped(tables_dir):
    state = list(SOLVED)
    (a, b), (c, d) = midges.MIDGES[2], midges.MIDGES[7]
    state[a], state[b], state[c], state[d] = state[c], state[d], state[a], state[b]
    with pytest.raises(UnsolvableCube):                # one swap: odd against the dedges
        solve_middle("".join(state))


def test_split_t_pairs_take_the_cycle_path(tables_dir):
    # a pure T-centre 3-cycle (wide turns inside) splits T-pairs: phase 2's own moves
    # cannot solve that, so the T-centre cycles do
    table = open_records("5x5-centre-cycles")
    from cubebot.solver.solve5.centrecycles import CentreCycles
    cycle = CentreCycles(table).cycle(1, 0, 5, 9)
    state = moves.apply(scrambled(28), cycle, N)
    assert not stages.pairs_one_colour(stages.MiddleSolver().relabel(state))
    found = stages.MiddleSolver().stages(state)
    assert found["axes"] == [] and found["tcentres"]
    check(state, names(stages.simplify([m for k in stages.STAGE_NAMES for m in found[k]])))


def test_a_4x4x4_part_not_reduced_is_refused():
    with pytest.raises(InvalidCube):
        solve_middle(moves.apply(SOLVED, "Rw", N))
    with pytest.raises(InvalidCube):
        solve_middle(SOLVED[:-1])


def test_a_single_flipped_midge_is_unsolvable(tables_dir):
    state = list(SOLVED)
    a, b = midges.MIDGES[0]
    state[a], state[b] = state[b], state[a]
    with pytest.raises(UnsolvableCube):
        solve_middle("".join(state))


def test_axes_states_at_the_table_cap_are_solved(tables_dir):
    # costs of 15 and 16 turns are both stored as 15 (4 bits): IDA* and the descent still finish
    stage = tcentres.AxesStage()
    table = open_dense(stage.table)
    rank = next(r for r in range(len(table)) if table[r] == table.unreached)
    start = stage.unrank(rank)

    def h(s):
        return table[stage.rank(s)]

    path = pairsearch.descend(stage, h, start, table.unreached)
    state = start
    for m in path:
        state = stage.apply(state, stage.moves.index(m))
    assert h(state) == 0 and sum(stage.costs[stage.moves.index(m)] for m in path) >= 15
    found = next(search.ida_star(start, stage.moves, stage.apply, h, lambda s: h(s) == 0,
                                 max_cost=40, costs=stage.costs))
    assert sum(stage.costs[stage.moves.index(m)] for m in found) in (15, 16)


# ---------------------------------------------------------------- the pairs stage's ways


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_path_checks_tell_which_midges_are_home_after_the_moves(seed):
    # after any phase-2 moves, slot s's midge is home iff d[src[s]] == want[s]
    rng = random.Random(seed)
    for _ in range(20):
        cube = stages.MiddleSolver().relabel(scrambled(rng.randrange(10 ** 6)))
        path = [rng.choice(MOVES) for _ in range(rng.randrange(1, 12))]
        src, want = midges.paths_checks([[MOVES.index(m) for m in path]], MOVES)[0]
        before = midges.dest(cube)
        after = midges.dest(moves.apply(cube, written(path), N))
        looked = src.translate(midges.lookup(before))
        assert [after[2 * s] == 2 * s for s in range(midges.N_MIDGES)] == \
            [looked[s] == want[s] for s in range(midges.N_MIDGES)]


def test_pair_ways_count_the_midges_each_solution_leaves_out():
    # PairWays.out_of_place (whole-string arithmetic) against each move list turned on
    # the cube: one byte a solution, the midges not home after it
    rng = random.Random(31)
    cube = stages.MiddleSolver().relabel(scrambled(31))
    paths = [[rng.randrange(len(MOVES)) for _ in range(rng.randrange(0, 12))] for _ in range(300)]
    paths[0] = []
    solutions = [[MOVES[i] for i in p] for p in paths]
    ways = pairsearch.PairWays(MOVES, paths)
    out = ways.out_of_place(midges.lookup(midges.dest(cube)))
    assert len(out) == len(paths)
    assert list(out) == [midges.wrong(midges.dest(moves.apply(cube, written(p), N)))
                         for p in solutions]
    assert [ways.solution(k) for k in range(len(paths))] == solutions
    assert list(ways.turns) == [sum(tcentres.cost(m) for m in p) for p in solutions]


@pytest.mark.parametrize("seed", [24, 25])
def test_rank_walk_finds_what_ida_star_finds(tables_dir, seed):
    # the same solutions in the same order as the IDA* over states, cheapest first,
    # up to the slack; each one solves the pairs stage
    solver = stages.MiddleSolver()
    cube = solver.relabel(scrambled(seed, list(OUTER) + HALF_SLICES))
    stage = tcentres.PairsStage()
    table = open_dense(stage.table)
    walk = pairsearch.RankWalk(stage, table)
    for slack, count in ((0, 30), (2, 300)):
        found = walk.solutions(pairsearch.stage_start(stage, cube), slack, count, max_nodes=10 ** 6)
        assert found == pairsearch.ida_solutions(stage, table, cube, 10 ** 7, count, slack)
        costs = [sum(tcentres.cost(m) for m in p) for p in found]
        assert costs == sorted(costs) and costs[-1] <= costs[0] + slack
        for p in found:
            assert table[stage.rank(stage_after(stage, cube, p))] == 0


@pytest.mark.parametrize("seed", [28, 29])
def test_axes_walk_finds_what_ida_star_finds(tables_dir, seed):
    # the inlined search of the axes stage: the same solutions in the same order as
    # ida_star over AxesStage, with and without slack, and past the same node budget
    cube = stages.MiddleSolver().relabel(scrambled(seed))
    stage = tcentres.AxesStage()
    table = open_dense(stage.table)
    walk = pairsearch.AxesWalk(stage, table)
    for nodes, count, slack in ((20000, 30, 0), (20000, 400, 1), (3000, 2000, 1), (0, 5, 0)):
        found = walk.solutions(cube, nodes, count, slack)
        assert found == pairsearch.ida_solutions(stage, table, cube, nodes, count, slack)
        assert found and len(found) <= count
        for a in found:
            state = stage_after(stage, cube, a)
            assert table[stage.rank(state)] == 0
    costs = [sum(tcentres.cost(m) for m in a) for a in walk.solutions(cube, 20000, 400, 1)]
    assert costs == sorted(costs) and costs[-1] <= costs[0] + 1


def stage_after(stage, cube, path):
    state = pairsearch.stage_start(stage, cube)
    for m in path:
        state = stage.apply(state, stage.moves.index(m))
    return state


@pytest.mark.parametrize("seed", [26, 27])
def test_centre_stages_keep_the_best_scores_of_all_pairs(tables_dir, seed, monkeypatch):
    # the bounded heap keeps what sorting every (axes, pairs) pair by (score, order) keeps,
    # the midges scored by following the cube through the moves; 60 axes solutions, not
    # CHOICES, so that every pair can be followed on the cube in a few seconds
    monkeypatch.setattr(stages, "CHOICES", 60)
    solver = stages.MiddleSolver()
    cube = solver.relabel(scrambled(seed))
    tables = stages._tables()
    axes, pairs = tcentres.AxesStage(), tcentres.PairsStage()
    walk = pairsearch.RankWalk(pairs, tables[pairs.table])
    everything = []
    axes_found = pairsearch.ida_solutions(axes, tables[axes.table], cube, stages.AXES_NODES,
                                          stages.CHOICES, stages.AXES_SLACK)
    for a in axes_found:
        after = moves.apply(cube, written(a), N)
        assert pairsearch.pairs_start_after(axes, pairsearch.stage_start(pairs, cube),
                                            [axes.index[m] for m in a]) == \
            pairsearch.stage_start(pairs, after)
        for p in walk.solutions(pairsearch.stage_start(pairs, after), stages.PAIRS_SLACK,
                                stages.PAIRS_CHOICES):
            out = midges.wrong(midges.dest(moves.apply(after, written(p), N)))
            score = sum(tcentres.cost(m) for m in a + p) + stages.MIDGE_WEIGHT * out
            everything.append((score, len(everything), a, p))
    everything.sort(key=lambda r: r[:2])
    kept = stages.centre_stages(stages.centre_walks(tables), cube, count=8)
    assert [(s, a, p) for s, _, a, p in everything[:8]] == kept


def test_kept_ways_drops_the_least_recently_used():
    kept = stages.KeptWays(2)
    kept["a"] = 1
    kept["b"] = 2
    assert kept.get("a") == 1          # a is now the most recently used
    kept["c"] = 3
    assert list(kept) == ["a", "c"] and kept.get("b") is None


def test_phase_2_is_the_same_with_one_pair_ways_kept(tables_dir, monkeypatch):
    # the memo only saves searches: with room for one entry the plans and the
    # solution are those of the default memo, and the memo never holds more
    state = scrambled(15)
    default = stages.MiddleSolver()
    expected = stages.joined(default.stages(state))
    monkeypatch.setattr(stages, "PAIR_WAYS_KEPT", 1)
    small = stages.MiddleSolver()
    assert stages.joined(small.stages(state)) == expected
    assert len(small._pairs_found) <= 1
    check(state, names(written(expected)))
