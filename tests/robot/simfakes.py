"""Small stand-ins for the colour resolver and the solver, for tests of the
robot's own layers (the real ones are exercised in tests/integration)."""

from collections import namedtuple

from cubebot.robot.errors import ScanUnresolved
from cubebot.robot.hw.sim.ideal_sensor import REFERENCE_RGB
from cubebot.robot.hw.sim.world import FACE_COLOURS
from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply, invert

Resolution = namedtuple("Resolution", ["state"])
Solution = namedtuple("Solution", ["moves", "length", "metric", "seconds", "candidates"])


def nearest_face(rgb):
    """The face letter whose reference reading is nearest to `rgb`."""
    return min("URFDLB", key=lambda f: sum((a - b) ** 2 for a, b in zip(rgb, REFERENCE_RGB[FACE_COLOURS[f]])))


def nearest_resolve(readings, n):
    """Each facelet: the face letter whose reference reading is nearest to its first sample."""
    return Resolution("".join(nearest_face(samples[0]) for samples in readings))


def inverse_solver(scramble_moves):
    """A solve() that knows the scramble: its inverse, for the cube it scrambles; for the
    cube seen in another orientation (cubebot.robot.plan.choose's views), the solver's own."""
    def solve(state, size=None, metric="htm", budget=None):
        moves = invert(scramble_moves)
        if not is_solved(apply(state, moves, size), size):
            from cubebot.solver.api import solve as real
            return real(state, size=size, metric=metric, budget=budget)
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


class JunkOnCalls(object):
    """A sensor model (IdealSensorModel's readings) whose readings number
    `calls` (0-based, in the order taken) are junk; counts its readings."""

    JUNK = (400, 20, 400)

    def __init__(self, calls):
        from cubebot.robot.hw.sim.ideal_sensor import IdealSensorModel
        self.ideal = IdealSensorModel()
        self.calls = set(calls)
        self.count = 0

    def reading(self, colour, quality=1.0, centre=False, neighbour=None, brightness=None):
        k = self.count
        self.count += 1
        if k in self.calls:
            return self.JUNK
        return self.ideal.reading(colour, quality, centre, neighbour, brightness)

    def brightness(self):
        return self.ideal.brightness()


def median_resolve(tolerance):
    """A resolve() on each facelet's per-channel median: the nearest face letter, or
    ScanUnresolved naming the facelets whose median is farther than `tolerance`
    (raw counts, per channel) from every reference; records the doubts it raised."""
    from cubebot.robot.colour.space import combine

    def resolve(readings, n):
        letters, doubtful = [], []
        for i, samples in enumerate(readings):
            rgb = combine(samples)
            face = nearest_face(rgb)
            if max(abs(a - b) for a, b in zip(rgb, REFERENCE_RGB[FACE_COLOURS[face]])) > tolerance:
                doubtful.append(i)
            letters.append(face)
        if doubtful:
            resolve.doubts.append(doubtful)
            raise ScanUnresolved("far from every colour", doubtful)
        return Resolution("".join(letters))
    resolve.doubts = []
    return resolve
