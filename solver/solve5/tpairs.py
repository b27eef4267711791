"""Between the phases: every T-pair made one colour, the 4x4x4 part kept reduced.

A T-pair is two T-centres opposite each other across a fixed centre
(tcentres.PAIRS): outer turns and middle slices move them together, so phase
2 (middle.solve_middle), which uses only those, can solve the T-centres
quickly only when each pair shows one colour. Phase 1's wide turns split
them (9-12 of the 12 pairs in random states).

A conjugated slice W S W' (W a wide turn, S a middle slice) leaves the 4x4x4
part exactly as it was (S never touches it, W' undoes W there) but moves
T-centres across pairs. `TPairStage.solve` finds a sequence of those (4
written turns each: W, the slice as two turns, W'), of middle slices (2) and
outer turns (1) after which no pair is split: a beam search (at most
MAX_STEPS steps; a state's score is its written turns + a weight x its
split pairs; a beam can get stuck, so TRIES lists the (width, weight) tried
in turn). Only the 24 T-centre colours are followed. It returns None if neither beam finds
anything; phase 2 then solves the split pairs its slower way.
"""

from cubebot.solver.facelets import FACES, OPPOSITE
from cubebot.solver.moves import Move
from .slices import MIDDLE, OUTER, SLICE_FACES, SLICES, TURNS, cost, written
from .model import T_CENTRES, slot_perm
from .tcentres import PAIRS

WIDE = 2
TRIES = ((60, 2.5), (60, 4.0), (240, 4.0))   # (beam width, written turns a split pair is
                                             # taken to cost), tried in turn until one joins the pairs
MAX_STEPS = 40
RECENT = 4                     # steps whose states the beam does not take again


def _compose(moves):
    """new[k] = old[p[k]] over the T-centre slots after `moves`."""
    p = list(range(len(T_CENTRES)))
    for m in moves:
        q = slot_perm(m, T_CENTRES)
        p = [p[q[k]] for k in range(len(p))]
    return tuple(p)


def _steps():
    """(moves, written turns, T-centre permutation) of every step of the search:
    outer turns, middle slices, and W S W' for W a wide turn, S a slice across it."""
    steps = [[m] for m in OUTER + SLICES]
    for f in FACES:
        for t in TURNS:
            for s in SLICE_FACES:
                if s not in (f, OPPOSITE[f]):
                    steps += [[Move(f, 1, WIDE, t), Move(s, MIDDLE, MIDDLE, u), Move(f, 1, WIDE, 4 - t)]
                              for u in TURNS]
    return [(moves, sum(cost(m) for m in moves), _compose(moves)) for moves in steps]


_STEPS = []                    # _steps(), made once per process when first needed


def steps():
    """The search steps (see _steps), built on first use and kept."""
    if not _STEPS:
        _STEPS.extend(_steps())
    return _STEPS


def split(colours):
    """How many T-pairs show two colours."""
    return sum(colours[a] != colours[b] for a, b in PAIRS)


class TPairStage(object):
    """solve(cube) -> written turns that leave every T-pair one colour, or None."""

    def __init__(self):
        self.steps = steps()

    def solve(self, cube):
        start = "".join(cube[f] for f in T_CENTRES)
        if not split(start):
            return []
        for width, weight in TRIES:
            found = self._beam(start, width, weight)
            if found is not None:
                return written(found)
        return None

    def _beam(self, start, width, weight):
        """Phase-2 moves (slices unwritten) that join every pair, or None.

        Only the beam keeps its paths, and a state met in the last RECENT
        steps is not taken again (without that the beam circles; with every
        step remembered it holds a million strings at width 240)."""
        beam = [(0, start, [])]
        recent = [set([start])]
        for _ in range(MAX_STEPS):
            found = {}
            for b, (spent, colours, _) in enumerate(beam):
                for k, (_, turns, perm) in enumerate(self.steps):
                    after = "".join([colours[i] for i in perm])
                    if after in found or any(after in r for r in recent):
                        continue
                    found[after] = (spent + turns + weight * split(after), spent + turns, b, k)
            if not found:
                return None
            ranked = sorted(found.items(), key=lambda item: (item[1][0], item[0]))
            done = [item for item in ranked if not split(item[0])]
            if done:
                _, (_, _, b, k) = min(done, key=lambda item: (item[1][1], item[0]))
                return beam[b][2] + self.steps[k][0]
            recent = (recent + [set(found)])[-RECENT:]
            beam = [(cost, colours, beam[b][2] + self.steps[k][0])
                    for colours, (_, cost, b, k) in ranked[:width]]
        return None
