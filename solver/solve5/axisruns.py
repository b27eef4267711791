"""Runs of turns about one axis, rewritten with the fewest turns (OBTM).

Turns about one axis commute, so a run of them (after moves.simplify) acts
only by how far each of the five layers of that axis turns: a "profile" of
5 quarter-turn counts mod 4, layer 0 at the axis' first face (U, R, F). A
written turn is a block of layers from one face: the outer turn (1 layer)
or a wide turn of 2, 3 or 4 layers, from either face of the axis, turned 1,
2 or 3 quarter turns; a 5-layer block (a whole-cube turn) is not used. So
the fewest turns for a profile is a distance in a graph of 4 ** 5 = 1,024
profiles and 8 blocks x 3 turns = 24 moves, found by a breadth-first search
made once, on first use (no table file: 1,024 entries, a few milliseconds).

This is where the stages meet: the end of one stage and the start of the
next (a slice written 3Rw Rw' next to an L, say: 3Rw Rw' Lw = 3Lw, three
turns to one) are merged when the whole solution is rewritten by
`shortest(moves)`. A run is only replaced when the rewrite is shorter.
"""

from cubebot.solver.moves import AXIS_OF, Move, simplify

N = 5
N_LAYERS = N
QUARTERS = 4
FIRST = {"x": "R", "y": "U", "z": "F"}          # the face layer 0 of each axis is at
SECOND = {"x": "L", "y": "D", "z": "B"}
N_PROFILES = QUARTERS ** N_LAYERS               # 1,024
DEPTHS = tuple(range(1, N_LAYERS))              # 1-4 layers: outer and wide turns
TURNS = (1, 2, 3)

_SHORTEST = {}                 # axis letter -> [fewest turns making each profile], made on first use


def _profile(turns_by_layer):
    p = 0
    for t in turns_by_layer:
        p = p * QUARTERS + t % QUARTERS
    return p


def _layers(move):
    """(axis, per-layer quarter turns in the axis' frame) of an outer or wide turn."""
    axis = AXIS_OF[move.face]
    layers = [0] * N_LAYERS
    for depth in range(move.first, move.last + 1):
        if move.face == FIRST[axis]:
            layers[depth - 1] += move.turns
        else:                  # seen from the other face: the other end, turned the other way
            layers[N_LAYERS - depth] += QUARTERS - move.turns
    return axis, layers


def _table(axis):
    """For each profile, the fewest turns (a list of Moves) that make it."""
    if axis not in _SHORTEST:
        blocks = [Move(face, 1, depth, t) for face in (FIRST[axis], SECOND[axis])
                  for depth in DEPTHS for t in TURNS]
        steps = [(m, _layers(m)[1]) for m in blocks]
        best = [None] * N_PROFILES
        start = [0] * N_LAYERS
        best[0] = []
        frontier = [(start, [])]
        while frontier:
            nxt = []
            for layers, moves in frontier:
                for m, add in steps:
                    after = [(a + b) % QUARTERS for a, b in zip(layers, add)]
                    p = _profile(after)
                    if best[p] is None:
                        best[p] = moves + [m]
                        nxt.append((after, best[p]))
            frontier = nxt
        _SHORTEST[axis] = best
    return _SHORTEST[axis]


def _rewrite(run):
    if any(m.last >= N_LAYERS for m in run):
        return run             # a whole-cube turn in the run: left as it is
    axis = AXIS_OF[run[0].face]
    total = [0] * N_LAYERS
    for m in run:
        total = [a + b for a, b in zip(total, _layers(m)[1])]
    best = _table(axis)[_profile(total)]
    return best if best is not None and len(best) < len(run) else run


def shortest(moves):
    """The moves with adjacent turns merged (moves.simplify) and each run about one
    axis rewritten with the fewest outer and wide turns; acts on the cube exactly
    as `moves` do."""
    moves = simplify(moves)
    result, run = [], []
    for m in moves:
        if run and (m.last is None or AXIS_OF[m.face] != AXIS_OF[run[0].face]):
            result += _rewrite(run)
            run = []
        if m.last is None:     # a whole-cube rotation: kept, and it ends the run
            result.append(m)
        else:
            run.append(m)
    return result + (_rewrite(run) if run else [])
