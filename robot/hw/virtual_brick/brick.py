"""A virtual EV3 brick: a fake /sys/class tree and a physics thread.

    brick = VirtualBrick(world, config)      # builds the tree in a temp dir
    with brick:                              # starts / stops the physics
        hw = brick.make_hardware()           # the real ev3dev2 backend on it

Time is simulated and runs in lockstep with the code that drives the brick:
`brick.clock` (give it to the backend) advances only while some thread
sleeps on it, in fixed physics steps of `step_s` simulated seconds, as fast
as the machine allows. So a run takes a fraction of its robot time, the
robot time it reports does not depend on how busy this machine is, and
backend waits and timeouts mean the same as on a brick. (Between two sleeps
nothing moves: a controller must sleep on the clock while it waits for a
motor, as the ev3dev2 backend does.)

The motors drive the simulated world: after each step that moved a shaft the
brick calls `world.update(flipper_deg, table_deg, arm_deg)` (shaft angles in
the mechanism's frame: flipper 0 = away, against its end stop; arm 0 =
parked, against its end stop; table 0 = where it booted). The colour sensor
shows `world.read_rgb_raw()`, the proximity sensor `world.read_distance_cm()`.

Faults: `block_motor(port)` (the shaft cannot turn: the driver reports
stalled), `unplug(port)` (a sensor stops answering), and `missing=(port, ...)`
at construction (nothing plugged there).
"""

import math
import os
import shutil
import tempfile
import threading

from cubebot.robot.hw.interface import Clock
from cubebot.robot.hw.virtual_brick.motors import LARGE, MEDIUM, SimMotor
from cubebot.robot.hw.virtual_brick.sensors import SimSensor
from cubebot.robot.hw.virtual_brick.sysfs import DeviceDir, make_class_dirs

CLASSES = ("tacho-motor", "lego-sensor", "power_supply")
STEP_S = 0.01                # simulated seconds per physics step
IDLE_WAIT_S = 0.5            # the physics thread re-checks for stop this often when idle
FLIPPER_STOP_DEG = (0, 230)  # shaft end stops (mechanism frame)
ARM_STOP_DEG = (-820, 0)
FLIPPER_BOOT_DEG = 25        # shaft angles when the brick boots
ARM_BOOT_DEG = -60
BATTERY_V = 7.9
MICRO = 1000000
WORLD_STEP_DEG = 6.0         # the most a shaft turns between two world updates
SENSOR_NAMES = ("sensor0", "sensor1")


class SimClock(Clock):
    """The virtual brick's simulated time; sleep_s waits for the physics."""

    def __init__(self, brick):
        self._brick = brick

    def now_s(self):
        return self._brick.sim_time_s

    def sleep_s(self, seconds):
        self._brick.wait_sim_time(self._brick.sim_time_s + seconds)


