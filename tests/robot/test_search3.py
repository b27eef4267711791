"""The 3x3x3 candidates of the compiled two-phase search (cubebot.robot.plan.search3) and
the choice among them (cubebot.robot.plan.choose with a Search)."""

import pytest

from cubebot.robot.job.robots import scrambled
from cubebot.robot.machine.config import Config
from cubebot.robot.machine.timing import TimeModel
from cubebot.robot.plan import bound, choose, planner, search3
from cubebot.solver.api import solve
from cubebot.solver.moves import format_moves

from tests.solver.cubes import check_solves

MODEL = TimeModel.from_config(Config())
CONFIG = Config()
SEARCH = choose.Search(CONFIG.search_slack_3x3, CONFIG.search_nodes_3x3, CONFIG.planned_candidates_3x3)
WHERES = ("URFDLB", "LUFRDB", "FDLBUR")

needs_module = pytest.mark.skipif(not search3.available(),
                                  reason="the compiled two-phase search is not built here")


@needs_module
@pytest.mark.parametrize("seed", [3, 17])
def test_every_candidate_solves_the_cube_and_keeps_within_the_length(tables_dir, seed):
    state = scrambled(3, seed)
    longest = len(solve(state, size=3).moves) + 1
    found = search3.candidates(state, longest, SEARCH.nodes, SEARCH.nodes * 20)
    assert len(found) > 1
    assert len(set(format_moves(m) for m in found)) == len(found)       # distinct
    for moves in found:
        assert len(moves) <= longest
        check_solves(state, moves)


@needs_module
@pytest.mark.parametrize("seed,where", list(zip((5, 8, 13), WHERES)))
def test_the_choice_solves_the_cube_and_is_never_slower_than_the_first(tables_dir, seed, where):
    state = scrambled(3, seed)
    chosen = choose.choose(state, 3, where, MODEL, 1, search=SEARCH)
    first = solve(state, size=3).moves
    assert chosen.first == first                     # the naive baseline's solution
    check_solves(state, chosen.moves)
    assert chosen.plan.seconds <= planner.plan(first, where, MODEL).seconds
    assert chosen.plan.seconds == pytest.approx(planner.plan(chosen.moves, where, MODEL).seconds)
    assert 1 < chosen.candidates <= SEARCH.planned


@needs_module
def test_more_candidates_planned_never_plan_slower(tables_dir):
    state = scrambled(3, 21)
    few = choose.choose(state, 3, "URFDLB", MODEL, 1, search=SEARCH._replace(planned=2))
    many = choose.choose(state, 3, "URFDLB", MODEL, 1, search=SEARCH._replace(planned=1000))
    assert few.candidates == 2 < many.candidates
    assert many.plan.seconds <= few.plan.seconds


def test_the_ranking_keeps_the_first_and_the_lowest_bounds():
    state = scrambled(3, 9)
    found = [solve(state, size=3).moves]
    for view in choose.VIEWS[1:12]:
        found += choose.view_solutions(state, 3, view, solve, found[0])
    kept = choose.ranked(found, "URFDLB", MODEL, 4)
    assert len(kept) == 4 and kept[0] is found[0]
    bounds = [bound.lower_bound(m, MODEL, "URFDLB")[0] for m in found[1:]]
    worst_kept = max(bound.lower_bound(m, MODEL, "URFDLB")[0] for m in kept[1:])
    assert sum(1 for b in bounds if b < worst_kept) <= 2
    assert choose.ranked(found[:3], "URFDLB", MODEL, 4) == found[:3]


def test_without_the_module_the_choice_is_todays(tables_dir, monkeypatch):
    monkeypatch.setenv("CUBEBOT_PURE_PYTHON", "1")
    assert not search3.available()
    state = scrambled(3, 5)
    assert search3.candidates(state, 30, SEARCH.nodes, SEARCH.nodes) is None
    with_search = choose.choose(state, 3, "LUFRDB", MODEL, 1, search=SEARCH)
    without = choose.choose(state, 3, "LUFRDB", MODEL, 1)
    assert with_search.moves == without.moves == solve(state, size=3).moves
    assert with_search.candidates == without.candidates == 1
    check_solves(state, with_search.moves)


@needs_module
def test_no_search_nodes_is_todays_choice(tables_dir):
    state = scrambled(3, 8)
    off = choose.choose(state, 3, "URFDLB", MODEL, 1, search=SEARCH._replace(nodes=0))
    assert off.moves == choose.choose(state, 3, "URFDLB", MODEL, 1).moves
    assert off.candidates == 1
