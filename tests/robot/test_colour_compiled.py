"""The compiled joint colour search (robot/colour/_assign.c) against the Python search.

The compiled search must give exactly the Python search's answer: the same two cheapest
cubes with the same costs (bit for bit), the same node count and the same exhausted flag.
Checked on every cost matrix that resolving the real recorded scans and synthetic scans
makes, and on random cost matrices full of ties (small integers), where only the same
order of operations and the same tie-breaking give the same answer.
"""

import json
import os
import random

import pytest

from cubebot.robot.colour import joint
from cubebot.robot.colour.assign import PieceSearch
from cubebot.robot.colour.pieces import orbits
from cubebot.robot.colour.resolve import resolve
from cubebot.robot.colour.scanfile import parse_scan
from cubebot.robot.errors import ScanUnresolved
from cubebot.solver.facelets import FACES

from .colors_support import random_state, scan_of

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data", "real-scans")
MODULE = joint.compiled()
pytestmark = pytest.mark.skipif(MODULE is None, reason="the compiled colour search is not built")


def python_search(cost, n):
    search = PieceSearch(joint.SEARCH_MARGIN, joint.MAX_NODES, check_parity=(n % 2 == 1))
    joint._python_search(search, cost, n, orbits(n))
    return search


def outcome(search):
    return search.nodes, search.exhausted, search.found


class Recorder(object):
    """joint.joint_search wrapped: every call runs both searches and keeps both outcomes."""

    def __init__(self, monkeypatch):
        self.pairs = []
        real = joint.joint_search

        def both(cost, n, module=None):
            compiled = real(cost, n, MODULE)
            self.pairs.append((outcome(python_search(cost, n)), outcome(compiled)))
            return compiled
        monkeypatch.setattr(joint, "joint_search", both)


def test_real_scans_search_the_same(monkeypatch):
    recorder = Recorder(monkeypatch)
    with open(os.path.join(DATA, "manifest.json")) as fh:
        manifest = json.load(fh)
    for entry in manifest:
        with open(os.path.join(DATA, entry["file"])) as fh:
            readings, n = parse_scan(fh.read())
        try:
            resolve(readings, n)
        except ScanUnresolved:
            pass
    assert len(recorder.pairs) >= len(manifest)
    assert sum(1 for p, _ in recorder.pairs if p[2]) > len(manifest) // 2   # most find cubes
    for python, compiled in recorder.pairs:
        assert compiled == python


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_synthetic_scans_search_the_same(monkeypatch, n):
    recorder = Recorder(monkeypatch)
    rng = random.Random(480 + n)
    for seed in range(12 if n <= 3 else 3):
        readings = scan_of(random_state(rng, n), n, seed, noise=("low", "moderate", "high")[seed % 3],
                           samples=1 + seed % 2)
        try:
            resolve(readings, n)
        except ScanUnresolved:
            pass
    assert recorder.pairs
    for python, compiled in recorder.pairs:
        assert compiled == python


def planted(rng, n, levels):
    """A cost matrix whose true colour costs the least of `levels` (small integers: ties)."""
    truth = random_state(rng, n)
    cost = []
    for letter in truth:
        row = [float(rng.choice(levels[1:])) for _ in range(6)]
        if rng.random() < 0.9:
            row[FACES.index(letter)] = float(levels[0])
        cost.append(row)
    return cost


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ties_and_random_costs_search_the_same(n):
    rng = random.Random(4800 + n)
    found = exhausted = 0
    for trial in range(40):
        if trial % 2:
            cost = planted(rng, n, (0, 1, 2, 3, 5))
        else:
            cost = [[rng.choice((0.0, 0.5, 1.25, 4.0)) for _ in range(6)] for _ in range(6 * n * n)]
        python = outcome(python_search(cost, n))
        assert outcome(joint.joint_search(cost, n, MODULE)) == python
        found += bool(python[2])
        exhausted += python[1]
    assert found > 0 and exhausted > 0          # both ends of the search are exercised


def test_resolve_gives_the_same_cube_either_way(monkeypatch):
    rng = random.Random(48)
    readings = scan_of(random_state(rng, 3), 3, 7)
    compiled = resolve(readings, 3)
    monkeypatch.setenv("CUBEBOT_PURE_PYTHON", "1")
    assert joint.compiled() is None
    assert resolve(readings, 3) == compiled


def test_the_compiled_time_is_counted():
    before = joint.COMPILED_SECONDS[0]
    for seed in range(3):
        joint.joint_search(planted(random.Random(seed), 3, (0, 2, 4)), 3, MODULE)
    assert joint.COMPILED_SECONDS[0] > before


@pytest.mark.parametrize("bad", ["short row", "facelet out of range", "no centres"])
def test_bad_arguments_raise_value_errors(bad):
    orb = orbits(3)
    names, edge_names, groups, corner_keys, edge_keys = joint._compiled_args()
    cost = [[1.0] * 6 for _ in range(54)]
    corners, fixed = orb.corners, orb.fixed
    if bad == "short row":
        cost[5] = [1.0] * 5
    elif bad == "facelet out of range":
        corners = [(0, 1, 99)] + list(corners[1:])
    else:
        fixed = fixed[:3]
    with pytest.raises(ValueError):
        MODULE.search(cost, corners, orb.edges, fixed, names, edge_names, groups, corner_keys,
                      edge_keys, joint.SEARCH_MARGIN, joint.MAX_NODES, 1, 6)
