"""The joint assignment: from a cost matrix to the cheapest valid cubes.

`cheapest(cost, n)` searches the corners and edges of all labellings at once
(cubebot.robot.colour.assign: real pieces, no piece twice, twist, flip and, on
odd cubes, corner/edge parity) and assigns the wings and centres of big cubes
orbit by orbit (`orbit_solve`, cubebot.robot.colour.balanced). Costs are the
colour model's, per facelet and class (dimensionless, negative log-likelihoods
capped at COST_CAP); the margins below are in the same units.
"""

import itertools
import time

from cubebot.solver.cubies import CORNER_NAMES, EDGE_NAMES
from cubebot.solver.facelets import FACES, solved

from cubebot.robot.colour.assign import (DBL, PieceSearch, build_levels, class_keys, fill,
                                         labellings, position_costs, position_lows,
                                         rotation_classes)
from cubebot.robot.colour.balanced import hungarian, swap_gaps
from cubebot.robot.colour.pieces import orbits, solved_pieces

# Another valid cube within this cost of the best makes the scan ambiguous.
MARGIN = 7.0
# More corrections than this and the scan is not trusted (cubebot.robot.colour.decide) ...
MAX_CORRECTIONS = 2
# ... and each correction after the first needs the next valid cube this much further away.
MARGIN_PER_CORRECTION = 3.0
# How far beyond the best cube the search looks for the next one: the widest margin
# the decision rules ask for.
SEARCH_MARGIN = MARGIN + MARGIN_PER_CORRECTION * (MAX_CORRECTIONS - 1)
# Search effort before giving up (node expansions).
MAX_NODES = 5000

# The compiled joint search (robot/colour/_assign.c) where it is built: the same search,
# the same double operations in the same order, so the same answer.
COMPILED_NAME = "_assign"
_COMPILED = []
_COMPILED_ARGS = []
# CPU seconds spent in the compiled search so far in this process (the brick-time
# estimator counts them as compiled code, cubebot.robot.job.brick_time).
COMPILED_SECONDS = [0.0]


def compiled():
    """The compiled joint search module, or None (not built, or CUBEBOT_PURE_PYTHON=1)."""
    from cubebot.solver.search import compiled_module
    return compiled_module(COMPILED_NAME, _COMPILED, package=__name__.rsplit(".", 1)[0])


def _compiled_args():
    """The compiled search's fixed arguments: the pieces' faces as indices into URFDLB,
    the rotation class of each labelling by its rank, and each class's table indices."""
    if not _COMPILED_ARGS:
        groups = rotation_classes()
        keys = class_keys()
        _COMPILED_ARGS.extend([
            [[FACES.index(c) for c in name] for name in CORNER_NAMES],
            [[FACES.index(c) for c in name] for name in EDGE_NAMES],
            [groups[p] for p in itertools.permutations(range(6))],
            [corner for corner, _ in keys],
            [edge for _, edge in keys]])
    return _COMPILED_ARGS


def joint_search(cost, n, module=None):
    """The PieceSearch of `cost` run to its end: by the compiled module where it is
    built (or given), else in Python. Both give the same found, nodes and exhausted."""
    orb = orbits(n)
    search = PieceSearch(SEARCH_MARGIN, MAX_NODES, check_parity=(n % 2 == 1))
    module = compiled() if module is None else module
    if module is None:
        _python_search(search, cost, n, orb)
        return search
    began = time.process_time()
    try:
        names, edge_names, groups, corner_keys, edge_keys = _compiled_args()
        nodes, exhausted, found = module.search(
            cost, orb.corners, orb.edges, orb.fixed, names, edge_names, groups, corner_keys,
            edge_keys, SEARCH_MARGIN, MAX_NODES, int(search.check_parity), DBL)
    finally:
        COMPILED_SECONDS[0] += time.process_time() - began
    search.nodes, search.exhausted = nodes, exhausted
    search.found = [(c, dict(zip(FACES, classes)), list(chosen)) for c, classes, chosen in found]
    return search


def cheapest(cost, n):
    """One joint assignment: (search, letters, label, ambiguous facelets of big cubes).

    letters is None when no valid cube was found.
    """
    search = joint_search(cost, n)
    if not search.found:
        return search, None, None, set()
    _, label, placements = search.found[0]
    letters = letters_of(n, label, placements)
    ambiguous = orbit_solve(cost, n, label, letters) if n > 3 else set()
    return search, letters, label, ambiguous


def _python_search(search, cost, n, orb):
    """Run `search` (a PieceSearch) over every labelling of `cost` in Python."""
    tables = (position_costs(cost, orb.corners), position_costs(cost, orb.edges))
    # Per rotation class: its position_lows, shared by its 24 labellings, and
    # their sum over the positions a labelling's base does not cost (on even
    # cubes the DBL corner is the labelling's own).
    lows, rests, entries = {}, {}, []
    for base, classes, _, group in labellings(cost, n, orb.fixed, orb.corners):
        if group not in lows:
            corner_lows, edge_lows = lows[group] = position_lows(tables, group)
            rests[group] = (sum(corner_lows) + sum(edge_lows)
                            - (0.0 if orb.fixed else corner_lows[DBL]))
        entries.append((base + rests[group], base if orb.fixed else 0.0, classes, group))

    def make_levels(classes, group):
        label = dict(zip(FACES, classes))
        return label, build_levels(tables, label, not orb.fixed, lows[group])

    search.run(entries, make_levels)


def low_margin(cost, classes, limit):
    """Facelets whose best other class costs less than `limit` more than their own."""
    out = []
    for i, row in enumerate(cost):
        k = classes[i] if classes else min(range(6), key=row.__getitem__)
        if min(row[j] for j in range(6) if j != k) - row[k] < limit:
            out.append(i)
    return out


def orbit_solve(cost, n, label, letters, margin=MARGIN):
    """Wings and centres of a big cube (cubebot.robot.colour.balanced); returns the facelets of
    exchanges that cost less than `margin` more (ambiguous)."""
    orb, home = orbits(n), solved(n)
    doubtful = set()
    for positions in orb.wings:
        pieces = solved_pieces(positions, home)
        matrix = [[sum(cost[i][label[c]] for i, c in zip(spot, piece)) for piece in pieces]
                  for spot in positions]
        _balanced(matrix, positions, pieces, letters, doubtful, margin)
    for facelets in orb.centres:
        per = len(facelets) // 6
        slots = [(face,) for face in FACES for _ in range(per)]
        matrix = [[cost[i][label[s[0]]] for s in slots] for i in facelets]
        _balanced(matrix, [(i,) for i in facelets], slots, letters, doubtful, margin)
    return doubtful


def _balanced(matrix, positions, pieces, letters, doubtful, margin):
    assignment = hungarian(matrix)
    for spot, col in zip(positions, assignment):
        for i, c in zip(spot, pieces[col]):
            letters[i] = c
    for a, b, _ in swap_gaps(matrix, assignment, margin, pieces):
        doubtful.update(positions[a])
        doubtful.update(positions[b])


def letters_of(n, label, placements):
    orb = orbits(n)
    letters = [None] * (6 * n * n)
    for k, i in enumerate(orb.fixed):
        letters[i] = FACES[k]
    fill(letters, placements, orb.corners, orb.edges)
    return letters
