"""The big cubes' join beams count a step's moves after merging it with the path before it
(solver/big/merging.py): what each step saves is checked against moves.simplify, each child
is ranked by that (a test that fails if the beams stop counting it), and the
free beam's path is simplified and pays for itself."""

import pytest

from cubebot.solver import moves, scramble
from cubebot.solver.big import freebeam, insertbeam, merging, views
from cubebot.solver.moves import parse, simplify
from .cubes import seeded


def _saved(path, step):
    """What simplify takes off path + step."""
    return len(path) + len(step) - len(simplify(path + step))


def test_a_first_move_on_the_last_axis_merges_or_cancels():
    path = parse("F U D")
    steps = [parse("U'"), parse("U"), parse("D2 R"), parse("R U"), parse("F'"), parse("3Uw")]
    found = dict(merging.savings(path, merging.by_first(steps)))
    assert found == {0: 2, 1: 1, 2: 1}     # U' cancels U; U U is U2; D D2 is D' (across U)
    for index, step in enumerate(steps):
        assert found.get(index, 0) == _saved(path, step)
    assert merging.savings([], merging.by_first(steps)) == []


@pytest.mark.parametrize("n", (6, 7))
def test_every_free_and_insert_step_saves_at_most_what_simplify_takes_off(n):
    # The beams rank a child by path + step less the saving: never less than the
    # simplified length (a cascade may take off more, never less), and exactly it for
    # the single free turns.
    rng = seeded(2611 + n)
    turns = [m for m, _ in freebeam.free_turns(n)]
    free = [views.written([m], n) for m in turns]
    inserts = insertbeam.insert_steps(n)
    for steps in (free, inserts):
        grouped = merging.by_first(steps)
        for _ in range(40):
            path = simplify([rng.choice(turns) for _ in range(rng.randint(1, 8))])
            saved = dict(merging.savings(path, grouped))
            for index, step in enumerate(steps):
                true = _saved(path, step)
                assert saved.get(index, 0) <= true
                if len(step) == 1:
                    assert saved.get(index, 0) == true


@pytest.mark.parametrize("n", (6, 7))
def test_the_free_beam_returns_a_simplified_path_that_pays_for_itself(n):
    state = scramble.random_state(n, seeded(2621 + n))
    stage = freebeam.FreeStage(n)
    path = stage.solve(state)
    assert path and path == simplify(path)
    after = moves.apply(state, path, n)
    assert stage._score(after) + len(path) < stage._score(state)


@pytest.mark.parametrize("n", (6, 7))
def test_the_join_beams_rank_each_child_by_its_merged_path_and_its_joins(n):
    # What the beams rank a child by: its path's length after the step, less what the
    # step's first move merges with the path's end (exactly the simplified length for
    # single turns, never less than it for the inserts), plus the weighted facelets
    # the child leaves not joined, counted on the child's own cube.
    rng = seeded(2631 + n)
    state = scramble.random_state(n, rng)
    turns = [m for m, _ in freebeam.free_turns(n)]
    free = freebeam.FreeStage(n)
    inserts = insertbeam.InsertStage(n).beam()
    for beam, centre_weight, wing_weight in ((free, freebeam.CENTRE_WEIGHT, freebeam.WING_WEIGHT),
                                             (inserts, insertbeam.CENTRE_WEIGHT, insertbeam.WING_WEIGHT)):
        rated = beam._rated(centre_weight, wing_weight)
        merged = 0
        for _ in range(3):
            path = simplify([rng.choice(turns) for _ in range(rng.randint(1, 6))])
            cube = moves.apply(state, path, n)
            children = beam._children(0, (len(path), cube, None, path), rated, centre_weight, wing_weight)
            assert len(children) == len(beam.steps)
            for score, cost, index, at in children:
                step = list(beam.steps[index][0])
                true = len(simplify(path + step))
                assert at == 0 and true <= cost <= len(path) + len(step)
                if len(step) == 1:
                    assert cost == true
                if cost < len(path) + len(step) or index % 7 == 0:      # every merged one, a seventh of the rest
                    merged += cost < len(path) + len(step)
                    child = moves.apply(cube, step, n)
                    assert score == pytest.approx(cost + beam.score(child, centre_weight, wing_weight))
        assert merged          # some steps merged, and were ranked as cheaper
