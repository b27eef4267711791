"""Helpers for the colour tests: random cubes, synthetic scans, comparing states."""

import random

from cubebot.robot.hw.sim.sensor_model import SensorModel
from cubebot.solver.facelets import solved
from cubebot.solver.moves import apply, face_turns


def random_state(rng, n, length=40):
    """A random state of an NxNxN cube, by random turns."""
    turns = face_turns(n)
    return apply(solved(n), [rng.choice(turns) for _ in range(length)], n)


def scan_of(state, n, seed, noise="moderate", samples=1, **params):
    """A synthetic scan of `state` (standard-scheme letters)."""
    return SensorModel(random.Random(seed), noise, **params).scan(state, n, samples)


def same_cube(a, b):
    """True when a and b are the same cube up to renaming the six symbols."""
    if len(a) != len(b):
        return False
    mapping = {}
    for x, y in zip(a, b):
        if mapping.setdefault(x, y) != y:
            return False
    return len(set(mapping.values())) == len(mapping)
