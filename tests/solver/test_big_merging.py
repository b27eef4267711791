"""The big cubes' join beams count a step's moves after merging it with the path before it
(solver/big/merging.py): what each step saves is checked against moves.simplify, and the
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