class VirtualBrick(object):
    """The fake sysfs, its simulated devices and the thread that runs them."""

    def __init__(self, world, config, step_s=STEP_S, proximity="ir",
                 missing=(), root=None, battery_v=BATTERY_V):
        os.environ["FAKE_SYS"] = "1"   # ev3dev2 picks its platform at import
        self.world = world
        self.config = config
        self.step_s = float(step_s)
        self._waiting = []           # simulated times that sleeping threads wait for
        self.sim_time_s = 0.0
        self._own_root = root is None
        self.root = root or tempfile.mkdtemp(prefix="cubebot-vbrick-")
        self.clock = SimClock(self)
        self._cond = threading.Condition()
        self._thread = None
        self._running = False
        self.error = None
        make_class_dirs(self.root, CLASSES)
        self.motors = {}
        specs = (("flipper", config.flipper_port, LARGE, FLIPPER_BOOT_DEG, FLIPPER_STOP_DEG),
                 ("table", config.table_port, LARGE, 0, (None, None)),
                 ("arm", config.arm_port, MEDIUM, ARM_BOOT_DEG, ARM_STOP_DEG))
        for index, (role, port, kind, boot, stops) in enumerate(specs):
            if port in missing:
                continue
            self.motors[role] = SimMotor(self.root, "motor" + str(index), port, kind,
                                         start_deg=boot, min_deg=stops[0], max_deg=stops[1])
        self.sensors = {}
        sensor_specs = (("color", config.color_port, "color", world.read_rgb_raw),
                        ("proximity", config.proximity_port, proximity, world.read_distance_cm))
        for name, (role, port, kind, source) in zip(SENSOR_NAMES, sensor_specs):
            if port in missing or kind is None:
                continue
            self.sensors[role] = SimSensor(self.root, name, port, kind, source)
        self._battery = DeviceDir(self.root, "power_supply", "lego-ev3-battery", {
            "voltage_now": int(battery_v * MICRO), "current_now": 150000,
            "type": "Battery", "technology": "Li-ion"})
        self._publish()

    # -- faults -----------------------------------------------------------------
    def _motor_on(self, port):
        for role in sorted(self.motors):
            if self.motors[role].port == port:
                return self.motors[role]
        raise KeyError("no simulated motor on " + port)

    def block_motor(self, port, blocked=True):
        """The motor on `port` can no longer turn (a jammed turntable...)."""
        with self._cond:
            self._motor_on(port).blocked = blocked

    def unplug(self, port):
        """The sensor on `port` stops answering."""
        with self._cond:
            for role in sorted(self.sensors):
                if self.sensors[role].port == port:
                    self.sensors[role].unplug()
                    return
        raise KeyError("no simulated sensor on " + port)

    def shaft_deg(self, role):
        """A motor's shaft angle in the mechanism frame (for tests)."""
        return self.motors[role].shaft_deg

    def motor_state(self, role):
        """What the driver reports in `state` (for tests)."""
        return self.motors[role].dir["state"].read()

    # -- physics ----------------------------------------------------------------
    def _angles(self):
        def angle(role):
            motor = self.motors.get(role)
            return motor.shaft_deg if motor is not None else 0.0
        return angle("flipper"), angle("table"), angle("arm")

    def _publish(self):
        self.world.update(*self._angles())
        for role in sorted(self.sensors):
            self.sensors[role].tick()

    def step(self):
        """One physics step of step_s simulated seconds.

        The step is cut into sub-steps so that no shaft turns more than
        WORLD_STEP_DEG between two calls of world.update.
        """
        dt = self.step_s
        with self._cond:
            roles = sorted(self.motors)
            for role in roles:
                self.motors[role].take_command()
            biggest = max([self.motors[r].max_step_deg(dt) for r in roles] + [0.0])
            count = max(1, int(math.ceil(biggest / WORLD_STEP_DEG)))
            start = dict((r, self.motors[r].shaft_deg) for r in roles)
            for _ in range(count):
                moved = False
                for role in roles:
                    moved = self.motors[role].advance(dt / count) or moved
                if moved:
                    self.world.update(*self._angles())
            # Sensors first: when ev3dev2 sees a move has ended, the colour
            # under the sensor is already the one at the final position.
            for role in sorted(self.sensors):
                self.sensors[role].tick()
            for role in roles:
                self.motors[role].publish((self.motors[role].shaft_deg - start[role]) / dt)
            self.sim_time_s += dt
            self._cond.notify_all()

    def _someone_waits(self):
        return any(until > self.sim_time_s for until in self._waiting)

    def _loop(self):
        try:
            while self._running:
                with self._cond:
                    while self._running and not self._someone_waits():
                        self._cond.wait(IDLE_WAIT_S)
                if self._running:
                    self.step()
        except Exception as exc:  # noqa: BLE001 - reported to waiters, not lost
            self.error = exc
        finally:
            with self._cond:
                self._running = False
                self._cond.notify_all()

    def wait_sim_time(self, until_s):
        """Block until simulated time reaches `until_s` (the physics runs meanwhile)."""
        with self._cond:
            self._waiting.append(until_s)
            self._cond.notify_all()
            try:
                while self.sim_time_s < until_s:
                    if not self._running:
                        raise RuntimeError("the virtual brick is not running: {}".format(self.error))
                    self._cond.wait(IDLE_WAIT_S)
            finally:
                self._waiting.remove(until_s)

    def start(self):
        if self._thread is None:
            self._running = True
            self._thread = threading.Thread(target=self._loop, name="virtual-brick", daemon=True)
            self._thread.start()
        return self

    def stop(self):
        with self._cond:
            self._running = False
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def close(self):
        """Stop the physics and remove the tree (if this brick made it)."""
        self.stop()
        for part in list(self.motors.values()) + list(self.sensors.values()) + [self._battery]:
            part.close()
        if self._own_root:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
        return False

    # -- the backend on top -------------------------------------------------------
    def make_hardware(self, screen=None, missing_ok=False):
        """The real ev3dev2 backend opened on this brick's tree."""
        from cubebot.robot.hw.ev3.backend import make_hardware
        return make_hardware(self.config, device_root=self.root, clock=self.clock, screen=screen,
                             missing_ok=missing_ok)
