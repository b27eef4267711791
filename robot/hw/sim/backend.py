"""The simulated backend: motors, colour and proximity sensors on a simulated clock.

Implements cubebot.robot.hw.interface on top of a cubebot.robot.hw.sim.world.World. Time is
simulated: a move of A motor degrees at S deg/s takes A/S seconds of
`SimClock` time and no real time; while the clock advances, every moving
motor steps at most STEP_DEG per step and the world is updated after each
step, so the world sees the motion as the real cube would.

Each motor has a physical angle (0 = against its homing stop, as the world
expects) and an encoder that reads physical - offset: an unhomed robot's
encoder does not match the world until `reset_position` after homing. The
flipper and the arm have end stops (FLIPPER_STOPS_DEG, ARM_STOPS_DEG): a
motor driven into one stalls there, which is how homing finds them.

Pace: `SimClock(pace=P)` (make_sim_hardware(..., pace=P)) also lets real time
pass, P simulated seconds per real second, so that a watcher sees the run at
a human speed (P = 1: as long as the brick would take). The clock waits only
when it is ahead of that pace; a clock that fell behind (nothing ran for a
while, between runs) starts again from the present.

Fault injection: `motor.jam_after_deg(d)` makes the motor stall d degrees
into its next move (a stuck cube, a cable caught).
"""

import time

from cubebot.robot.errors import MotorStalled
from cubebot.robot.hw.interface import Clock, ColorSensor, Hardware, Motor, ProximitySensor

STEP_DEG = 6.0                      # the most any motor moves between world updates
FLIPPER_STOPS_DEG = (0.0, 230.0)    # physical travel of the flipper
ARM_STOPS_DEG = (-820.0, 0.0)       # physical travel of the sensor arm
FLIPPER_START_DEG = 40.0            # where an unhomed flipper rests
ARM_START_DEG = -300.0              # where an unhomed arm rests
SENSOR_READ_S = 0.01               # one colour reading over sysfs on the brick
_EPS = 1e-9
PACE_SLACK_S = 0.005                # paced clock: sleep only when this far ahead of real time
PACE_RESYNC_S = 0.25                # paced clock: start again when this far behind real time


class SimClock(Clock):
    """Simulated time; advancing it moves the motors and updates the world."""

    def __init__(self, world=None, pace=None):
        self.world = world
        self.motors = []
        self._now = 0.0
        self.pace = pace              # simulated seconds per real second, or None: no real time
        self._anchor = None           # (real, simulated) seconds when the pace last started

    def now_s(self):
        return self._now

    def sleep_s(self, seconds):
        self.advance(seconds)

    def _moving(self):
        return [m for m in self.motors if m.is_moving()]

    def advance(self, seconds, until=None):
        """Advance by `seconds` (or until `until()` is true); step the motors."""
        left = float(seconds)
        while left > _EPS:
            if until is not None and until():
                return
            moving = self._moving()
            if not moving:
                self._now += left
                self._keep_pace()
                return
            step = left
            for motor in moving:
                step = min(step, STEP_DEG / abs(motor.speed_dps), motor.time_to_event())
            step = max(step, _EPS)
            for motor in moving:
                motor.step(step)
            self._now += step
            left -= step
            self._update_world()
            self._keep_pace()

    def _keep_pace(self):
        """With a pace: wait until real time catches up with the simulated time."""
        if not self.pace:
            return
        real = time.monotonic()
        if self._anchor is None:
            self._anchor = (real, self._now)
            return
        due = self._anchor[0] + (self._now - self._anchor[1]) / self.pace
        if due < real - PACE_RESYNC_S:
            self._anchor = (real, self._now)
        elif due > real + PACE_SLACK_S:
            time.sleep(due - real)

    def _update_world(self):
        if self.world is None:
            return
        by_name = dict((m.name, m.physical_deg) for m in self.motors)
        self.world.update(by_name.get("flipper", 0.0), by_name.get("table", 0.0), by_name.get("arm", 0.0))


