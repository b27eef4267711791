"""The 5x5x5 reduction solver: solutions applied back, each stage alone, parity, bad tables."""

import io
import json
import os
import shutil
import subprocess
import sys
from contextlib import redirect_stdout

import pytest

from cubebot.solver import api, catalog, facelets, moves, scramble, solve3, solve5, store
from cubebot.solver.errors import InvalidCube, TableError
from cubebot.solver.solve5 import centrecycles, cycletables, midges, model, outer4, reduce, tsets
from .cubes import check_solves, disguise, outer_wing_parity, seeded

N = 5


def solved():
    return facelets.solved(N)


def _reducer():
    return reduce.Reducer()


def _wings_with_midges(cube):
    """True if every wing shows, facelet for facelet, the colours of the midge next to it
    (every tredge whole: the wing permutation relative to the midges is the identity)."""
    return all(cube[p] == cube[mp] and cube[q] == cube[mq]
               for (p, q), (mp, mq) in zip(model.WINGS, model.MIDGE_OF))


def _centre_cycles():
    """The centre 3-cycles of table 5x5-centre-cycles (phase 2's split-pair way)."""
    return centrecycles.CentreCycles(store.open_records(centrecycles.TABLE))


@pytest.mark.parametrize("seed", [51, 52])
def test_seeded_random_states_are_solved(tables_dir, seed):
    state = disguise(scramble.random_state(N, seeded(seed)), seeded(seed + 100))
    solution = api.solve(state, metric="obtm")
    check_solves(state, solution.moves)
    # outer and wide turns (a middle slice of phase 2 is written as two wide turns, 3Rw Rw')
    assert all(m.first == 1 and m.last in (1, 2, 3) for m in solution.moves)
    assert solution.length == moves.count(solution.moves, "obtm")


def test_several_reductions_each_reduce_and_finishing_more_never_lengthens(tables_dir, monkeypatch):
    # middles: distinct reduced cubes, shortest first, each really reduced; the solve
    # finishing up to MAX_REDUCED of them is never longer than finishing the first alone,
    # and its stage moves are those of the reduction its solution came from (kociemba's
    # finish, every cube scored: the two-phase one spreads one node budget over the cubes)
    monkeypatch.setattr(solve3, "finish_path", lambda: solve3.KOCIEMBA)
    state = scramble.random_state(N, seeded(5353))
    red = _reducer()
    cube = reduce.label(state)
    found = red.middles(cube, red.phase1(cube))
    assert len(found) > 1 and [t[0] for t in found] == sorted(t[0] for t in found)
    after = [moves.apply(cube, [m for part in t[1:4] for m in part], N) for t in found]
    assert after == [t[4] for t in found] and len(set(after)) == len(after)
    for reduced in after:
        assert outer4.part_reduced(reduced) and _wings_with_midges(reduced)
        assert _centres_home(reduce.label(reduced))
    lengths = []
    for k, good in ((1, 0), (4, 0)):
        monkeypatch.setattr(reduce, "MAX_REDUCED", k)
        monkeypatch.setattr(reduce, "GOOD_FINISH", good)
        result = red.solve(state)
        check_solves(state, result.candidates[0])
        check_solves(state, [m for name in solve5.STAGES for m in result.stages[name]])
        lengths.append(moves.count(result.candidates[0], "obtm"))
    assert lengths[1] <= lengths[0]


def test_a_state_a_few_moves_from_solved(tables_dir):
    state = moves.apply(solved(), "Rw U' Fw2 D")
    result = solve5.solve_stages(state)
    check_solves(state, result.candidates[0])


def test_solved_cube_needs_no_moves(tables_dir):
    assert solve5.solve(solved())[0] == []


@pytest.mark.parametrize("turn, parity", [("Rw", 1), ("Rw2", 0), ("Uw Fw", 0), ("Uw Fw Lw'", 1)])
def test_parity_cases(tables_dir, turn, parity):
    # odd and even wing permutations: phase 1 reduces the 4x4x4 part either way
    state = moves.apply(solved(), turn)
    red = _reducer()
    assert outer_wing_parity(state) == parity
    result = red.solve(state)
    assert outer4.part_reduced(moves.apply(state, result.stages["outer4"], N))
    check_solves(state, result.candidates[0])


def test_last_two_tredges_parity_case_is_paired_without_an_appended_algorithm(tables_dir):
    # two wings of one edge swapped (the "flipped tredge" a human reaches last): an odd
    # wing permutation with centres solved
    red = _reducer()
    for turns in ("Rw U2 Rw' U2", "Rw U Rw'", "Lw' D Lw"):
        state = moves.apply(solved(), turns)
        result = red.solve(state)
        check_solves(state, result.candidates[0])


