"""Moves (cube frame) -> mechanism actions (robot frame), fastest first.

Every face turn needs its face at the bottom, then a twist. `plan` chooses the
flips and table turns by dynamic programming over the move sequence: the state
after each move is (orientation, flipper state); for each move and each of the
four orientations that put its face at the bottom, the cheapest reorientation
from every current state comes from cubebot.robot.plan.routes (Dijkstra over the 24 x 2
nodes), then the twist. The result is optimal over all orientations for the
time model. Runs of moves on one axis (U D, R L') commute, so `plan` also
tries each order of such a run.

`plan_naive` is the reference robot's method: each face is brought down on its
own with a fixed recipe (B: flip; U: flip flip; L: y flip; R: y' flip; F: y2
flip), with no look-ahead.

Wide turns on the outer N-1 layers and whole-cube rotations are accepted: a
wide turn is the opposite face's turn plus a rotation, and a rotation costs no
action (it only changes which cube-frame face is where). On a 2x2x2 every
outer turn is also such a wide turn, so the DP may make U by twisting the
face that is down when U is up. See docs/planner.md.
"""

import itertools
from collections import namedtuple

from cubebot.solver.errors import InvalidCube
from cubebot.solver.facelets import OPPOSITE
from cubebot.solver.moves import AXIS_OF, format_move

from cubebot.robot.machine import actions as act
from cubebot.robot.machine import orientation
from cubebot.robot.plan.routes import Router, node, node_flipper, node_where, orientations, relabel
from cubebot.robot.machine.timing import AWAY, FLIPPER_STATES

Plan = namedtuple("Plan", ["actions", "seconds", "end_where", "end_flipper", "moves", "wheres"])
Plan.__doc__ = """A plan: `actions` (robot frame), their estimated `seconds`, the
orientation `end_where` and flipper state `end_flipper` after them; `moves`: the
solution's moves (rotations left out) in the order the twists make them, one per
twist; `wheres[k]`: the orientation after the k-th twist, so that the physical
cube then equals the cube-frame state after moves[:k+1] lying as wheres[k]
(for a solution without whole-cube rotations, as the solver's are)."""

# A run of more moves than this on one axis keeps its given order.
MAX_REORDERED_RUN = 3

# The rotation axis (cubebot.robot.machine.orientation) and sign of each face's clockwise turn.
_ROTATION_OF = {"R": ("x", 1), "L": ("x", -1), "U": ("y", 1), "D": ("y", -1),
                "F": ("z", 1), "B": ("z", -1)}

# The naive recipe: actions that bring the face at each robot position down.
_NAIVE_RECIPE = {
    "D": [],
    "B": [act.flip()],
    "U": [act.flip(), act.flip()],
    "L": [act.rotate(1), act.flip()],
    "R": [act.rotate(3), act.flip()],
    "F": [act.rotate(2), act.flip()],
}

_ROUTERS = {}          # TimeModel -> Router, shared between calls
MAX_ROUTERS = 8        # time models kept at once


def _router(time_model):
    router = _ROUTERS.get(time_model)
    if router is None:
        if len(_ROUTERS) >= MAX_ROUTERS:
            _ROUTERS.clear()
        router = _ROUTERS[time_model] = Router(time_model)
    return router


def _rotation(face, quarter_turns):
    """("relabel", axis, q) for a whole-cube turn like `face` by quarter_turns."""
    axis, sign = _ROTATION_OF[face]
    return ("relabel", axis, sign * quarter_turns)


def _ops(moves, size):
    """The moves as operations for the DP.

    ("twist", move, alternatives): alternatives lists (face, q, relabel or None),
    the ways the robot can make `move`: turn `face` (at the bottom) by q, then
    rename the faces by `relabel` (a ("relabel", axis, q) or None). An outer
    turn is its own face; a turn of all layers but the opposite outer one is
    that opposite face plus a rotation. On a 2x2x2 both hold for every outer
    turn, so each has two ways.
    ("relabel", axis, q): a whole-cube rotation, no action.
    """
    ops = []
    for m in moves:
        face, first, last, turns = m
        depth = size if last is None else last
        if first != 1 or not 1 <= depth <= size:
            raise InvalidCube("move {} cannot be made by the robot on a {}x{}x{} cube: only outer "
                              "turns, {}-layer wide turns and rotations".format(
                                  format_move(m), size, size, size, size - 1))
        if depth == size:
            ops.append(_rotation(face, turns))
            continue
        ways = []
        if depth == 1:
            ways.append((face, turns, None))
        if depth == size - 1:
            ways.append((OPPOSITE[face], turns, _rotation(face, turns)))
        if not ways:
            raise InvalidCube("move {} cannot be made by the robot on a {}x{}x{} cube: only outer "
                              "turns, {}-layer wide turns and rotations".format(
                                  format_move(m), size, size, size, size - 1))
        ops.append(("twist", m, ways))
    return ops


def _groups(ops):
    """Split ops into runs of twists on one axis (reorderable) and single relabels."""
    groups = []
    for op in ops:
        if op[0] == "twist" and groups and groups[-1][0][0] == "twist" \
                and AXIS_OF[groups[-1][0][1].face] == AXIS_OF[op[1].face]:
            groups[-1].append(op)
        else:
            groups.append([op])
    return groups


def _orders(group):
    """The orders in which a run of same-axis twists may be made."""
    if len(group) == 1 or len(group) > MAX_REORDERED_RUN:
        return [list(group)]
    return [list(p) for p in itertools.permutations(group)]


