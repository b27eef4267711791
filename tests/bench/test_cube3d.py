"""The independent cube model (bench/cube3d.py) tied to outside facts and to solver/.

The outside facts are the anchors of tests/solver/test_anchors.py (sources cited
there): group orders, published superflips, the checkerboard, the 4x4x4 parity
algorithms. The model shares no code with solver/; agreeing with it on random
move sequences for N = 2..7 checks both from two sides.
"""

import random

import pytest

from bench import cube3d as C
from cubebot.solver import facelets as F
from cubebot.solver import moves as M


def labelled(n):
    return "".join(chr(0x100 + i) for i in range(6 * n * n))


def solved(n):
    return "".join(face * n * n for face in "URFDLB")


def at(face, number, n=3):
    return "URFDLB".index(face) * n * n + number - 1


def order(sequence, n=3):
    start = labelled(n)
    cube = C.Cube.from_facelets(start)
    k = 0
    while True:
        cube.apply(sequence)
        k += 1
        if cube.facelets() == start:
            return k
        assert k <= 1260


def test_round_trip_and_solved():
    for n in range(1, 8):
        s = labelled(n)
        assert C.Cube.from_facelets(s).facelets() == s
        assert C.Cube.solved(n).is_solved()
    assert not C.Cube.solved(3).apply("R").is_solved()


def test_group_orders():
    assert order("R U R' U'") == 6
    assert order("R U") == 105
    assert order("R") == 4 and order("R2") == 2


# kociemba's numbering of the 3x3x3 edges (see tests/solver/test_anchors.py, [kociemba])
EDGES = [("U6", "R2"), ("U8", "F2"), ("U4", "L2"), ("U2", "B2"), ("D6", "R8"), ("D2", "F8"),
         ("D4", "L8"), ("D8", "B8"), ("F6", "R4"), ("F4", "L6"), ("B6", "L4"), ("B4", "R6")]


def idx(name):
    return at(name[0], int(name[1:]))


@pytest.mark.parametrize("sequence", [
    "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2",
    "R' U2 B L' F U' B D F U D' L D2 F' R B' D F' U' B' U D'",
])
def test_superflip(sequence):
    s = solved(3)
    state = C.apply(s, sequence)
    flipped = set()
    for a, b in EDGES:
        assert (state[idx(a)], state[idx(b)]) == (s[idx(b)], s[idx(a)])
        flipped.update((idx(a), idx(b)))
    assert [i for i in range(54) if state[i] != s[i]] == sorted(flipped)
    assert C.apply(state, sequence) == s


def test_checkerboard():
    opposite = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}
    state = C.apply(solved(3), "R2 L2 U2 D2 F2 B2")
    for face in "URFDLB":
        o = opposite[face]
        assert state[at(face, 1):at(face, 1) + 9] == face + o + face + o + face + o + face + o + face


def changed(a, b):
    return sorted(i for i in range(len(a)) if a[i] != b[i])


def test_4x4_oll_parity_flips_one_dedge():
    s = solved(4)
    state = C.apply(s, "2R2 B2 U2 2L U2 2R' U2 2R U2 F2 2R F2 2L' B2 2R2")
    u_side = [at("U", k, 4) for k in (14, 15)]
    f_side = [at("F", k, 4) for k in (2, 3)]
    assert changed(s, state) == sorted(u_side + f_side)
    assert all(state[i] == "F" for i in u_side) and all(state[i] == "U" for i in f_side)


@pytest.mark.parametrize("sequence", ["2R2 U2 2R2 Uw2 2R2 2U2", "r2 U2 r2 Uw2 r2 Uw2 U2"])
def test_4x4_pll_parity_swaps_two_dedges(sequence):
    s = solved(4)
    sequence = sequence.replace("r2", "2R2")          # the published r is the inner slice
    state = C.apply(s, sequence)
    f_side = [at("F", k, 4) for k in (2, 3)]
    b_side = [at("B", k, 4) for k in (2, 3)]
    assert changed(s, state) == sorted(f_side + b_side)
    assert all(state[i] == "B" for i in f_side) and all(state[i] == "F" for i in b_side)


