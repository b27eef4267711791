"""One EV3 tacho motor through python-ev3dev2, with timeouts and stall detection.

`Ev3Motor` wraps an ev3dev2 `LargeMotor`/`MediumMotor` (passed in: this
module never imports ev3dev2). Units: motor degrees and degrees per second
(EV3 motors count 360 per turn).

The encoder is never written: `reset_position` keeps a software offset, so a
homing reset costs no sysfs write and cannot race the motor driver.

Every move is watched by polling `state` and `position` through the backend's
clock: "stalled" in the state, a move that ends short of its target, or one
that outlasts its timeout raises MotorStalled naming the motor, its port and
the target, after stopping that motor (coasting, so a flipper lets go of the
cube).
"""

from cubebot.robot.errors import DeviceMissing, MotorStalled
from cubebot.robot.hw.interface import Motor

POLL_S = 0.01               # how often a wait looks at the motor
ON_TARGET_DEG = 4           # a move ended within this many degrees succeeded
STALL_GRACE_S = 0.1         # the driver's state is trusted this long after a command
#                             (it needs a moment to flag a stall or clear an old one)
STATE_RUNNING = "running"
STATE_STALLED = "stalled"


class Ev3Motor(Motor):
    """A hardware.Motor on top of an ev3dev2 motor object."""

    def __init__(self, device, name, port, clock, poll_s=POLL_S):
        self._dev = device
        self.name = name
        self.port = port
        self._clock = clock
        self._poll_s = poll_s
        self._offset = 0
        self._target = None
        self._stop_requested = False
        self._started_s = 0.0
        self._written = {}          # attribute -> value last written (each write costs ms)
        self.max_speed_dps = self._call(lambda: device.max_speed)

    def __repr__(self):
        return "Ev3Motor({} on {})".format(self.name, self.port)

    # -- low level ------------------------------------------------------------
    def _call(self, func):
        """Run one ev3dev2 access; a vanished device becomes DeviceMissing."""
        try:
            return func()
        except (OSError, ValueError) as exc:
            raise DeviceMissing("{} motor on {} stopped answering ({})".format(
                self.name, self.port, exc))
        except Exception as exc:  # ev3dev2.DeviceNotFound has no better base class
            if type(exc).__name__ == "DeviceNotFound":
                raise DeviceMissing("{} motor on {} is not connected".format(self.name, self.port))
            raise

    def _raw_position(self):
        return self._call(lambda: self._dev.position)

    def _state(self):
        return self._call(lambda: self._dev.state)

    def _set(self, attr, value):
        """Write an attribute unless it already holds `value` (written by us)."""
        if self._written.get(attr) != value:
            setattr(self._dev, attr, value)
            self._written[attr] = value

    def _check_speed(self, speed_dps):
        speed = abs(int(round(speed_dps)))
        if speed == 0 or speed > self.max_speed_dps:
            raise MotorStalled("{} motor on {}: speed {} deg/s is outside 1..{}".format(
                self.name, self.port, speed_dps, self.max_speed_dps))
        return speed

    def _fail(self, what):
        """Leave this motor safe (stopped, coasting) and raise MotorStalled."""
        try:
            self.stop(hold=False)
        except Exception:  # noqa: BLE001 - the error below matters more
            pass
        raise MotorStalled("{} motor on {} {}".format(self.name, self.port, what))

    # -- hardware.Motor -------------------------------------------------------
    def position_deg(self):
        return self._raw_position() - self._offset

    def reset_position(self, position_deg=0):
        self._offset = self._raw_position() - int(round(position_deg))

    def start_to_position(self, position_deg, speed_dps):
        speed = self._check_speed(speed_dps)
        self._target = int(round(position_deg))
        self._stop_requested = False
        dev = self._dev

        def start():
            self._set("stop_action", "hold")
            dev.position_sp = self._target + self._offset
            self._set("speed_sp", speed)
            dev.command = "run-to-abs-pos"
        self._call(start)
        self._started_s = self._clock.now_s()

    def wait_until_stopped(self, timeout_s):
        target = self._target
        deadline = self._clock.now_s() + timeout_s
        while True:
            state = self._state()
            if self._stop_requested:
                return
            settled = self._clock.now_s() >= self._started_s + STALL_GRACE_S
            if STATE_STALLED in state and settled:
                self._fail("stalled at {} deg on the way to {} deg".format(self.position_deg(), target))
            if STATE_RUNNING not in state and (settled or STATE_STALLED not in state):
                if target is None or abs(self.position_deg() - target) <= ON_TARGET_DEG:
                    return
            if self._clock.now_s() >= deadline:
                self._fail("did not reach {} deg within {} s (at {} deg)".format(
                    target, timeout_s, self.position_deg()))
            self._clock.sleep_s(self._poll_s)

    def run_until_stalled(self, speed_dps, timeout_s):
        speed = self._check_speed(speed_dps)
        signed = speed if speed_dps > 0 else -speed
        self._target = None
        self._stop_requested = False
        dev = self._dev

        def start():
            self._set("stop_action", "coast")
            self._set("speed_sp", signed)
            dev.command = "run-forever"
        self._call(start)
        self._started_s = self._clock.now_s()
        deadline = self._clock.now_s() + timeout_s
        while not (STATE_STALLED in self._state() and self._clock.now_s() >= self._started_s + STALL_GRACE_S):
            if self._stop_requested:
                return self.position_deg()
            if self._clock.now_s() >= deadline:
                self._fail("found no end stop within {} s running at {} deg/s".format(timeout_s, speed_dps))
            self._clock.sleep_s(self._poll_s)
        self.stop(hold=False)
        return self.position_deg()

    def is_moving(self):
        """True while the motor runs (a stalled motor does not), and also just
        after a move was started, before the driver's state shows it."""
        state = self._state()
        starting = self._clock.now_s() < self._started_s + STALL_GRACE_S
        if STATE_RUNNING in state:
            return starting or STATE_STALLED not in state
        if self._target is None or self._stop_requested:
            return False
        return starting and abs(self.position_deg() - self._target) > ON_TARGET_DEG

    def stop(self, hold=False):
        self._stop_requested = True
        dev = self._dev

        def halt():
            self._set("stop_action", "hold" if hold else "coast")
            dev.command = "stop"
        self._call(halt)
