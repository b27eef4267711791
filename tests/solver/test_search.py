import random

from cubebot.solver.solve2 import cube as cube2
from cubebot.solver import moves, search, facelets, tables
from cubebot.solver.solve2 import Solver2

OUTER = moves.face_turns(3, wide=False)


def count_sequences(length):
    allowed = search.successors(OUTER)
    counts = {-1: 1}
    for _ in range(length):
        nxt = {}
        for last, c in counts.items():
            for j in allowed[last]:
                nxt[j] = nxt.get(j, 0) + c
        counts = nxt
    return sum(counts.values())


def test_pruning_gives_the_canonical_sequence_counts():
    # Known counts of canonical 3x3x3 move sequences in HTM.
    assert [count_sequences(k) for k in (1, 2, 3)] == [18, 243, 3240]


def test_ida_star_with_pruning_tables_is_optimal_on_the_2x2(tables_dir):
    """IDA* over (perm, twist) with two small BFS tables matches the table solver."""
    mv = list(cube2.HTM_MOVES)

    # pruning tables over each half of the coordinate, built with bfs
    def apply(state, i):
        return cube2.multiply(state[0], state[1], mv[i])
    def perm_nb(p):
        cp, co = cube2.unrank(p * cube2.N_TWIST_2)
        return [cube2.rank(*apply((cp, co), i)) // cube2.N_TWIST_2 for i in range(len(mv))]
    def twist_nb(t):
        cp, co = cube2.unrank(t)
        return [cube2.rank(*apply((cp, co), i)) % cube2.N_TWIST_2 for i in range(len(mv))]
    pdist = tables.bfs([0], perm_nb, n_states=cube2.N_PERM_2)
    tdist = tables.bfs([0], twist_nb, n_states=cube2.N_TWIST_2)

    def heuristic(state):
        r = cube2.rank(*state)
        return max(pdist[r // cube2.N_TWIST_2], tdist[r % cube2.N_TWIST_2])

    solver = Solver2("htm")
    rng = random.Random(11)
    for _ in range(15):
        scramble = [rng.choice(mv) for _ in range(6)]
        state = moves.apply(facelets.solved(2), scramble)
        cube = cube2.orient(state)[1]
        start = (cube.cp, cube.co)
        stats = search.Stats()
        found = search.first_solution(start, mv, apply, heuristic,
                                      lambda s: cube2.rank(*s) == cube2.SOLVED,
                                      max_cost=11, stats=stats)
        assert facelets.is_solved(moves.apply(state, found))
        assert len(found) == len(solver.solve(state))
        assert stats.nodes > 0
    solver.close()


def test_ida_star_yields_several_solutions_in_cost_order():
    mv = list(cube2.QTM_MOVES)
    costs = [1] * len(mv)
    state = moves.apply(facelets.solved(2), "R U")
    cube = cube2.orient(state)[1]
    sols = list(search.ida_star((cube.cp, cube.co), mv,
                                lambda s, i: cube2.multiply(s[0], s[1], mv[i]),
                                lambda s: 0, lambda s: cube2.rank(*s) == 0,
                                max_cost=8, costs=costs, max_solutions=3))
    assert len(sols) == 3
    assert [len(s) for s in sols] == sorted(len(s) for s in sols)
    assert moves.format_moves(sols[0]) == "U' R'"
    for s in sols:
        assert facelets.is_solved(moves.apply(state, s))


def test_stop_callback_ends_the_search():
    mv = list(cube2.HTM_MOVES)
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > 50

    state = moves.apply(facelets.solved(2), "R U F R' U2 F' R2 U'")
    cube = cube2.orient(state)[1]
    found = search.first_solution((cube.cp, cube.co), mv,
                                  lambda s, i: cube2.multiply(s[0], s[1], mv[i]),
                                  lambda s: 0, lambda s: cube2.rank(*s) == 0,
                                  max_cost=11, stop=stop)
    assert found is None and len(calls) == 51


def _ring_search(n, **kwargs):
    """IDA* on a ring of n states from 0 to n // 2: U and F step +1, R and B step -1."""
    ring_moves = [moves.Move(face, 1, 1, 1) for face in "UFRB"]
    steps = (1, 1, -1, -1)
    target = n // 2
    return list(search.ida_star(
        0, ring_moves, lambda s, i: (s + steps[i]) % n,
        lambda s: min((s - target) % n, (target - s) % n), lambda s: s == target, **kwargs))


def _end(solution, n):
    return sum(1 if m.face in "UF" else -1 for m in solution) % n


def test_cheapest_only_stops_after_the_first_bound_with_solutions():
    # 0 -> 5 on a ring of 10: four solutions of 5 moves (UFUFU, FUFUF, RBRBR, BRBRB), longer ones at 7
    every = _ring_search(10, max_cost=7, max_solutions=None)
    assert sorted(set(len(s) for s in every)) == [5, 7]
    cheapest = _ring_search(10, max_cost=7, max_solutions=None, cheapest_only=True)
    assert [len(s) for s in cheapest] == [5, 5, 5, 5]
    assert all(_end(s, 10) == 5 for s in every + cheapest)


def test_more_nodes_caps_the_search_for_further_solutions():
    capped = _ring_search(10, max_cost=7, max_solutions=None, cheapest_only=True, more_nodes=0)
    assert 1 <= len(capped) < 4
    assert all(len(s) == 5 and _end(s, 10) == 5 for s in capped)


def test_min_cost_starts_the_search_at_that_bound():
    # 0 -> 5 on a ring of 10: the 5-move solutions are skipped when the first bound is 7,
    # and with min_cost = 5 (the heuristic's own bound) nothing changes
    assert _ring_search(10, max_cost=7, max_solutions=None, min_cost=5) == \
        _ring_search(10, max_cost=7, max_solutions=None)
    longer = _ring_search(10, max_cost=7, max_solutions=None, min_cost=7)
    assert longer and all(len(s) == 7 and _end(s, 10) == 5 for s in longer)
    assert _ring_search(10, max_cost=6, min_cost=7) == []
