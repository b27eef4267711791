"""The simulated clock paced against real time (cubebot classroom --sim --speed K): it waits
only as long as the pace asks, and starts again from the present after a pause."""

from cubebot.robot.hw.sim import backend
from cubebot.robot.hw.sim.backend import PACE_RESYNC_S, SimClock


class RealTime(object):
    """A stand-in for time.monotonic and time.sleep: sleeping moves it on, nothing else does."""

    def __init__(self):
        self.now = 50.0
        self.slept = 0.0

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.slept += seconds
        self.now += seconds


def test_a_paced_clock_lets_real_time_pass_at_its_pace(monkeypatch):
    real = RealTime()
    monkeypatch.setattr(backend, "time", real)
    clock = SimClock(pace=4.0)
    clock.advance(0.5)                # starts the pace
    clock.advance(10.0)
    assert abs(real.slept - 10.0 / 4.0) < 0.01


def test_an_unpaced_clock_never_waits(monkeypatch):
    real = RealTime()
    monkeypatch.setattr(backend, "time", real)
    clock = SimClock()
    clock.advance(1000.0)
    assert real.slept == 0.0 and clock.now_s() == 1000.0


def test_a_clock_behind_its_pace_starts_again_from_the_present(monkeypatch):
    real = RealTime()
    monkeypatch.setattr(backend, "time", real)
    clock = SimClock(pace=1.0)
    clock.advance(1.0)
    real.now += 2 * PACE_RESYNC_S + 5.0      # the computer was busy elsewhere
    clock.advance(1.0)
    clock.advance(1.0)
    # the lost seconds are not made up for by running unpaced: the last second is waited for
    assert abs(real.slept - 1.0) < 0.01
