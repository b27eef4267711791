"""Small stand-ins for the colour resolver and the solver, for tests of the
robot's own layers (the real ones are exercised in tests/integration)."""

from collections import namedtuple

from robot.errors import ScanUnresolved
from robot.sim.ideal_sensor import REFERENCE_RGB
from robot.sim.world import FACE_COLOURS
from solver.moves import invert

Resolution = namedtuple("Resolution", ["state"])
Solution = namedtuple("Solution", ["moves", "length", "metric", "seconds", "candidates"])


def nearest_resolve(readings, n):
    """Each facelet: the face letter whose reference reading is nearest to its first sample."""
    def nearest(rgb):
        return min("URFDLB", key=lambda f: sum((a - b) ** 2 for a, b in zip(rgb, REFERENCE_RGB[FACE_COLOURS[f]])))
    return Resolution("".join(nearest(samples[0]) for samples in readings))


def inverse_solver(scramble_moves):
    """A solve() that knows the scramble: its inverse (and the inverse twice as a second candidate)."""
    def solve(state, size=None, metric="htm", budget=None):
        moves = invert(scramble_moves)
        return Solution(moves, len(moves), metric, 0.0, [moves])
    return solve


class AlwaysDoubtful(object):
    """A resolve() that never resolves; counts its calls."""

    def __init__(self, doubtful):
        self.doubtful = doubtful
        self.calls = 0
        self.sizes = []

    def __call__(self, readings, n):
        self.calls += 1
        self.sizes.append(sum(1 for samples in readings if samples))
        raise ScanUnresolved("two cubes fit", self.doubtful)
