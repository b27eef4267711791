import pytest

from cubebot.solver import api
from cubebot.solver.solve2 import cube as cube2
from cubebot.solver import facelets, moves, scramble
from cubebot.solver.cubies import corner_facelets
from cubebot.solver.errors import InvalidCube, TableError
from .cubes import all_rotations, check_solves, disguise, seeded

N = 2
HTM = [moves.Move(f, 1, 1, t) for f in facelets.FACES for t in (1, 2, 3)]
QTM = [moves.Move(f, 1, 1, t) for f in facelets.FACES for t in (1, 3)]


def states_within(depth, move_set):
    """{canonical state: distance} for every 2x2x2 state within `depth`, found
    by BFS over all 18 (or 12) face turns on facelet strings, with states that
    differ by a whole-cube turn counted as one."""
    rotations = all_rotations(N)

    def canonical(s):
        return min(moves.apply(s, r, N) for r in rotations)

    start = canonical(facelets.solved(N))
    dist = {start: 0}
    frontier = [start]
    for d in range(1, depth + 1):
        nxt = []
        for s in frontier:
            for m in move_set:
                t = canonical(moves.apply(s, [m], N))
                if t not in dist:
                    dist[t] = d
                    nxt.append(t)
        frontier = nxt
    return dist


@pytest.mark.parametrize("metric,move_set,counts", [
    ("htm", HTM, [1, 9, 54, 321]),
    ("qtm", QTM, [1, 6, 27, 120]),
])
def test_every_state_within_depth_3_is_solved_optimally(tables_dir, metric, move_set, counts):
    dist = states_within(3, move_set)
    assert [sum(1 for d in dist.values() if d == k) for k in range(4)] == counts
    rng = seeded(3)
    for state, d in sorted(dist.items()):
        shown = disguise(state, rng) if rng.random() < 0.3 else state
        sol = api.solve(shown, metric=metric)
        check_solves(shown, sol.moves)
        assert sol.length == d == moves.count(sol.moves, metric)
        assert sol.metric == metric


def test_uniform_random_states_are_solved_within_gods_number(tables_dir):
    rng = seeded(20)
    for _ in range(100):
        state = scramble.random_state(N, rng)
        htm = api.solve(state)
        qtm = api.solve(state, metric="qtm")
        check_solves(state, htm.moves)
        check_solves(state, qtm.moves)
        assert htm.length <= 11 and qtm.length <= 14
        # the optimal QTM solution cannot beat the optimal HTM one when counted in HTM
        assert htm.length <= moves.count(qtm.moves, "htm")
        assert moves.count(htm.moves, "qtm") >= qtm.length


def test_rotated_and_recoloured_scrambles(tables_dir):
    rng = seeded(5)
    for _ in range(30):
        state = moves.apply(facelets.solved(N), [rng.choice(HTM) for _ in range(12)])
        plain = api.solve(state)
        shown = disguise(state, rng)
        sol = api.solve(shown)
        check_solves(shown, sol.moves)
        assert sol.length == plain.length


def test_solved_in_any_orientation_needs_no_moves(tables_dir):
    for r in all_rotations(N):
        state = moves.apply(facelets.solved(N), r)
        assert api.solve(state).moves == []


def test_coordinate_round_trip_and_move_model():
    rng = seeded(9)
    for _ in range(200):
        index = rng.randrange(cube2.N_STATES_2)
        cp, co = cube2.unrank(index)
        assert cube2.rank(cp, co) == index
    assert cube2.N_STATES_2 == 3674160


def twisted(state, corner=0):
    """One corner turned in place."""
    a, b, c = corner_facelets(N)[corner]
    s = list(state)
    s[a], s[b], s[c] = state[c], state[a], state[b]
    return "".join(s)


def mirrored(state, corner=0):
    """Two stickers of one corner swapped: a mirror-image piece."""
    a, b, _ = corner_facelets(N)[corner]
    s = list(state)
    s[a], s[b] = state[b], state[a]
    return "".join(s)


@pytest.mark.parametrize("make,pattern", [
    (lambda s: twisted(s), "twist"),
    (mirrored, "mirror-image"),
    (lambda s: s[:-1] + "U", "appears"),
    (lambda s: s[:23], "facelets"),
])
def test_invalid_2x2_states(make, pattern):
    state = make(scramble.random_state(N, seeded(1)))
    with pytest.raises(InvalidCube, match=pattern):
        api.solve(state)


def test_missing_table_is_reported_before_searching(tmp_path, monkeypatch):
    monkeypatch.setenv("CUBEBOT_TABLES", str(tmp_path))
    with pytest.raises(TableError, match=r"2x2x2 are not built \(2x2-htm.*missing.*`cubebot tables build --size 2`"):
        api.solve(scramble.random_state(N, seeded(2)))


def test_a_table_that_leads_nowhere_is_a_table_error(tmp_path):
    """A well-formed table with wrong contents fails with TableError, not deep in a loop."""
    from cubebot.solver import solve2, store, tables
    directory = str(tmp_path)
    dist = bytearray(cube2.N_STATES_2)            # every state "at distance 0"
    tables.write_dense(store.table_path("2x2-htm", directory), dist)
    with pytest.raises(TableError, match=r"2x2-htm is inconsistent.*cubebot tables build"):
        solver = solve2.Solver2("htm", directory)
        try:
            solver.solve(scramble.random_state(N, seeded(4)))
        finally:
            solver.close()
