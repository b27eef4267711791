import pytest

from cubebot.solver import api, facelets, moves, scramble, search, solve3, twophase
from cubebot.solver.cubies import corner_facelets, edge_facelets
from cubebot.solver.errors import InvalidCube
from .cubes import check_solves, disguise, seeded

N = 3
SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"
CHECKERBOARD = "U2 D2 F2 B2 L2 R2"
KNOWN = "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD"


def test_known_example_and_positions():
    for state in (KNOWN, moves.apply(facelets.solved(N), SUPERFLIP),
                  moves.apply(facelets.solved(N), CHECKERBOARD)):
        sol = api.solve(state)
        check_solves(state, sol.moves)
        assert 0 < sol.length <= solve3.DEFAULT_DEPTH
        assert sol.candidates[0] == sol.moves


def test_random_states_rotated_and_recoloured():
    rng = seeded(33)
    for _ in range(15):
        state = scramble.random_state(N, rng)
        shown = disguise(state, rng)
        sol = api.solve(shown)
        check_solves(shown, sol.moves)
        assert all(m.last == 1 for m in sol.moves)          # face turns only, never a rotation


def test_solved_in_any_orientation_needs_no_moves():
    state = disguise(facelets.solved(N), seeded(1))
    assert api.solve(state).moves == []


def test_budget_candidates_come_shortest_first_and_all_solve():
    # how many the children find depends on the machine's speed: only properties are checked
    # (several candidates, deterministically: test_in_process_views_give_several_candidates)
    state = scramble.random_state(N, seeded(12))
    sol = api.solve(state, budget=0.3)
    assert sol.candidates and sol.moves == sol.candidates[0]
    lengths = [moves.count(c) for c in sol.candidates]
    assert lengths == sorted(lengths) and sol.length == lengths[0]
    for c in sol.candidates:
        check_solves(state, c)


def _no_fork(*args):
    raise AssertionError("forked a child")


def test_in_process_views_give_several_candidates_without_forking(monkeypatch):
    import os
    import time
    monkeypatch.setattr(os, "fork", _no_fork)
    state = scramble.random_state(N, seeded(31))
    lettered = solve3.normalise(state)
    # a deadline already passed: the first view's solution only
    assert len(solve3.search_views(lettered, time.monotonic() - 1)) == 1
    assert len(solve3.search_views(lettered)) == len(solve3.VIEWS)   # no deadline: every view
    found = solve3.solve(state, fork=False)    # no budget: every view, the same on any machine
    assert len(found) >= 2                     # several distinct candidates
    lengths = [len(m) for m in found]
    assert lengths == sorted(lengths)
    for m in found:
        check_solves(state, m)


def test_views_map_solutions_back():
    state = scramble.random_state(N, seeded(4))
    lettered = solve3.normalise(state)
    import kociemba
    for view in solve3.VIEWS:
        seen = solve3.view_state(lettered, view)
        text = solve3.from_view(kociemba.solve(seen), view)
        check_solves(state, moves.parse(text))


def swap(state, i, j):
    s = list(state)
    s[i], s[j] = s[j], s[i]
    return "".join(s)


def test_qtm_counts_half_turns_twice():
    sol = api.solve(KNOWN, metric="qtm")
    assert sol.metric == "qtm" and sol.length == moves.count(sol.moves, "qtm") > len(sol.moves)


BASE = scramble.random_state(N, seeded(8))
C = corner_facelets(N)
E = edge_facelets(N)


def corner_rotated(state, k):
    a, b, c = C[k]
    s = list(state)
    s[a], s[b], s[c] = state[c], state[a], state[b]
    return "".join(s)


def duplicate_corner(_):
    """A solved cube whose URF corner shows UFL's colours: UFL twice (an edge
    repainted FL -> FR keeps the colour counts right)."""
    s = list(facelets.solved(N))
    for spot, colour in zip(C[0], "UFL"):
        s[spot] = colour
    s[E[9][1]] = "R"
    return "".join(s)