def _centres_home(cube):
    return all(cube[f] == facelets.FACES[f // (N * N)] for f in model.X_CENTRES + model.T_CENTRES)


def test_centre_stage_alone_solves_the_centres_and_keeps_the_pairs(tables_dir):
    # centres scrambled by pure centre 3-cycles (everything else solved), then outer turns
    table = _centre_cycles()
    rng = seeded(7)
    state = solved()
    for _ in range(6):
        a, b, c = rng.sample(range(model.N_SLOTS), 3)
        state = moves.apply(state, table.cycle(rng.randrange(2), a, b, c), N)
    state = moves.apply(state, "R U' F2", N)
    assert not _centres_home(state)
    after = moves.apply(state, table.solve(state), N)
    assert _centres_home(after)
    assert _wings_with_midges(after)                     # every wing still paired
    check_solves(after, solve5.solve(after)[0])


def test_middle_stage_alone_reduces_the_rest_and_keeps_the_x_centres(tables_dir):
    # the 4x4x4 part solved, the middle slices turned, then the 3x3x3 part
    red = _reducer()
    slices = [moves.Move("R", 3, 3, 1), moves.Move("U", 3, 3, 2), moves.Move("F", 3, 3, 3)]
    state = reduce.label(moves.apply(solved(), slices + moves.parse("R U' F2"), N))
    assert outer4.part_reduced(state) and not outer4.matches(state)
    _, first, pairs, solution, reduced = red.middles(state)[0]
    assert first == []                                  # phase 1's (none) is handed back as is
    assert reduced == moves.apply(state, pairs + solution, N)
    after = reduce.label(reduced)                       # named by the fixed centres again
    assert _centres_home(after)
    assert _wings_with_midges(after)
    check_solves(after, solve5.solve(after)[0])


def test_every_table_cycle_is_a_pure_three_cycle(tables_dir):
    centres = _centre_cycles()
    rng = seeded(9)
    for _ in range(30):
        a, b, c = rng.sample(range(model.N_SLOTS), 3)
        k = rng.randrange(2)
        slots = centrecycles.ORBITS[k]
        perm = cycletables._compose([moves.permutation(m, N) for m in centres.cycle(k, a, b, c)])
        assert cycletables.pure_cycle(perm, tuple((f,) for f in slots)) in ((a, b, c), (b, c, a), (c, a, b))


def test_finish_stage_alone_on_a_reduced_cube(tables_dir):
    state = moves.apply(solved(), "R U F' L2 D B R' U2")
    result = _reducer().solve(state)
    assert result.stages["outer4"] == result.stages["middle"] == []
    check_solves(state, result.candidates[0])


def test_impossible_cubes_are_rejected(tables_dir):
    state = list(solved())
    i, j = facelets.face_index("U", 1, 1, N), facelets.face_index("U", 1, 2, N)   # X and T
    state[i], state[j] = "R", "U"
    k = facelets.face_index("R", 1, 2, N)
    state[k] = "U"
    with pytest.raises(InvalidCube):
        api.solve("".join(state))


def _copy_tables(src, dst):
    for name in os.listdir(src):
        shutil.copy(os.path.join(src, name), os.path.join(dst, name))


def _cli_solve(directory, state):
    env = dict(os.environ, CUBEBOT_TABLES=directory)
    return subprocess.run([sys.executable, "-c", "import sys; from cubebot.robot.cli.main import main; "
                           "sys.exit(main(['solve', '--size', '5', sys.argv[1]]))", state],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


@pytest.mark.parametrize("table", [midges.TABLE, tsets.TABLE, tsets.MOVE_TABLE])
@pytest.mark.parametrize("damage", ["missing", "corrupt"])
def test_a_bad_5x5x5_table_is_one_line_and_exit_2(tables_dir, tmp_path, damage, table):
    _copy_tables(tables_dir, str(tmp_path))
    path = store.table_path(table, str(tmp_path))
    if damage == "missing":
        os.remove(path)
    else:
        with open(path, "r+b") as f:
            f.truncate(os.path.getsize(path) - 7)
    state = moves.apply(solved(), "Rw U Fw'")
    proc = _cli_solve(str(tmp_path), state)
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert table in proc.stderr
    with pytest.raises(TableError):
        reduce.Reducer(str(tmp_path))


def test_a_missing_4x4x4_table_is_named_by_the_5x5x5_solve(tables_dir, tmp_path):
    # phase 1 reads the 4x4x4 tables: catalog.NEEDS, checked before any search
    assert set(catalog.names(size=4)) < set(catalog.names(size=N))
    _copy_tables(tables_dir, str(tmp_path))
    os.remove(store.table_path("4x4-slice", str(tmp_path)))
    proc = _cli_solve(str(tmp_path), moves.apply(solved(), "Rw U Fw'"))
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert "4x4-slice" in proc.stderr and "--size 5" in proc.stderr


def test_a_5x5x5_scan_through_colors_then_solved(tables_dir, tmp_path):
    # the robot's path: a (simulated sensor) scan of a 5x5x5, `cubebot colors`, then a solve
    from cubebot.robot.cli.main import main as cli
    from cubebot.robot.colour.scanfile import dump_scan
    from tests.robot.colors_support import same_cube, scan_of
    state = scramble.random_state(N, seeded(71))
    path = tmp_path / "scan.json"
    path.write_text(json.dumps(dump_scan(scan_of(state, N, 5, "low"), N)))
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli(["colors", str(path)]) == 0
    resolved = out.getvalue().strip()
    assert same_cube(resolved, state)
    solution = api.solve(resolved, size=N)
    check_solves(resolved, solution.moves)


def test_the_link_solves_a_5x5x5(tables_dir):
    from cubebot.robot.link.protocol import Dispatcher
    from cubebot.robot.job.service import RobotService
    state = scramble.random_state(N, seeded(72))
    reply = Dispatcher(RobotService(make_robot=None), "test").handle(
        {"id": 1, "cmd": "solve", "state": state})
    assert reply["ok"], reply
    check_solves(state, moves.parse(reply["result"]["moves"]))
