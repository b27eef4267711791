"""Property tests: any cube string or move string gives a result or one CubeError, never
another exception (the budget of examples is fixed by the "ci" profile, tests/conftest.py).

Every solution found is applied back to its state and must solve it.
"""

import random

from hypothesis import assume, given, settings, strategies as st

from cubebot.solver import api, facelets, moves
from cubebot.solver.errors import CubeError
from .cubes import check_solves

SYMBOLS = "URFDLB"
# everything a user may paste: the six letters, other letters, digits, spaces, unicode
ANY_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400)
STATE_LIKE = st.text(alphabet=SYMBOLS + "urfdlbXYZ 0\u00e9\u2603", max_size=300)
LENGTHS = [6 * n * n for n in range(facelets.MIN_SIZE, facelets.MAX_SIZE + 1)]


def _solve_or_error(state, size=None):
    """api.solve's outcome: the Solution (checked by applying it back) or a CubeError."""
    try:
        solution = api.solve(state, size=size)
    except CubeError as exc:
        assert str(exc) and "\n" not in str(exc)          # one line
        return exc
    n = facelets.size_from_length(len(state))
    for candidate in solution.candidates:
        assert facelets.is_solved(moves.apply(state, candidate, n), n)
        check_solves(state, candidate)                  # and by the independent model
    return solution


@given(ANY_TEXT)
def test_any_text_is_a_solution_or_one_cube_error(text):
    _solve_or_error(text)


@given(st.sampled_from(LENGTHS), st.data())
def test_strings_of_cube_lengths_are_a_solution_or_one_cube_error(length, data):
    state = data.draw(st.text(alphabet=SYMBOLS, min_size=length, max_size=length))
    n = facelets.size_from_length(length)
    assume(n <= 3)                  # bigger sizes: the checks below (their solvers take seconds)
    _solve_or_error(state)


@given(st.sampled_from([2, 3]), st.randoms(use_true_random=False))
def test_shuffled_stickers_are_a_solution_or_one_cube_error(tables_dir, n, rnd):
    stickers = list(facelets.solved(n))
    rnd.shuffle(stickers)           # right colour counts, mostly impossible pieces
    _solve_or_error("".join(stickers))


@settings(max_examples=60)
@given(st.sampled_from(range(4, facelets.MAX_SIZE + 1)), st.randoms(use_true_random=False))
def test_big_cube_checks_accept_or_raise_one_cube_error(n, rnd):
    stickers = list(facelets.solved(n))
    rnd.shuffle(stickers)
    try:
        size = facelets.check_counts("".join(stickers), n)
        api.check_structure("".join(stickers), size)
    except CubeError as exc:
        assert "\n" not in str(exc)


@given(st.one_of(st.none(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                 st.text(max_size=5), st.booleans()))
def test_any_budget_or_size_argument_is_checked(tables_dir, value):
    state = facelets.solved(2)
    for kwargs in ({"budget": value}, {"size": value}, {"metric": value}):
        try:
            api.solve(state, **kwargs)
        except CubeError:
            pass


MOVE_TOKENS = st.one_of(
    st.from_regex(r"\A[0-9]{0,6}[URFDLBurfdlbxyzQ]w?(2'|'2|2|'|3)?\Z"),
    st.text(alphabet="URFDLBw'2 0123456789\u0663", max_size=8),
    st.sampled_from(["9" * 5000 + "R", "0R", "4Uw'", "\u0663R", "R" * 3000]),
    ANY_TEXT.map(lambda t: t[:10]))


@given(st.lists(MOVE_TOKENS, max_size=20), st.sampled_from(range(facelets.MIN_SIZE, facelets.MAX_SIZE + 1)))
def test_any_move_string_applies_or_raises_one_cube_error(tokens, n):
    text = " ".join(tokens)
    try:
        parsed = moves.parse(text)
        after = moves.apply(facelets.solved(n), parsed, n)
    except CubeError as exc:
        assert "\n" not in str(exc)
        return
    assert sorted(after) == sorted(facelets.solved(n))      # a permutation of the stickers
    # and it is undone by its inverse
    assert facelets.is_solved(moves.apply(after, moves.invert(parsed), n), n)


def test_a_fixed_random_cube_is_solved_through_the_same_checks(tables_dir):
    from cubebot.solver.scramble import random_state
    state = random_state(3, random.Random(5))
    assert not isinstance(_solve_or_error(state), CubeError)