@pytest.mark.parametrize("make,pattern", [
    (lambda s: s[:-2], r"has 52 facelets"),
    (lambda s: s[:-1] + "X", r"7 distinct symbols"),
    (lambda s: s[:-1] + ("U" if s[-1] != "U" else "R"), r"appears (8|10) times"),
    (lambda s: "R" + facelets.solved(N)[1:13] + "U" + facelets.solved(N)[14:], r"centres of U and R are both"),
    (lambda s: corner_rotated(s, 0), r"corners are twisted"),
    (lambda s: swap(s, *E[0]), r"an edge is flipped"),
    (lambda s: swap(s, C[0][0], C[0][1]), r"mirror-image"),
    (lambda s: _odd(s), r"parity is odd"),
    (duplicate_corner, r"corner UFL appears twice, at UFL and URF|corner UFL appears twice"),
])
def test_each_invalid_3x3_input_has_its_own_message(make, pattern):
    with pytest.raises(InvalidCube, match=pattern):
        api.solve(make(BASE))


def _odd(state):
    """Two edges exchanged (both stickers each): odd permutation parity."""
    s = list(state)
    for a, b in zip(E[0], E[1]):
        s[a], s[b] = state[b], state[a]
    return "".join(s)


def test_invalid_messages_differ():
    messages = set()
    for make in (lambda s: corner_rotated(s, 0), lambda s: swap(s, *E[0]),
                 lambda s: swap(s, C[0][0], C[0][1]), _odd):
        with pytest.raises(InvalidCube) as info:
            api.solve(make(BASE))
        messages.add(str(info.value).split(":")[0])
    assert len(messages) == 4


def test_finish_in_order_stops_at_a_good_finish_and_sorts_whole_solutions(monkeypatch):
    monkeypatch.setenv(search.PURE_PYTHON_ENV, "1")      # kociemba's finish, view by view
    assert solve3.finish_path() == solve3.KOCIEMBA
    rng = seeded(3131)
    states = [scramble.random_state(3, rng) for _ in range(3)]

    def whole(k, finish):
        return list(finish)

    for good, finished in ((30, {0}), (0, {0, 1, 2})):
        scored = solve3.finish_in_order(states, whole, good, views=solve3.VIEWS[:2])
        assert set(k for _, _, k, _, _ in scored) == finished
        assert [t[:2] for t in scored] == sorted(t[:2] for t in scored)
        for length, _, k, finish, solution in scored:
            assert length == moves.count(solution, "obtm") and solution == list(finish)
            check_solves(states[k], solution)


@pytest.mark.skipif(twophase.compiled() is None, reason="the two-phase module is not built here")
def test_finish_in_order_searches_every_state_jointly_where_compiled(tables_dir):
    """The joint finish: every improvement scored, whole solutions sorted, each solving its
    cube; a longer reduction (whole's offset) is what the search weighs."""
    assert solve3.finish_path() == solve3.JOINT
    rng = seeded(3132)
    states = [scramble.random_state(3, rng) for _ in range(3)]
    padding = [moves.parse("R L"), [], moves.parse("U D F")]

    def whole(k, finish):
        return padding[k] + list(finish)

    scored = solve3.finish_in_order(states, whole, 0, nodes=20000)
    assert [t[:2] for t in scored] == sorted(t[:2] for t in scored)
    for length, _, k, finish, solution in scored:
        assert length == moves.count(solution, "obtm") and solution == padding[k] + list(finish)
        check_solves(states[k], list(finish))
    # each improvement found is shorter, reduction included (scored in the order found)
    totals = [len(padding[t[2]]) + len(t[3]) for t in sorted(scored, key=lambda t: t[1])]
    assert totals == sorted(set(totals), reverse=True)


def test_kociemba_seconds_count_the_compiled_searches_in_this_process():
    from cubebot.solver import kociemba_load
    if kociemba_load.probe()[0] != kociemba_load.COMPILED:
        pytest.skip("kociemba's compiled part does not load here")
    state = scramble.random_state(3, seeded(3333))
    before = solve3.KOCIEMBA_SECONDS[0]
    solution = solve3.solve(state, fork=False, views=solve3.VIEWS[:2])[0]
    check_solves(state, solution)
    assert solve3.KOCIEMBA_SECONDS[0] > before
