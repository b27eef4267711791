"""A probe of the design the 6x6x6 solver does not use: its centres staged by tables.

The solver that reaches about 136 moves on a 6x6x6 (dwalton76/rubiks-cube-NxNxN-solver,
cited: its RubiksCube666 stages the U/D centres by IDA*, then the L/R centres, then solves
the centres, from tables in the gigabytes) first brings the U and D colours of every centre
orbit onto the U and D faces together. This builds, for each centre orbit named,
the distance table of that staging alone (a 2^24 array indexed by the orbit's mask of U/D
facelets, breadth-first over the 45 turns that keep the DLB corner: outer and wide turns
of 1 to 5 layers of U, R and F; solver.tables.bfs), then runs an IDA* on the largest of the orbits'
distances over the same turns (the turns of one face in a run only deeper and deeper, as
they commute), capped at --nodes nodes a state. A staging found is applied back to the
real cube and checked. Reports per state the orbits' own distances, the staging's length
or the bound at which the cap was reached (no staging is shorter than that bound), nodes
and seconds; once for all four orbits and once for the three outside the 4x4x4 view.
Writes the "centre-staging" section of docs/benchmarks.md (docs/solver-big.md, "Tried and
not kept").

Usage: python bench/centre_staging.py [--states 4] [--nodes 3000000] [--no-record]
"""

import argparse
import datetime
import os
import random
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from bench.record import record  # noqa: E402
from cubebot.solver import moves  # noqa: E402
from cubebot.solver.big.views import centre_orbits, sequence_permutation  # noqa: E402
from cubebot.solver.moves import Move  # noqa: E402
from cubebot.solver.scramble import random_state  # noqa: E402
from cubebot.solver.tables import bfs  # noqa: E402

SEED = 2701
N = 6
TURNS = [Move(f, 1, d, t) for f in "URF" for d in range(1, N) for t in (1, 2, 3)]
ALL = ((1, 1), (1, 2), (1, 3), (2, 2))           # (1, 1) lies in the 4x4x4 view
OUTSIDE = ((1, 2), (1, 3), (2, 2))
STAGED = "UD"                                   # the colours brought onto U and D


class Orbit(object):
    """One centre orbit: per turn, three 256-entry tables mapping the bytes of its
    24-bit mask of U/D facelets to the mask after the turn; its distance table."""

    def __init__(self, label):
        self.label = label
        self.places = dict(centre_orbits(N))[label]
        index = dict((f, i) for i, f in enumerate(self.places))
        self.turns = []
        for m in TURNS:
            p = sequence_permutation([m], N)
            src = [index[p[f]] for f in self.places]         # new bit j = old bit src[j]
            parts = []
            for byte in range(3):
                parts.append([sum(1 << j for j in range(24)
                                  if src[j] // 8 == byte and (v >> (src[j] % 8)) & 1)
                              for v in range(256)])
            self.turns.append(parts)
        self.goal = sum(1 << j for j, f in enumerate(self.places) if f // (N * N) in (0, 3))   # on U, D
        self.dist = bfs([self.goal], self.neighbours, n_states=1 << 24)

    def neighbours(self, m):
        a, b, c = m & 255, (m >> 8) & 255, m >> 16
        return [t0[a] | t1[b] | t2[c] for t0, t1, t2 in self.turns]

    def mask(self, cube):
        return sum(1 << j for j, f in enumerate(self.places) if cube[f] in STAGED)

    def staged(self, cube):
        return self.mask(cube) == self.goal


def stage(orbits, masks, cap):
    """(turn indices of a staging or None, nodes, bound reached)."""
    faces = [m.face for m in TURNS]
    depths = [m.last for m in TURNS]
    nodes = [0]
    path = []

    def h(ms):
        return max(o.dist[m] for o, m in zip(orbits, ms))

    def search(ms, g, bound, last_face, last_depth):
        estimate = h(ms)
        if g + estimate > bound:
            return g + estimate
        if estimate == 0:
            return -1
        nodes[0] += 1
        if nodes[0] > cap:
            return -2
        least = 99
        for t in range(len(TURNS)):
            if faces[t] == last_face and depths[t] <= last_depth:
                continue
            after = []
            for o, m in zip(orbits, ms):
                t0, t1, t2 = o.turns[t]
                after.append(t0[m & 255] | t1[(m >> 8) & 255] | t2[m >> 16])
            path.append(t)
            found = search(after, g + 1, bound, faces[t], depths[t])
            if found < 0:
                return found
            path.pop()
            least = min(least, found)
        return least

    bound = h(masks)
    while True:
        found = search(masks, 0, bound, None, 0)
        if found == -1:
            return list(path), nodes[0], bound
        if found == -2:
            return None, nodes[0], bound
        bound = found


def run(labels, cubes, cap):
    started = time.perf_counter()
    orbits = [Orbit(label) for label in labels]
    built = time.perf_counter() - started
    rows = []
    for i, cube in enumerate(cubes):
        masks = [o.mask(cube) for o in orbits]
        started = time.perf_counter()
        path, nodes, bound = stage(orbits, masks, cap)
        seconds = time.perf_counter() - started
        if path is not None:
            after = moves.apply(cube, [TURNS[t] for t in path], N)
            assert all(o.staged(after) for o in orbits), "a staging that does not stage"
        rows.append((i, [o.dist[m] for o, m in zip(orbits, masks)], path, nodes, bound, seconds))
        print(labels, rows[-1][:2], "found %d" % len(path) if path is not None else
              "none within %d (cap at bound %d)" % (bound - 1, bound), nodes, "%.1f s" % seconds, flush=True)
    return built, rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--states", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=3000000)
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args(argv)
    rng = random.Random(SEED)
    cubes = [random_state(N, rng) for _ in range(args.states)]
    load = os.getloadavg()[0]
    lines = []
    for labels in (ALL, OUTSIDE):
        built, rows = run(labels, cubes, args.nodes)
        lines.append("\n**Orbits %s** (tables built in %.1f s)\n" % (", ".join(map(str, labels)), built))
        lines.append("| state | each orbit's own distance | staging | nodes | seconds |")
        lines.append("|---|---|---|---|---|")
        for i, dists, path, nodes, bound, seconds in rows:
            what = "%d moves" % len(path) if path is not None else \
                "none within %d (cap reached at bound %d)" % (bound - 1, bound)
            lines.append("| %d | %s | %s | %d | %.1f |" % (i, ", ".join(map(str, dists)), what, nodes, seconds))
    load = max(load, os.getloadavg()[0])
    text = "\n".join([
        "## Centre staging by per-orbit tables (bench/centre_staging.py, %s)" % datetime.date.today(),
        "",
        "`python bench/centre_staging.py --states %d --nodes %d` (seed %d, 6x6x6 states by "
        "scramble.random_state; the U/D staging of several centre orbits at once by an IDA* on "
        "the largest per-orbit distance, 45 turns keeping DLB; load up to %.1f)." % (
            args.states, args.nodes, SEED, load),
    ] + lines)
    print(text)
    if not args.no_record:
        record("centre-staging", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
