import pytest

from cubebot.solver import api, facelets, moves, scramble
from cubebot.solver.errors import InvalidCube, NoSolver
from .cubes import seeded


def test_solution_fields(tables_dir):
    state = scramble.random_state(2, seeded(1))
    sol = api.solve(state, metric="qtm")
    assert sol.metric == "qtm" and sol.length == moves.count(sol.moves, "qtm")
    assert sol.seconds >= 0 and sol.candidates == [sol.moves]


@pytest.mark.parametrize("kwargs,pattern", [
    ({"metric": "half"}, "unknown metric 'half'"),
    ({"budget": 0}, "budget 0 s must be a number of seconds above 0"),
    ({"size": 10}, "cube size 10 is not supported"),          # sizes 2..9 (facelets.MAX_SIZE)
    ({"size": 2}, "has 54 facelets: a 2x2x2 cube needs 24"),
])
def test_bad_arguments(kwargs, pattern):
    with pytest.raises(InvalidCube, match=pattern):
        api.solve(facelets.solved(3), **kwargs)


def test_big_cubes_get_count_and_corner_checks():
    state = scramble.random_state(5, seeded(2))
    s = list(state)
    s[0], s[4] = s[4], s[0]              # two corner stickers of U exchanged
    broken = "".join(s)
    if broken != state:
        with pytest.raises(InvalidCube, match="corner"):
            api.solve(broken)
    with pytest.raises(InvalidCube, match="appears"):
        api.solve(state[:-1] + ("U" if state[-1] != "U" else "R"))


def test_sizes_without_an_engine_say_so(monkeypatch):
    # every size of the model has an engine now: take one away
    monkeypatch.delitem(api.ENGINES, 6)
    state = scramble.random_state(6, seeded(3))
    with pytest.raises(NoSolver, match="no solver for the 6x6x6 cube: sizes with a solver are "):
        api.solve(state)


def test_a_twisted_corner_on_a_4x4_is_found():
    state = facelets.solved(4)
    nn = 16
    # URF corner stickers: U bottom-right, R top-left, F top-right
    u, r, f = nn - 1, nn + 0, 2 * nn + 3
    s = list(state)
    s[u], s[r], s[f] = state[f], state[u], state[r]
    with pytest.raises(InvalidCube, match="twist"):
        api.solve("".join(s))
