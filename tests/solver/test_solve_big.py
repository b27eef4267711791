"""The 6x6x6 and 7x7x7 solver (solver/big): views and orbits against the cube model,
table cycles, solutions applied back, parity, near-solved cubes, the CLI, scans, the link."""

import io
import json
import os
import shutil
import subprocess
import sys
from contextlib import redirect_stdout

import pytest

from cubebot.solver import api, catalog, facelets, moves, scramble, store
from cubebot.solver.big import cyclebuild, cycles, freebeam, reduce, solve_stages, views
from cubebot.solver.errors import TableError
from cubebot.solver.moves import Move
from .cubes import check_solves, disguise, seeded

SIZES = (6, 7)
REAL_SCANS = os.path.join(os.path.dirname(__file__), "..", "data", "real-scans")


def _solved(n):
    return facelets.solved(n)


def _scrambled(n, seed):
    return scramble.random_state(n, seeded(seed))


def _all_turns(n):
    return [Move(f, 1, d, t) for f in facelets.FACES for d in range(1, n) for t in (1, 2, 3)]


# ---------------------------------------------------------------- views and orbits

@pytest.mark.parametrize("n", SIZES)
def test_every_small_turn_lifts_to_a_big_turn_that_turns_the_view_alike(n):
    small = len(views.view_rows(n))
    big = _scrambled(n, 60 + n)
    view = views.view(big, n)
    for m in _all_turns(small):
        assert views.view(moves.apply(big, [views.lift(m, n)], n), n) == moves.apply(view, [m], small)


@pytest.mark.parametrize("n", SIZES)
def test_every_big_turn_is_a_small_turn_on_the_view_and_slices_outside_leave_it(n):
    rows = views.view_rows(n)
    big = _scrambled(n, 70 + n)
    view = views.view(big, n)
    images = set(moves.apply(view, [m], len(rows)) for m in _all_turns(len(rows))) | {view}
    for m in _all_turns(n):
        assert views.view(moves.apply(big, [m], n), n) in images
    for layer in range(2, n):
        s = Move("R", layer, layer, 1)
        unchanged = views.view(moves.apply(big, [s], n), n) == view
        assert unchanged == (layer - 1 not in rows)


@pytest.mark.parametrize("n", SIZES)
def test_grouped_turns_keep_a_blown_up_cube_blown_up(n):
    # the blown-up cube of a scramble is the smaller cube thickened; every lifted small turn
    # keeps it so and turns its view as the small turn does
    small = len(views.view_rows(n))
    big = views.blown_up(_scrambled(n, 65 + n), n)
    assert views.blown_up(big, n) == big
    for m in _all_turns(small):
        lifted = views.lift(m, n)
        assert lifted.first == 1 or lifted.first - 1 in [first for first, _ in views.groups(n)]
        after = moves.apply(big, [lifted], n)
        assert views.blown_up(after, n) == after
        assert views.view(after, n) == moves.apply(views.view(big, n), [m], small)


@pytest.mark.parametrize("n", SIZES)
def test_opened_leaves_out_exactly_the_closing_turns_that_keep_every_join(n):
    # a wide turn of layers 1..L keeps a blown-up cube blown up iff L ends a group
    big = views.blown_up(_scrambled(n, 68 + n), n)
    lasts = cycles.grouped_lasts(n)
    assert lasts == frozenset(last + 1 for _, last in views.groups(n))
    for d in range(1, n):
        after = moves.apply(big, [Move("R", 1, d, 1)], n)
        assert (views.blown_up(after, n) == after) == (d in lasts)
    slice_, grouped = Move("R", 2, 2, 1), [Move("U", 1, 1, 2), Move("F", 1, 3, 1)]
    assert cycles.opened([slice_] + grouped, n) == [slice_]
    assert cycles.opened([slice_, Move("F", 1, 2, 1)], n) == [slice_, Move("F", 1, 2, 1)]


