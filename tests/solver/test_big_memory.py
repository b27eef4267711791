"""The 6x6x6's centre blocks in their compact, per-solve form (solver/big/stages.py
CentreStage.load_blocks): each block's getters say exactly what its moves do to a real
cube, blocks of one moved set share a getter, and the stage keeps no blocks after a solve."""

import inspect
from itertools import islice

import pytest

from cubebot.solver import moves, scramble
from cubebot.solver.big import cycles, reduce, stages, views
from .cubes import seeded

N = 6


@pytest.fixture(scope="module")
def loaded(tables_dir):
    red = reduce.Reducer(N)
    return red, red.centres.load_blocks()


def test_read_blocks_is_a_generator_of_every_stored_block(loaded):
    red, blocks = loaded
    stored = cycles.read_blocks(red.centres.table, N)
    assert inspect.isgenerator(stored)
    count = sum(1 for _ in stored)
    # every stored block once (each a distinct permutation)
    assert 1000 < count == len(blocks)


def test_each_block_getter_pair_is_what_its_moves_do_to_a_cube(loaded):
    red, blocks = loaded
    state = scramble.random_state(N, seeded(1801))
    rng = seeded(1802)
    for moved, source, coded in rng.sample(blocks, 40):
        seq = red.centres.block_moves(coded)
        after = moves.apply(state, seq, N)          # the block applied to a real cube
        assert after != state
        assert moved(after) == source(state)
        changed = set(moved(range(6 * N * N)))
        assert all(after[i] == state[i] for i in range(6 * N * N) if i not in changed)


def test_blocks_of_one_moved_set_share_one_getter(loaded):
    _, blocks = loaded
    getters = set(id(moved) for moved, _, _ in blocks)
    sets = set(moved(range(6 * N * N)) for moved, _, _ in blocks)
    assert len(getters) == len(sets) < len(blocks)


def test_the_centre_stage_drops_its_blocks_after_a_solve(loaded):
    red, blocks = loaded
    goal = views.blown_up(scramble.random_state(N, seeded(1803)), N)
    rng = seeded(1804)
    state = goal
    for _, _, coded in rng.sample(blocks, 4):
        state = moves.apply(state, red.centres.block_moves(coded), N)
    assert state != goal
    after = moves.apply(state, red.centres.solve(state), N)
    centres = views.joins(N)[0]
    assert all(after[a] == after[b] for a, b in centres)
    held = [v for v in vars(red.centres).values() if isinstance(v, (list, tuple, dict)) and len(v) > 1000]
    assert held == []


def test_a_join_beam_scores_each_child_by_the_joins_its_step_moves(tables_dir):
    # JoinBeam keeps, per step and kind, the count of the joins the step moves and one
    # getter over the cube's flags: the parent's unjoined count less that count plus the
    # getter's sum must be the child's own count, counted here facelet by facelet, for
    # every insert and free step (solver/big/freebeam.py)
    from cubebot.solver.big.freebeam import FreeStage, JoinBeam
    from cubebot.solver.big.insertbeam import insert_steps
    rng = seeded(1805)

    def unjoined(pairs, cube):
        return sum(cube[a] != cube[b] for a, b in pairs)
    for beam in (FreeStage(N), JoinBeam(N, insert_steps(N))):
        cube = scramble.random_state(N, rng)
        flags = beam._pairs.flags(cube)
        assert beam._unjoined(flags) == (unjoined(beam.centres, cube), unjoined(beam.wings, cube))
        for seq, _, centre_getter, wing_getter in beam.steps:
            child = moves.apply(cube, list(seq), N)
            for pairs, (moved, getter) in ((beam.centres, centre_getter), (beam.wings, wing_getter)):
                assert unjoined(pairs, cube) - moved + sum(getter(flags)) == unjoined(pairs, child)


def test_every_block_step_joins_the_facelets_it_is_weighed_for(loaded):
    # The centre stage weighs each stored block as it is and after each outer
    # turn (that turn, then the block, its closing turn left out). Applied to
    # the cube, every step it proposes must join exactly its net count more.
    red, blocks = loaded
    rng = seeded(1806)
    state = views.blown_up(scramble.random_state(N, seeded(1807)), N)
    for _, _, coded in rng.sample(blocks, 6):
        state = moves.apply(state, red.centres.block_moves(coded), N)
    pairs = views.joins(N)[0]

    def unjoined(cube):
        return sum(1 for a, b in pairs if cube[a] != cube[b])
    centres = [k for k, orbit in enumerate(red.orbits) if orbit[0] == "centre"]
    steps = red.centres._steps(state, [], centres, blocks)
    assert steps
    setups = red.centres._setups
    assert len(set(setups)) == len(setups) == 18
    turned = 0
    for setup in setups:               # the first dozen block steps after each outer turn
        cube = moves.apply(state, [setup], N)
        for net, seq in islice(red.centres._block_steps(cube, views.blown_up(cube, N), blocks), 12):
            assert unjoined(state) - unjoined(moves.apply(state, [setup] + seq, N)) == net
            turned += 1
    assert turned
    for _, net, seq in steps:
        assert unjoined(state) - unjoined(moves.apply(state, seq, N)) == net


@pytest.mark.parametrize("keep", [6, 7, 20, 100])
def test_step_candidates_held_in_bounds_give_the_steps_of_holding_them_all(keep):
    # many candidates, ties in moves per piece and repeated move lists among them
    rng = seeded(1805)
    arrived = []
    for _ in range(2000):
        net = rng.randint(1, 4)
        moves_ = tuple(rng.choice("ABCDEFGH") for _ in range(rng.randint(1, 3)))
        arrived.append((rng.randint(net, 12) / net, net, list(moves_)))
    everything = [(rate, k, net, moves_) for k, (rate, net, moves_) in enumerate(arrived)]
    found = stages._Found(stages.STEP_CHOICES, keep)
    for rate, net, moves_ in arrived:
        found.add(rate, net, moves_)
        assert len(found.entries) <= max(keep, stages.STEP_CHOICES) + 1
    cheapest = stages._CycleStage._cheapest
    assert cheapest(found.entries, stages.STEP_CHOICES) == cheapest(everything, stages.STEP_CHOICES)
    assert len(cheapest(everything, stages.STEP_CHOICES)) == stages.STEP_CHOICES
