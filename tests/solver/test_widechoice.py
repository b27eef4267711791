"""Phase 1's wide turns written with or without the middle slice (widechoice)."""

from itertools import product

from cubebot.solver import moves, scramble
from cubebot.solver.solve5 import model, outer4, reduce, tpairs, widechoice
from .cubes import seeded

N = 5


def _estimate(table, cube):
    return table.total("".join(cube[f] for f in model.T_CENTRES))


def _phase1_like(rng, length):
    """Outer and two-layer wide turns, as phase 1 writes them."""
    return [rng.choice(model.ALL_MOVES) for _ in range(length)]


def test_three_layer_wide_turns_keep_the_4x4x4_part_and_move_the_middle():
    tagged = "".join(chr(0x100 + i) for i in range(6 * N * N))
    for m in model.ALL_MOVES:
        if m.last == widechoice.WIDE:
            wider = moves.Move(m.face, 1, widechoice.WITH_SLICE, m.turns)
            a, b = moves.apply(tagged, [m], N), moves.apply(tagged, [wider], N)
            assert outer4.view(a) == outer4.view(b)
            assert any(a[f] != b[f] for f in model.T_CENTRES)


def test_variants_act_alike_on_the_4x4x4_part_and_the_first_is_the_best_of_all(tables_dir):
    table = tpairs.TPairStage.opened(tables_dir).table
    rng = seeded(61)
    for _ in range(3):
        state = reduce.label(scramble.random_state(N, rng))
        first = _phase1_like(rng, 16)
        wide = [k for k, m in enumerate(first) if m.last == widechoice.WIDE]
        assert 4 <= len(wide) <= 12
        found = widechoice.variants(state, first, table, 5, width=2 ** len(wide))
        assert found and len(found) == len(set(map(tuple, found)))
        shown = [_estimate(table, moves.apply(state, way, N)) for way in found]
        assert shown == sorted(shown)
        for way in found:
            assert len(way) == len(first)
            assert all(a == b or (a.last == widechoice.WITH_SLICE and b.last == widechoice.WIDE and
                                  (a.face, a.first, a.turns) == (b.face, b.first, b.turns))
                       for a, b in zip(way, first))
            assert outer4.view(moves.apply(state, way, N)) == outer4.view(moves.apply(state, first, N))
        # a beam as wide as every variant finds the best of all 2 ** k
        every = []
        for picks in product((False, True), repeat=len(wide)):
            way = list(first)
            for k, pick in zip(wide, picks):
                if pick:
                    way[k] = moves.Move(way[k].face, 1, widechoice.WITH_SLICE, way[k].turns)
            every.append(_estimate(table, moves.apply(state, way, N)))
        assert shown[0] == min(every)
        assert shown[0] <= _estimate(table, moves.apply(state, first, N))


def test_phase_1_hands_on_its_ways_each_reducing_the_4x4x4_part(tables_dir):
    state = reduce.label(scramble.random_state(N, seeded(62)))
    red = reduce.Reducer()
    firsts = red.phase1(state)
    assert len(firsts) == len(set(map(tuple, firsts)))
    assert len(firsts) <= len(reduce.PHASE1_ROTATIONS) * reduce.PHASE1_REDUCTIONS * reduce.by_path(
        reduce.VARIANTS, reduce.COMPILED_VARIANTS)
    assert any(m.last == widechoice.WITH_SLICE for way in firsts for m in way)
    for way in firsts:
        assert outer4.part_reduced(moves.apply(state, way, N))