class SimMotor(Motor):
    """A tacho motor moving at constant speed between optional end stops."""

    def __init__(self, name, clock, stops=None, start_deg=0.0):
        self.name = name
        self.clock = clock
        self.stops = stops
        self.physical_deg = float(start_deg)
        self._offset = float(start_deg)   # encoder reads 0 where it starts
        self.speed_dps = 0.0
        self._target = None               # physical target, or None when running free
        self._running = False
        self.stalled = False
        self._jam_after = None
        self._travelled = 0.0
        self.moves = 0
        clock.motors.append(self)

    # -- faults -------------------------------------------------------------
    def jam_after_deg(self, degrees):
        """Make the next move stall after `degrees` of travel."""
        self._jam_after = float(degrees)

    # -- the interface ------------------------------------------------------
    def position_deg(self):
        return int(round(self.physical_deg - self._offset))

    def reset_position(self, position_deg=0):
        self._offset = self.physical_deg - position_deg

    def start_to_position(self, position_deg, speed_dps):
        target = float(position_deg) + self._offset
        self._start(target, abs(float(speed_dps)) * (1 if target >= self.physical_deg else -1))

    def _start(self, target, speed_dps):
        self._target = target
        self.speed_dps = speed_dps
        self._running = target is None or abs(target - self.physical_deg) > _EPS
        self.stalled = False
        self._travelled = 0.0
        self.moves += 1

    def wait_until_stopped(self, timeout_s):
        self.clock.advance(timeout_s, until=lambda: not self._running)
        if self.stalled:
            raise MotorStalled("{} motor stalled at {} deg on its way to {} deg".format(
                self.name, self.position_deg(), self._describe_target()))
        if self._running:
            self.stop(hold=True)
            raise MotorStalled("{} motor did not reach {} deg within {} s".format(
                self.name, self._describe_target(), timeout_s))

    def _describe_target(self):
        if self._target is None:
            return "its stop"
        return int(round(self._target - self._offset))

    def run_until_stalled(self, speed_dps, timeout_s):
        self._start(None, float(speed_dps))
        self.clock.advance(timeout_s, until=lambda: not self._running)
        if not self.stalled:
            self.stop(hold=True)
            raise MotorStalled("{} motor ran {} s at {} deg/s without stalling: is its end stop "
                               "missing?".format(self.name, timeout_s, speed_dps))
        self.stalled = False
        return self.position_deg()

    def is_moving(self):
        return self._running

    def stop(self, hold=False):
        self._running = False

    # -- physics (called by the clock) --------------------------------------
    def _limit(self):
        """The physical angle where this move ends: its target or a stop."""
        ends = []
        if self._target is not None:
            ends.append(self._target)
        if self.stops is not None:
            ends.append(self.stops[1] if self.speed_dps > 0 else self.stops[0])
        if self._jam_after is not None:
            ends.append(self.physical_deg + (self._jam_after - self._travelled) * (1 if self.speed_dps > 0 else -1))
        if not ends:
            return None
        return min(ends) if self.speed_dps > 0 else max(ends)

    def time_to_event(self):
        end = self._limit()
        if end is None:
            return float("inf")
        return abs(end - self.physical_deg) / abs(self.speed_dps)

    def step(self, seconds):
        end = self._limit()
        delta = self.speed_dps * seconds
        reached = end is not None and abs(end - self.physical_deg) <= abs(delta) + _EPS
        if reached:
            delta = end - self.physical_deg
        self.physical_deg += delta
        self._travelled += abs(delta)
        if not reached:
            return
        self._running = False
        at_target = self._target is not None and abs(self.physical_deg - self._target) <= _EPS
        if not at_target:
            self.stalled = True
            self._jam_after = None


class SimColorSensor(ColorSensor):
    """Reads the world; each reading takes SENSOR_READ_S of simulated time.

    dead=True stands for a broken sensor: every reading is the same grey.
    """

    DEAD_READING = (120, 120, 120)

    def __init__(self, world, clock, dead=False):
        self.world = world
        self.clock = clock
        self.dead = dead
        self.reads = 0

    def read_rgb_raw(self):
        self.reads += 1
        self.clock.advance(SENSOR_READ_S)
        if self.dead:
            return self.DEAD_READING
        return self.world.read_rgb_raw()


class SimProximitySensor(ProximitySensor):
    def __init__(self, world):
        self.world = world

    def read_distance_cm(self):
        return self.world.read_distance_cm()


def make_sim_hardware(config, world, flipper_start_deg=FLIPPER_START_DEG, arm_start_deg=ARM_START_DEG,
                      pace=None):
    """A Hardware whose motors and sensors act on `world` (config is for symmetry
    with the ev3 backend: ports do not matter here); pace: see SimClock."""
    clock = SimClock(world, pace)
    flipper = SimMotor("flipper", clock, FLIPPER_STOPS_DEG, flipper_start_deg)
    table = SimMotor("table", clock)
    arm = SimMotor("arm", clock, ARM_STOPS_DEG, arm_start_deg)
    clock._update_world()
    return Hardware(flipper, table, arm, SimColorSensor(world, clock), clock,
                    proximity=SimProximitySensor(world))
