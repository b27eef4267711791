"""Moves (cube frame) -> mechanism actions (robot frame), fastest first.

Every face turn needs its face at the bottom, then a twist. `plan` chooses the
flips and table turns by dynamic programming over the move sequence: the state
after each move is (orientation, flipper state); for each move and each of the
four orientations that put its face at the bottom, the cheapest reorientation
from every current state comes from robot.routes (Dijkstra over the 24 x 2
nodes), then the twist. The result is optimal over all orientations for the
time model. Runs of moves on one axis (U D, R L') commute, so `plan` also
tries each order of such a run.

`plan_naive` is the reference robot's method: each face is brought down on its
own with a fixed recipe (B: flip; U: flip flip; L: y flip; R: y' flip; F: y2
flip), with no look-ahead.

Wide turns on the outer N-1 layers and whole-cube rotations are accepted: a
wide turn is the opposite face's turn plus a rotation, and a rotation costs no
action (it only changes which cube-frame face is where).
"""

import itertools
from collections import namedtuple

from solver.errors import InvalidCube
from solver.facelets import OPPOSITE
from solver.moves import AXIS_OF, Move, format_move

from . import actions as act
from . import orientation
from .routes import Router, node, node_flipper, node_where, orientations
from .timing import AWAY, FLIPPER_STATES

Plan = namedtuple("Plan", ["actions", "seconds", "end_where", "end_flipper", "moves"])
Plan.__doc__ = """A plan: `actions` (robot frame), their estimated `seconds`, the
orientation `end_where` and flipper state `end_flipper` after them, and `moves`:
the cube-frame outer turns in the order the twists make them (one per twist)."""

# A run of more moves than this on one axis keeps its given order.
MAX_REORDERED_RUN = 3

# The rotation axis (robot.orientation) and sign of each face's clockwise turn.
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


def _router(time_model):
    router = _ROUTERS.get(time_model)
    if router is None:
        router = _ROUTERS[time_model] = Router(time_model)
    return router


def relabel(where, axis, quarter_turns):
    """The orientation after the cube-frame labels turn with a whole-cube move.

    A cube-frame rotation (e.g. the x of Rw = L x) moves no motor; it renames
    the cube-frame faces: the content that was in direction d is afterwards in
    the direction that the rotation takes d to.
    """
    turned = orientation.rotate(orientation.IDENTITY, axis, 1)
    inverse = dict((old, new) for new, old in zip(orientation.ROBOT_FACES, turned))
    for _ in range(quarter_turns % 4):
        where = "".join(inverse[f] for f in where)
    return where


def _ops(moves, size):
    """The moves as ("twist", face, q) and ("relabel", axis, q) operations."""
    ops = []
    for m in moves:
        face, first, last, turns = m
        if first == 1 and last == 1:
            ops.append(("twist", face, turns))
            continue
        if first == 1 and last is not None and last == size - 1 and size > 1:
            ops.append(("twist", OPPOSITE[face], turns))
        elif not (first == 1 and (last is None or last == size)):
            raise InvalidCube("move {} cannot be made by the robot on a {}x{}x{} cube: only outer "
                              "turns, {}-layer wide turns and rotations".format(
                                  format_move(m), size, size, size, size - 1))
        axis, sign = _ROTATION_OF[face]
        ops.append(("relabel", axis, sign * turns))
    return ops


def _groups(ops):
    """Split ops into runs of twists on one axis (reorderable) and single relabels."""
    groups = []
    for op in ops:
        if op[0] == "twist" and groups and groups[-1][0][0] == "twist" \
                and AXIS_OF[groups[-1][0][1]] == AXIS_OF[op[1]]:
            groups[-1].append(op)
        else:
            groups.append([op])
    return groups


def _orders(group):
    """The orders in which a run of same-axis twists may be made."""
    if len(group) == 1 or len(group) > MAX_REORDERED_RUN:
        return [list(group)]
    seen, result = set(), []
    for perm in itertools.permutations(group):
        if perm not in seen:
            seen.add(perm)
            result.append(list(perm))
    return result


def _check_start(start_where, flipper_state):
    if start_where not in orientations().index:
        raise ValueError("orientation {!r} is not one of the 24 rotations of URFDLB".format(start_where))
    if flipper_state not in FLIPPER_STATES:
        raise ValueError("flipper state {!r}: use one of {}".format(flipper_state, ", ".join(FLIPPER_STATES)))