def _check_start(start_where, flipper_state):
    if start_where not in orientations().index:
        raise ValueError("orientation {!r} is not one of the 24 rotations of URFDLB".format(start_where))
    if flipper_state not in FLIPPER_STATES:
        raise ValueError("flipper state {!r}: use one of {}".format(flipper_state, ", ".join(FLIPPER_STATES)))


def _relabel_node(n, rel, tables):
    """Node n after the faces are renamed by rel (a ("relabel", axis, q)) or n if rel is None."""
    if rel is None:
        return n
    return node(tables.relabelled(rel[1], rel[2])[node_where(n)], node_flipper(n))


def _twist_step(states, ways, router, tables):
    """One DP step: {node: cost} -> {node: (cost, prev node, route end node, way)}."""
    model = router.time_model
    best = {}
    n_flipper = len(FLIPPER_STATES)
    sources = sorted(states)
    for way in ways:
        face, q, rel = way
        twist = act.twist(q)
        ends = []      # (route end node, twist seconds, node after the twist and relabel)
        for o in tables.down[face]:
            for fi, flipper in enumerate(FLIPPER_STATES):
                seconds, after = model.action_seconds(twist, flipper)
                ends.append((o * n_flipper + fi, seconds, _relabel_node(node(o, after), rel, tables)))
        for src in sources:
            base = states[src]
            dist = router.distances(src)
            for via, seconds, dst in ends:
                cost = base + dist[via] + seconds
                old = best.get(dst)
                if old is None or cost < old[0]:
                    best[dst] = (cost, src, via, way)
    return best


def plan(moves, start_where=orientation.IDENTITY, time_model=None, flipper_state=AWAY, size=3):
    """The fastest Plan for `moves` (cube frame) from orientation `start_where`.

    time_model: a cubebot.robot.machine.timing.TimeModel (required). flipper_state: the
    flipper's state before the first action. size: the cube's N (2 or 3).
    """
    if time_model is None:
        raise ValueError("plan needs a time model: cubebot.robot.machine.timing.TimeModel.from_config(config)")
    _check_start(start_where, flipper_state)
    router = _router(time_model)
    tables = orientations()
    states = {node(tables.index[start_where], flipper_state): 0.0}
    history = []       # per group: (kind, data) for reconstruction
    for group in _groups(_ops(moves, size)):
        if group[0][0] == "relabel":
            mapping = dict((_relabel_node(n, group[0], tables), n) for n in states)
            states = dict((new, states[old]) for new, old in mapping.items())
            history.append(("relabel", mapping))
            continue
        merged = {}    # end node -> (cost, order, steps)
        for order in _orders(group):
            cur = states
            steps = []
            for op in order:
                step = _twist_step(cur, op[2], router, tables)
                steps.append(step)
                cur = dict((n, v[0]) for n, v in step.items())
            for n in sorted(cur):
                if n not in merged or cur[n] < merged[n][0]:
                    merged[n] = (cur[n], order, steps)
        states = dict((n, v[0]) for n, v in merged.items())
        history.append(("twists", merged))
    end = min(sorted(states), key=lambda n: states[n])
    return _reconstruct(end, states[end], history, router, tables)


def _reconstruct(end, seconds, history, router, tables):
    """Walk the DP back from node `end` into actions, moves and orientations."""
    chunks = []        # (actions, move, where after), last first
    n = end
    for kind, data in reversed(history):
        if kind == "relabel":
            n = data[n]
            continue
        _, order, steps = data[n]
        for op, step in zip(reversed(order), reversed(steps)):
            _, src, via, way = step[n]
            chunk = router.path(src, via) + [act.twist(way[1])]
            chunks.append((chunk, op[1], tables.wheres[node_where(n)]))
            n = src
    chunks.reverse()
    return Plan([a for c in chunks for a in c[0]], seconds, tables.wheres[node_where(end)],
                node_flipper(end), [c[1] for c in chunks], [c[2] for c in chunks])


def plan_naive(moves, start_where=orientation.IDENTITY, time_model=None, flipper_state=AWAY, size=3):
    """The reference robot's Plan: each face brought down by a fixed recipe."""
    if time_model is None:
        raise ValueError("plan_naive needs a time model: cubebot.robot.machine.timing.TimeModel.from_config(config)")
    _check_start(start_where, flipper_state)
    where = start_where
    actions = []
    wheres = []
    ops = _ops(moves, size)
    for op in ops:
        if op[0] == "relabel":
            where = relabel(where, op[1], op[2])
            continue
        face, q, rel = op[2][0]
        chunk = _NAIVE_RECIPE[orientation.position_of(where, face)] + [act.twist(q)]
        where = act.final_where(where, chunk)
        if rel is not None:
            where = relabel(where, rel[1], rel[2])
        actions.extend(chunk)
        wheres.append(where)
    seconds, flipper = time_model.seconds(actions, flipper_state)
    return Plan(actions, seconds, where, flipper, [op[1] for op in ops if op[0] == "twist"], wheres)


def fastest(candidates, start_where=orientation.IDENTITY, time_model=None, flipper_state=AWAY, size=3):
    """(moves, Plan) of the candidate move list with the lowest plan time (the first on ties)."""
    if not candidates:
        raise ValueError("choosing the fastest solution needs at least one candidate")
    best = None
    for moves in candidates:
        p = plan(moves, start_where, time_model, flipper_state, size)
        if best is None or p.seconds < best[1].seconds:
            best = (moves, p)
    return best


def choose_fastest(candidates, start_where=orientation.IDENTITY, time_model=None, flipper_state=AWAY, size=3):
    """The candidate move list with the lowest plan time (the first on ties)."""
    return fastest(candidates, start_where, time_model, flipper_state, size)[0]
