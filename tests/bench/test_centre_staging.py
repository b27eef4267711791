"""bench/centre_staging.py: its per-orbit tables reach every U/D mask of an orbit, and a
staging it finds stages the real cube; a cap ends the search with the bound it proved."""

import random
from math import factorial

import pytest

from bench import centre_staging as probe
from cubebot.solver import moves
from cubebot.solver.tables import UNREACHED


@pytest.fixture(scope="module")
def orbits():
    return [probe.Orbit((1, 1)), probe.Orbit((2, 2))]


def test_an_orbit_table_and_a_staging_applied_back(orbits):
    orbit = orbits[1]
    reached = sum(1 for d in orbit.dist if d != UNREACHED)
    assert reached == factorial(24) // (factorial(8) * factorial(16))     # every mask of 8 U/D facelets among 24
    assert max(d for d in orbit.dist if d != UNREACHED) <= 8
    cube = probe.random_state(probe.N, random.Random(2702))
    mask = orbit.mask(cube)
    assert orbit.dist[mask] > 0 and not orbit.staged(cube)
    path, nodes, bound = probe.stage([orbit], [mask], 100000)
    assert path is not None and len(path) == orbit.dist[mask] == bound    # one orbit: its table is exact
    after = moves.apply(cube, [probe.TURNS[t] for t in path], probe.N)
    assert orbit.staged(after)
    # staged means the U/D colours on exactly the orbit's U and D places
    assert all((after[f] in "UD") == (f // (probe.N * probe.N) in (0, 3)) for f in orbit.places)


def test_the_node_cap_ends_the_search_at_a_proved_bound(orbits):
    cube = probe.random_state(probe.N, random.Random(probe.SEED))
    masks = [o.mask(cube) for o in orbits]
    path, nodes, bound = probe.stage(orbits, masks, 50)
    assert path is None and nodes == 51
    assert bound >= max(o.dist[m] for o, m in zip(orbits, masks))
