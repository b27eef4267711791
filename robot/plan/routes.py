"""Cheapest reorientations between (orientation, flipper state) pairs.

A node is (orientation index, flipper index) packed as index * 2 + flipper,
over the 24 orientations of cubebot.robot.machine.orientation.all_orientations() and the
flipper states AWAY (0) and HOLD (1). The edges are the reorienting actions
(flip, rotate 1/2/3) with their seconds from a TimeModel. A Router finds
shortest paths by Dijkstra, lazily per source node, and keeps them.
"""

import heapq

from cubebot.robot.machine import actions as act
from cubebot.robot.machine import orientation
from cubebot.robot.machine.timing import FLIPPER_STATES

N_FLIPPER = len(FLIPPER_STATES)

_ORIENTS = []          # filled once by orientations()


class Orientations(object):
    """The 24 orientations with index tables for the reorienting actions.

    wheres[i]       the `where` string of orientation i
    index[where]    its index
    after[a][i]     orientation index after action a (an Action) from i
    down[face]      the orientation indices with cube face `face` at the bottom
    relabelled(axis, q)[i]  orientation index of relabel(wheres[i], axis, q)
    """

    def __init__(self):
        self.wheres = orientation.all_orientations()
        self.index = dict((w, i) for i, w in enumerate(self.wheres))
        self.reorienting = [act.flip()] + [act.rotate(q) for q in (1, 2, 3)]
        self.after = {}
        for a in self.reorienting:
            self.after[a] = [self.index[act.next_where(w, a)] for w in self.wheres]
        self.down = {}
        for i, w in enumerate(self.wheres):
            self.down.setdefault(orientation.face_at(w, "D"), []).append(i)
        self._relabelled = {}

    def relabelled(self, axis, quarter_turns):
        """List: orientation index after `relabel(.., axis, quarter_turns)` of each index."""
        key = (axis, quarter_turns % 4)
        perm = self._relabelled.get(key)
        if perm is None:
            perm = self._relabelled[key] = [self.index[relabel(w, axis, quarter_turns)] for w in self.wheres]
        return perm


def relabel(where, axis, quarter_turns):
    """The orientation after the cube-frame labels turn with a whole-cube move.

    A cube-frame rotation (e.g. the x of Rw = L x) moves no motor; it renames
    the cube-frame faces: the content that was in direction d is afterwards in
    the direction that the rotation (about cubebot.robot.machine.orientation axis `axis`,
    quarter_turns clockwise) takes d to.
    """
    turned = orientation.rotate(orientation.IDENTITY, axis, 1)
    inverse = dict((old, new) for new, old in zip(orientation.ROBOT_FACES, turned))
    for _ in range(quarter_turns % 4):
        where = "".join(inverse[f] for f in where)
    return where


def orientations():
    """The shared Orientations tables (built on first use)."""
    if not _ORIENTS:
        _ORIENTS.append(Orientations())
    return _ORIENTS[0]


def node(where_index, flipper):
    """The node number of an orientation index and a flipper state name."""
    return where_index * N_FLIPPER + FLIPPER_STATES.index(flipper)


def node_where(n):
    """The orientation index of node n."""
    return n // N_FLIPPER


def node_flipper(n):
    """The flipper state name of node n."""
    return FLIPPER_STATES[n % N_FLIPPER]


class Router(object):
    """Shortest reorientation paths for one TimeModel."""

    def __init__(self, time_model):
        self.time_model = time_model
        self.tables = orientations()
        self._edges = self._build_edges()
        self._dist = {}
        self._prev = {}

    def _build_edges(self):
        tables = self.tables
        edges = []
        for n in range(len(tables.wheres) * N_FLIPPER):
            i, flipper = node_where(n), node_flipper(n)
            out = []
            for a in tables.reorienting:
                seconds, after = self.time_model.action_seconds(a, flipper)
                out.append((seconds, node(tables.after[a][i], after), a))
            edges.append(out)
        return edges

    def distances(self, source):
        """List: seconds of the cheapest path from node `source` to each node."""
        dist = self._dist.get(source)
        if dist is None:
            dist = self._run(source)
        return dist

    def _run(self, source):
        size = len(self._edges)
        dist = [float("inf")] * size
        prev = [None] * size
        dist[source] = 0.0
        heap = [(0.0, source)]
        while heap:
            d, n = heapq.heappop(heap)
            if d > dist[n]:
                continue
            for seconds, m, a in self._edges[n]:
                nd = d + seconds
                if nd < dist[m]:
                    dist[m] = nd
                    prev[m] = (n, a)
                    heapq.heappush(heap, (nd, m))
        self._dist[source] = dist
        self._prev[source] = prev
        return dist

    def path(self, source, target):
        """The actions of the cheapest path from node source to node target."""
        self.distances(source)
        prev = self._prev[source]
        result = []
        n = target
        while n != source:
            n, a = prev[n]
            result.append(a)
        result.reverse()
        return result