def _twist_step(states, face, q, router, tables):
    """One DP step: {node: cost} -> {node: (cost, prev node, route end node)}."""
    model = router.time_model
    twist = act.twist(q)
    twist_cost = [model.action_seconds(twist, f)[0] for f in FLIPPER_STATES]
    twist_after = [model.action_seconds(twist, f)[1] for f in FLIPPER_STATES]
    targets = tables.down[face]
    best = {}
    for src in sorted(states):
        base = states[src]
        dist = router.distances(src)
        for o in targets:
            for fi in range(len(FLIPPER_STATES)):
                via = o * len(FLIPPER_STATES) + fi
                cost = base + dist[via] + twist_cost[fi]
                dst = node(o, twist_after[fi])
                old = best.get(dst)
                if old is None or cost < old[0]:
                    best[dst] = (cost, src, via)
    return best


def plan(moves, start_where=orientation.IDENTITY, time_model=None, flipper_state=AWAY, size=3):
    """The fastest Plan for `moves` (cube frame) from orientation `start_where`.

    time_model: a robot.timing.TimeModel (required). flipper_state: the
    flipper's state before the first action. size: the cube's N (for wide turns).
    """
    if time_model is None:
        raise ValueError("plan needs a time model: robot.timing.TimeModel.from_config(config)")
    _check_start(start_where, flipper_state)
    router = _router(time_model)
    tables = orientations()
    states = {node(tables.index[start_where], flipper_state): 0.0}
    history = []       # per group: (kind, data) for reconstruction
    for group in _groups(_ops(moves, size)):
        if group[0][0] == "relabel":
            _, axis, q = group[0]
            mapping = {}
            for n in states:
                w = relabel(tables.wheres[node_where(n)], axis, q)
                mapping[node(tables.index[w], node_flipper(n))] = n
            states = dict((new, states[old]) for new, old in mapping.items())
            history.append(("relabel", mapping))
            continue
        merged = {}    # end node -> (cost, order, steps)
        for order in _orders(group):
            cur = states
            steps = []
            for _, face, q in order:
                step = _twist_step(cur, face, q, router, tables)
                steps.append(step)
                cur = dict((n, v[0]) for n, v in step.items())
            for n, cost in cur.items():
                if n not in merged or cost < merged[n][0]:
                    merged[n] = (cost, order, steps)
        states = dict((n, v[0]) for n, v in merged.items())
        history.append(("twists", merged))
    end = min(sorted(states), key=lambda n: states[n])
    return _reconstruct(end, states[end], history, router, tables)


def _reconstruct(end, seconds, history, router, tables):
    """Walk the DP back from node `end` into actions and the turned moves."""
    chunks = []
    n = end
    for kind, data in reversed(history):
        if kind == "relabel":
            n = data[n]
            continue
        _, order, steps = data[n]
        group_chunks = []
        for (_, face, q), step in zip(reversed(order), reversed(steps)):
            _, src, via = step[n]
            group_chunks.append((router.path(src, via) + [act.twist(q)], Move(face, 1, 1, q)))
            n = src
        chunks.extend(group_chunks)
    chunks.reverse()
    actions = [a for chunk, _ in chunks for a in chunk]
    moves = [m for _, m in chunks]
    return Plan(actions, seconds, tables.wheres[node_where(end)], node_flipper(end), moves)


def plan_naive(moves, start_where=orientation.IDENTITY, time_model=None, flipper_state=AWAY, size=3):
    """The reference robot's Plan: each face brought down by a fixed recipe."""
    if time_model is None:
        raise ValueError("plan_naive needs a time model: robot.timing.TimeModel.from_config(config)")
    _check_start(start_where, flipper_state)
    where = start_where
    actions, turned = [], []
    for op in _ops(moves, size):
        if op[0] == "relabel":
            where = relabel(where, op[1], op[2])
            continue
        _, face, q = op
        chunk = _NAIVE_RECIPE[orientation.position_of(where, face)] + [act.twist(q)]
        where = act.final_where(where, chunk)
        actions.extend(chunk)
        turned.append(Move(face, 1, 1, q))
    seconds, flipper = time_model.seconds(actions, flipper_state)
    return Plan(actions, seconds, where, flipper, turned)


def choose_fastest(candidates, start_where=orientation.IDENTITY, time_model=None, flipper_state=AWAY, size=3):
    """The candidate move list with the lowest plan time (the first on ties)."""
    if not candidates:
        raise ValueError("choose_fastest needs at least one candidate solution")
    best, best_s = None, None
    for moves in candidates:
        s = plan(moves, start_where, time_model, flipper_state, size).seconds
        if best_s is None or s < best_s:
            best, best_s = moves, s
    return best