def test_notation_forms():
    s = labelled(5)
    assert C.apply(s, "Rw") == C.apply(s, "R 2R") == C.apply(s, "r") == C.apply(s, "2Rw")
    assert C.apply(s, "3Rw'") == C.apply(s, "R' 2R' 3R'")
    assert C.apply(s, "x") == C.apply(s, "R 2R 3R 2L' L'")
    assert C.apply(s, "U2") == C.apply(s, "U U") == C.apply(s, "U2'")
    for bad in ("Q", "R3", "0R", "3x", "2r", ""):
        with pytest.raises(C.NotationError):
            C.parse_move(bad)
    with pytest.raises(ValueError):
        C.Cube.solved(3).turn("4R")


def random_tokens(n, rng, length):
    tokens = []
    for _ in range(length):
        kind = rng.randrange(5)
        face = "URFDLB"[rng.randrange(6)]
        if kind == 0:
            body = face
        elif kind == 1:
            body = str(rng.randrange(1, n + 1)) + face
        elif kind == 2:
            body = face + "w" if rng.randrange(2) else str(rng.randrange(1, n + 1)) + face + "w"
        elif kind == 3:
            body = "xyz"[rng.randrange(3)]
        else:
            body = face.lower() if n >= 2 else face
        tokens.append(body + ("", "'", "2")[rng.randrange(3)])
    return tokens


@pytest.mark.parametrize("n", range(2, 8))
def test_agrees_with_the_solver_model_on_random_sequences(n):
    rng = random.Random(1900 + n)
    start = labelled(n)
    for _ in range(20):
        tokens = random_tokens(n, rng, 30)
        assert C.apply(start, tokens) == M.apply(start, " ".join(tokens), n), tokens


@pytest.mark.parametrize("n", range(2, 8))
def test_random_layer_turns_make_valid_unsolved_states(n):
    rng = random.Random(n)
    tokens = C.random_layer_turns(n, rng, 40)
    assert len(tokens) == 40
    state = C.apply(solved(n), tokens)
    F.check_counts(state, n)
    assert not F.is_solved(state, n)
    assert state == M.apply(solved(n), " ".join(tokens), n)
    # and the inverse, read back through the model, solves it
    inverse = [t[:-1] if t.endswith("'") else (t if t.endswith("2") else t + "'") for t in reversed(tokens)]
    assert C.solves(state, inverse)


# -- published data (tests/data/published-cubes.json names the source of each) -------------

def _published():
    import json
    import os
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                        "published-cubes.json")
    with open(path) as fh:
        return json.load(fh)


PUBLISHED = _published()
KOCIEMBA_CUBES = 40           # random states solved by the kociemba package
KOCIEMBA_SCRAMBLE = 30


@pytest.mark.parametrize("entry", PUBLISHED["solved_3x3x3"], ids=lambda e: e["name"])
def test_published_3x3x3_solutions_solve_their_states(entry):
    assert C.solves(entry["state"], entry["solution"])
    tokens = entry["solution"].split()
    assert not C.solves(entry["state"], " ".join(tokens[:-1]))          # the last move matters
    # and the state is the solution's inverse applied to a solved cube, facelet for facelet
    inverse = " ".join(t[0] + {"": "'", "'": "", "2": "2"}[t[1:]] for t in reversed(tokens))
    assert C.apply(solved(3), inverse) == entry["state"]


def test_the_superflip_string_is_the_superflip():
    entry = [e for e in PUBLISHED["solved_3x3x3"] if e["name"] == "superflip"][0]
    assert C.apply(solved(3), entry["solution"]) == entry["state"]       # the superflip is its own inverse
    s = solved(3)
    for a, b in EDGES:                                                   # every edge flipped in place
        assert (entry["state"][idx(a)], entry["state"][idx(b)]) == (s[idx(b)], s[idx(a)])


def test_states_solved_by_the_kociemba_package():
    import kociemba
    rng = random.Random(2024)
    for _ in range(KOCIEMBA_CUBES):
        scramble = [rng.choice("URFDLB") + rng.choice(["", "'", "2"]) for _ in range(KOCIEMBA_SCRAMBLE)]
        state = C.apply(solved(3), " ".join(scramble))      # face turns: the centres stay home
        solution = kociemba.solve(state)
        assert C.solves(state, solution), (state, solution)


@pytest.mark.parametrize("entry", PUBLISHED["states"], ids=lambda e: e["name"])
def test_published_big_states_are_cubes_the_model_can_hold(entry):
    n = entry["size"]
    state = entry["state"]
    assert len(state) == 6 * n * n and all(state.count(f) == n * n for f in "URFDLB")
    cube = C.Cube.from_facelets(state)
    assert cube.facelets() == state and not cube.is_solved()