@pytest.mark.parametrize("n", SIZES)
def test_joins_pair_every_facelet_outside_the_view_with_its_group_facelet(n):
    rows = views.view_rows(n)
    centres, wings = views.joins(n)
    nn = n * n
    inside = [i for i in range(6 * nn) if (i % nn) // n in rows and i % n in rows]
    assert sorted([a for a, _ in centres + wings] + inside) == list(range(6 * nn))
    assert all((b % nn) // n in rows and b % n in rows and a // nn == b // nn for a, b in centres + wings)
    assert len(wings) == 24 * 2 * ((n - 2) // 2 - 1)
    solved = _solved(n)
    assert views.blown_up(solved, n) == solved


@pytest.mark.parametrize("n", SIZES)
def test_the_view_stage_alone_solves_a_blown_up_cube(tables_dir, n):
    state = views.blown_up(_scrambled(n, 67 + n), n)
    solution = reduce.Reducer(n).solve_view(state, None)
    assert all(m.first == 1 and m.last < n for m in solution)
    check_solves(state, solution)


@pytest.mark.parametrize("n", SIZES)
def test_the_free_stage_pays_for_itself(n):
    # the beam returns the path to its best score: never worse than doing nothing
    state = _scrambled(n, 85 + n)
    stage = freebeam.FreeStage(n)
    solution = stage.solve(state)
    assert all(m.first == 1 and m.last <= (n + 1) // 2 for m in solution)
    after = moves.apply(state, solution, n)
    assert stage._score(after) + len(solution) <= stage._score(state)
    assert stage._score(after) < stage._score(state)


@pytest.mark.parametrize("n", SIZES)
def test_the_insert_stage_joins_centres_and_pays_for_itself(n):
    # after the free stage: the beam's path never costs more than the centre facelets it
    # joins are charged (its best score is at most the start's), and it joins some
    from cubebot.solver.big import insertbeam
    state = _scrambled(n, 87 + n)
    state = moves.apply(state, freebeam.FreeStage(n).solve(state), n)
    solution = insertbeam.InsertStage(n).solve(state)
    assert all(m.first == 1 and m.last <= (n + 1) // 2 for m in solution)
    after = moves.apply(state, solution, n)
    centres = views.joins(n)[0]

    def loose(cube):
        return sum(1 for a, b in centres if cube[a] != cube[b])
    assert insertbeam.CENTRE_WEIGHT * loose(after) + len(solution) <= \
        insertbeam.CENTRE_WEIGHT * loose(state)
    assert loose(after) < loose(state)


def test_insert_steps_are_distinct_and_hold_the_speedcubers_inserts():
    from cubebot.solver.big import insertbeam
    n = 6
    steps = insertbeam.insert_steps(n)
    perms = set(tuple(views.sequence_permutation(seq, n))
                for seq in steps)
    assert len(perms) == len(steps) > 1000
    written = set(moves.format_moves(seq) for seq in steps)
    assert "Rw U Rw'" in written and "3Uw R 3Uw'" in written and "U" in written
    # an inner slice costs two moves (two wide turns): 2R U 2R' is 5
    assert "Rw R' U Rw' R" in written


@pytest.mark.parametrize("n", SIZES)
def test_block_commutators_are_pure_centre_cycles_outside_the_view(tables_dir, n):
    red = reduce.Reducer(n)
    rows = views.view_rows(n)
    nn = n * n
    outside = set(a for a, _ in views.joins(n)[0])
    size = 6 * nn
    blocks = red.centres.load_blocks()
    assert len(blocks) > 1000
    rng = seeded(95 + n)
    for _, _, coded in rng.sample(blocks, 40):
        seq = red.centres.block_moves(coded)
        perm = views.sequence_permutation(seq, n)
        changed = [i for i in range(size) if perm[i] != i]
        assert changed and set(changed) <= outside
        assert all(perm[perm[perm[i]]] == i for i in changed)
        assert not any((i % nn) // n in rows and i % n in rows for i in changed)
        assert len(seq) <= 16          # rectangles 12, several 3-cycles 8-16


@pytest.mark.parametrize("n", SIZES)
def test_centre_commutators_of_several_cycles_are_cheaper_per_facelet_than_a_3_cycle(tables_dir, n):
    # [a b a', Q] whose supports meet in two facelets: two 3-cycles for 8-10 moves, where
    # one 3-cycle of the table costs 9-12 opened
    red = reduce.Reducer(n)
    size = 6 * n * n
    cheap = 0
    for seq in cycles.read_blocks(red.centres.table, n):
        perm = views.sequence_permutation(seq, n)
        changed = sum(1 for i in range(size) if perm[i] != i)
        cheap += changed == 6 and len(cycles.opened(seq, n)) <= 9
    assert cheap > 1000                             # 432 of them among the block commutators
    three = [len(cycles.opened(red.centres.cycle(k, a, a + 1, a + 2), n))
             for k, orbit in enumerate(red.orbits) if orbit[0] == "centre" for a in range(0, 22, 3)]
    assert sum(three) / len(three) < 13.5          # 15 before [a b a', Q] took any turn


@pytest.mark.parametrize("n", SIZES)
def test_the_centre_and_wing_stages_alone_finish_a_cube_of_their_group(tables_dir, n):
    # a blown-up cube with pure cycles of the orbits outside the view applied: the cycle
    # stages alone make it blown up again
    red = reduce.Reducer(n)
    goal = views.blown_up(_scrambled(n, 75 + n), n)
    rng = seeded(76 + n)
    state = goal
    for index in range(len(red.orbits)):
        for _ in range(5):
            state = moves.apply(state, red.centres.cycle(index, *rng.sample(range(cycles.N_SLOTS), 3)), n)
    for _, _, coded in rng.sample(red.centres.load_blocks(), 5):
        state = moves.apply(state, red.centres.block_moves(coded), n)
    assert state != goal
    after = moves.apply(state, red.centres.solve(state), n)
    after = moves.apply(after, red.wings.solve(after), n)
    # blown up again: every piece outside the view joined (the cycles' closing outer turns
    # are left out, so the view may be turned by outer turns: the view stage solves it)
    assert after == views.blown_up(after, n)


def test_the_centre_and_wing_beams_are_shorter_than_the_greedy_they_replaced(tables_dir,
                                                                             monkeypatch):
    # each beam (WIDTH cubes, each followed by its STEP_CHOICES best steps) against one cube
    # taking its one best step each time (the greedy it replaced), both finishing their pieces:
    # the centre stage on three seeded 6x6x6 cubes after their first stages, summed (on one
    # cube the two can tie); the wing stage on one of them without the pairing stage (after
    # it few wings are left, and the two often tie)
    from cubebot.solver.big import stages
    red = reduce.Reducer(6)
    centre_pairs = views.joins(6)[0]

    def compare(stage, cube, width, choices):
        lengths = []
        for greedy in (True, False):
            if greedy:
                monkeypatch.setattr(stages, width, 1)
                monkeypatch.setattr(stages, choices, 1)
            else:
                monkeypatch.undo()
            solution = stage.solve(cube)
            after = moves.apply(cube, solution, 6)
            assert all(after[a] == after[b] for a, b in centre_pairs)
            if stage is red.wings:
                assert after == views.blown_up(after, 6)        # every wing home too
            lengths.append(len(solution))
        return lengths

    totals = [0, 0]
    for seed in (6600, 6601, 6602):
        cube = _scrambled(6, seed)
        cube = moves.apply(cube, red.free.solve(cube), 6)
        cube = moves.apply(cube, red.inserts.solve(cube), 6)
        unpaired = moves.apply(cube, red.parity(cube, views.blown_up(cube, 6)), 6)
        cube = moves.apply(cube, red.pairing.solve(cube), 6)
        cube = moves.apply(cube, red.parity(cube, views.blown_up(cube, 6)), 6)
        greedy, beam = compare(red.centres, cube, "BEAM_WIDTH", "STEP_CHOICES")
        totals = [totals[0] + greedy, totals[1] + beam]
    assert totals[1] < totals[0], totals
    cube = moves.apply(unpaired, red.centres.solve(unpaired), 6)
    greedy, beam = compare(red.wings, cube, "WING_BEAM_WIDTH", "WING_STEP_CHOICES")
    assert beam < greedy, (greedy, beam)


@pytest.mark.parametrize("n", SIZES)
def test_orbits_partition_the_pieces_and_every_turn_keeps_them(n):
    centres = views.centre_orbits(n)
    cells = [f for _, slots in centres for f in slots]
    nn = n * n
    inner = [i for i in range(6 * nn) if 0 < (i % nn) // n < n - 1 and 0 < i % n < n - 1]
    fixed = 6 if n % 2 else 0
    assert sorted(cells) == sorted(set(cells)) and len(cells) == len(inner) - fixed
    wings = views.wing_orbits(n)
    assert len(wings) == (n - 2) // 2 and all(len(slots) == 24 for _, slots in wings)
    for m in _all_turns(n):
        perm = moves.permutation(m, n)
        goes = dict((p, i) for i, p in enumerate(perm))
        for _, slots in centres:
            assert set(goes[f] for f in slots) == set(slots)
        for _, slots in wings:
            firsts = set(goes[p] for p, _ in slots) | set(goes[q] for _, q in slots)
            assert firsts == set(f for pair in slots for f in pair)


@pytest.mark.parametrize("n", SIZES)
def test_table_cycles_are_pure_three_cycles(tables_dir, n):
    red = reduce.Reducer(n)
    rng = seeded(90 + n)
    for index, (kind, label, slots) in enumerate(red.orbits):
        for _ in range(8):
            a, b, c = rng.sample(range(cycles.N_SLOTS), 3)
            seq = red.centres.cycle(index, a, b, c)
            perm = views.sequence_permutation(seq, n)
            assert cyclebuild.pure_cycle(perm, slots) in ((a, b, c), (b, c, a), (c, a, b)), (kind, label)


# ---------------------------------------------------------------- solving

@pytest.mark.parametrize("n, seed", [(6, 61), (6, 62), (7, 71)])
def test_seeded_random_states_are_solved(tables_dir, n, seed):
    state = disguise(_scrambled(n, seed), seeded(seed + 100))
    solution = api.solve(state, metric="obtm")
    check_solves(state, solution.moves)
    assert all(m.first == 1 and m.last < n for m in solution.moves)      # outer and wide turns
    assert solution.length == moves.count(solution.moves, "obtm")


def test_the_first_stages_run_in_several_orientations_and_the_best_estimate_goes_on(
        tables_dir, monkeypatch):
    n = 6
    state = moves.apply(_solved(n), "3Rw U' 2Fw2 D 3F 2U' Rw 2L2 3B' U 2R", n)
    monkeypatch.setitem(reduce.TRIED, n, 3)
    monkeypatch.setattr(reduce, "TABLE_STAGING", False)     # the free stage's path
    red = reduce.Reducer(n)
    centres, wings = views.joins(n)
    estimates, frees = [], []
    for rotation in reduce.ROTATIONS[:3]:
        parts, cube = red.first_stages([moves.apply(state, rotation, n)])[0]
        # the estimate, counted here from the joins themselves
        estimates.append(len(moves.simplify([m for part in parts for m in part]))
                         + reduce.ESTIMATE_CENTRE * sum(cube[a] != cube[b] for a, b in centres)
                         + reduce.ESTIMATE_WING * sum(cube[a] != cube[b] for a, b in wings))
        faces = moves.rotated_faces(rotation)
        frees.append([Move(faces[m.face], m.first, m.last, m.turns) for m in parts[0]])
    assert len(set(estimates)) > 1        # the orientations take different paths
    result = red.solve(state)
    best = estimates.index(min(estimates))
    assert result.stages["free"] == frees[best]     # given back in the frame of the state
    check_solves(state, result.candidates[0])


@pytest.mark.parametrize("n", SIZES)
def test_solved_cube_needs_no_moves(tables_dir, n):
    assert api.solve(_solved(n)).moves == []


@pytest.mark.parametrize("n, turns", [(6, "3Rw U' 2Fw2 D"), (7, "4Rw U' 3Fw2 D"), (7, "R U F'")])
def test_states_a_few_moves_from_solved(tables_dir, n, turns):
    state = moves.apply(_solved(n), turns, n)
    result = solve_stages(state)
    check_solves(state, result.candidates[0])


@pytest.mark.parametrize("n, turn", [(6, "3R"), (6, "3Rw Rw'"), (7, "3R"), (7, "3R 3U'"),
                                     (6, "3R U2 3R' U2 3R 3Fw2 R")])
def test_wing_parity_cases(tables_dir, n, turn):
    # a quarter turn of a slice outside the view: one wing orbit odd against the orbit
    # of the view (the stages before parity may change it; the parity stage reads it after)
    state = moves.apply(_solved(n), turn, n)
    red = reduce.Reducer(n)
    result = red.solve(state)
    after = state
    for name in reduce.STAGES[:reduce.STAGES.index("pairing") + 1]:   # staging .. pairing
        after = moves.apply(after, result.stages[name], n)
    goal = views.blown_up(after, n)
    dests = [red.wings.dest(after, i, goal) for i, o in enumerate(red.orbits) if o[0] == "wing"]
    odd = [reduce.wing_parity(d) for d in dests]
    assert len(result.stages["parity"]) == 2 * sum(odd)
    after = moves.apply(after, result.stages["parity"], n)
    assert not any(reduce.wing_parity(red.wings.dest(after, i, goal))
                   for i, o in enumerate(red.orbits) if o[0] == "wing")
    check_solves(state, result.candidates[0])


def test_odd_wing_orbit_after_the_view_is_made_even(tables_dir):
    # a single 2-cycle of wings outside the view cannot be done by 3-cycles: the parity stage
    n = 6
    state = moves.apply(_solved(n), "3R U2 3R' U2 3R", n)
    check_solves(state, api.solve(state).moves)


# ---------------------------------------------------------------- tables, CLI, scans, link

def test_tables_are_catalogued_with_the_smaller_sizes_they_read():
    assert "6x6-cycles" in catalog.names(size=6) and "7x7-cycles" in catalog.names(size=7)
    assert set(catalog.names(size=4)) < set(catalog.names(size=6))
    assert set(catalog.names(size=5)) | set(catalog.names(size=4)) < set(catalog.names(size=7))


def _copy_tables(src, dst):
    for name in os.listdir(src):
        shutil.copy(os.path.join(src, name), os.path.join(dst, name))


def _cli(directory, args, stdin=None):
    env = dict(os.environ, CUBEBOT_TABLES=directory)
    return subprocess.run([sys.executable, "-m", "cubebot"] + args, env=env, input=stdin,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)


@pytest.mark.parametrize("n", SIZES)
def test_the_cli_reads_a_long_state_from_a_file_and_from_stdin(tables_dir, tmp_path, n):
    state = moves.apply(_solved(n), "Rw U 3Fw' R2 D'", n)
    path = tmp_path / "state.txt"
    path.write_text("# a {0}x{0}x{0}\n{1}\n".format(n, state))
    proc = _cli(tables_dir, ["solve", "--file", str(path)])
    assert proc.returncode == 0, proc.stderr
    check_solves(state, moves.parse(proc.stdout))
    proc = _cli(tables_dir, ["solve", "--json", "-"], stdin=state + "\n")
    assert proc.returncode == 0, proc.stderr
    check_solves(state, moves.parse(json.loads(proc.stdout)["moves"]))


def test_the_cli_batch_solves_6x6x6_and_7x7x7_and_scrambles(tables_dir):
    lines = []
    for n in SIZES:
        proc = _cli(tables_dir, ["scramble", "--size", str(n), "--seed", "5", "--json"])
        assert proc.returncode == 0, proc.stderr
        lines.append(json.loads(proc.stdout)["state"])
    proc = _cli(tables_dir, ["solve", "--batch", "-"], stdin="\n".join(lines + ["UUU"]) + "\n")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    for state, obj in zip(lines, out):
        check_solves(state, moves.parse(obj["moves"]))
    assert "error" in out[2]


@pytest.mark.parametrize("bad", ["x" * 216, "U" * 215, "URFDLB" * 35 + "UUURRR"])
def test_a_bad_long_state_is_one_line_and_exit_2(tables_dir, bad):
    proc = _cli(tables_dir, ["solve", bad])
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_a_missing_cycle_table_and_a_missing_smaller_table_are_named(tables_dir, tmp_path):
    _copy_tables(tables_dir, str(tmp_path))
    state = moves.apply(_solved(7), "3Rw U", 7)
    for name in ("7x7-cycles", "5x5-midge-cycles", "4x4-slice"):
        path = store.table_path(name, str(tmp_path))
        keep = path + ".keep"
        os.rename(path, keep)
        proc = _cli(str(tmp_path), ["solve", state])
        os.rename(keep, path)
        assert proc.returncode == 2, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1 and name in proc.stderr
        assert "--size 7" in proc.stderr
    with open(store.table_path("7x7-cycles", str(tmp_path)), "r+b") as f:
        f.truncate(100)
    with pytest.raises(TableError):
        reduce.Reducer(7, str(tmp_path))


@pytest.mark.parametrize("name", ["rubiks-cube-tracker-6x6x6-random-01.json",
                                  "rubiks-cube-tracker-7x7x7-random-01.json"])
def test_a_real_scan_through_colors_then_solved(tables_dir, name):
    from cubebot.robot.cli.main import main as cli
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli(["colors", os.path.join(REAL_SCANS, name)]) == 0
    resolved = out.getvalue().strip()
    check_solves(resolved, api.solve(resolved).moves)


def test_a_simulated_6x6x6_scan_through_colors_then_solved(tables_dir, tmp_path):
    from cubebot.robot.cli.main import main as cli
    from cubebot.robot.colour.scanfile import dump_scan
    from tests.robot.colors_support import same_cube, scan_of
    n = 6
    state = _scrambled(n, 73)
    path = tmp_path / "scan.json"
    path.write_text(json.dumps(dump_scan(scan_of(state, n, 5, "low"), n)))
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli(["colors", str(path)]) == 0
    resolved = out.getvalue().strip()
    assert same_cube(resolved, state)
    check_solves(resolved, api.solve(resolved, size=n).moves)


def test_the_link_solves_a_7x7x7(tables_dir):
    from cubebot.robot.link.protocol import Dispatcher
    from cubebot.robot.job.service import RobotService
    state = moves.apply(_solved(7), "3Rw U2 Fw' 3Dw R", 7)
    reply = Dispatcher(RobotService(make_robot=None), "test").handle(
        {"id": 1, "cmd": "solve", "state": state})
    assert reply["ok"], reply
    check_solves(state, moves.parse(reply["result"]["moves"]))


# ---------------------------------------------------------------- beyond 7

@pytest.fixture(scope="module")
def big_tables(tables_dir, tmp_path_factory):
    """The tables folder with the 8x8x8 and 9x9x9 cycle tables built too (not default tables)."""
    directory = str(tmp_path_factory.mktemp("tables89"))
    _copy_tables(tables_dir, directory)
    store.build(["8x8-cycles", "9x9-cycles"], directory=directory, progress=None)
    assert store.verify(directory) == []
    return directory


def test_8x8x8_and_9x9x9_tables_are_asked_for_by_size_not_built_by_default():
    assert "8x8-cycles" not in catalog.names() and "9x9-cycles" not in catalog.names()
    assert "8x8-cycles" in catalog.names(size=8) and "9x9-cycles" in catalog.names(size=9)
    assert set(catalog.names(size=5)) < set(catalog.names(size=9))


@pytest.mark.parametrize("n", [8, 9])
def test_views_of_8x8x8_and_9x9x9_turn_alike(n):
    small = len(views.view_rows(n))
    big = moves.apply(_solved(n), "3Rw U 4Fw' 2D R2 Bw", n)
    for m in _all_turns(small):
        assert views.view(moves.apply(big, [views.lift(m, n)], n), n) == moves.apply(
            views.view(big, n), [m], small)


def test_a_random_8x8x8_is_solved(big_tables):
    n = 8
    state = disguise(_scrambled(n, 81), seeded(181))
    result = solve_stages(state, directory=big_tables)
    check_solves(state, result.candidates[0])


def test_the_cli_solves_a_9x9x9_from_a_file(big_tables, tmp_path):
    n = 9
    state = moves.apply(_solved(n), "4Rw U' 3Fw2 D 2L 5U", n)
    path = tmp_path / "state.txt"
    path.write_text(state + "\n")
    proc = _cli(big_tables, ["solve", "--file", str(path)])
    assert proc.returncode == 0, proc.stderr
    check_solves(state, moves.parse(proc.stdout))
    proc = _cli(big_tables, ["solve", "--size", "9", _solved(8)])
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
