"""Simulated EV3 tacho motors behind fake sysfs files.

A `SimMotor` owns one tacho-motor/motorN folder. Each physics tick it reads
the command ev3dev2 wrote (run-to-abs-pos, run-to-rel-pos, run-forever, stop,
reset), moves its shaft at the commanded speed, and publishes `position`,
`speed` and `state` (running / holding / stalled, as the ev3dev driver does).

Units: degrees and degrees per second (count_per_rot is 360). Two angles are
kept apart: the *shaft* angle in the mechanism's frame (0 = against the end
stop that homing finds) and the *encoder* count that ev3dev2 reads, which
starts at 0 wherever the shaft was when the brick booted.
"""

from cubebot.robot.hw.virtual_brick.sysfs import DeviceDir, match_word, parse_int

LARGE = {"driver_name": "lego-ev3-l-motor", "max_speed": 1050}
MEDIUM = {"driver_name": "lego-ev3-m-motor", "max_speed": 1560}
COUNT_PER_ROT = 360
COMMANDS = ("run-forever", "run-to-abs-pos", "run-to-rel-pos", "run-timed",
            "run-direct", "stop", "reset")
STOP_ACTIONS = ("coast", "brake", "hold")
STALL_AFTER_S = 0.1  # blocked this long while powered -> "stalled"
WRITTEN_NUMBERS = ("position_sp", "speed_sp", "time_sp", "duty_cycle_sp",
                   "ramp_up_sp", "ramp_down_sp")


class SimMotor(object):
    """One motor: its sysfs folder, shaft angle, end stops and faults.

    `min_deg`/`max_deg` are the end stops in the shaft frame (None = free);
    `start_deg` is the shaft angle at boot (the encoder reads 0 there).
    """

    def __init__(self, root, name, port, kind, start_deg=0.0, min_deg=None, max_deg=None):
        self.port = port
        self.kind = kind
        self.min_deg = min_deg
        self.max_deg = max_deg
        self.shaft_deg = float(start_deg)
        self.encoder_offset = -float(start_deg)
        self.blocked = False       # fault injection: the shaft cannot turn
        self._mode = None          # None, "forever" or "position"
        self._target = 0.0         # encoder degrees, for position moves
        self._speed = 0.0          # commanded, deg/s (signed for forever)
        self._stuck_s = 0.0
        self._sp = {"position_sp": 0, "speed_sp": 0, "time_sp": 0, "duty_cycle_sp": 0,
                    "ramp_up_sp": 0, "ramp_down_sp": 0}
        self._stop_action = "coast"
        self._state = ""
        attrs = {
            "address": port, "driver_name": kind["driver_name"],
            "max_speed": kind["max_speed"], "count_per_rot": COUNT_PER_ROT,
            "commands": " ".join(COMMANDS), "stop_actions": " ".join(STOP_ACTIONS),
            "command": "", "stop_action": "coast", "polarity": "normal",
            "position": 0, "speed": 0, "state": "", "duty_cycle": 0,
            "speed_pid/Kp": 1000, "speed_pid/Ki": 60, "speed_pid/Kd": 0,
            "hold_pid/Kp": 20000, "hold_pid/Ki": 0, "hold_pid/Kd": 0,
        }
        for attr in WRITTEN_NUMBERS:
            attrs[attr] = ""
        self.dir = DeviceDir(root, "tacho-motor", name, attrs)

    # -- reading what ev3dev2 wrote ------------------------------------------
    def encoder_deg(self):
        return self.shaft_deg + self.encoder_offset

    def _read_inputs(self):
        for attr in WRITTEN_NUMBERS:
            text = self.dir[attr].consume()
            if text is not None:
                self._sp[attr] = parse_int(text, self._sp[attr])
        text = self.dir["stop_action"].read()
        action = match_word(text, STOP_ACTIONS)
        if action is not None:
            self._stop_action = action
        if text != self._stop_action:
            self.dir["stop_action"].rewrite(self._stop_action)

    def _take_command(self):
        text = self.dir["command"].consume()
        if text is None:
            return
        self._read_inputs()
        command = match_word(text, COMMANDS)
        speed = abs(self._sp["speed_sp"])
        self._stuck_s = 0.0
        if command == "run-to-abs-pos":
            self._start_position_move(self._sp["position_sp"], speed)
        elif command == "run-to-rel-pos":
            self._start_position_move(self.encoder_deg() + self._sp["position_sp"], speed)
        elif command == "run-forever":
            self._mode = "forever"
            self._speed = float(self._sp["speed_sp"])
        elif command == "stop":
            self._halt()
        elif command == "reset":
            self._mode = None
            self.encoder_offset = -self.shaft_deg
            for attr in sorted(self._sp):
                self._sp[attr] = 0
            self._stop_action = "coast"
            self.dir["stop_action"].write("coast")
            self._state = ""

    def _start_position_move(self, target, speed):
        self._mode = "position"
        self._target = float(target)
        self._speed = float(speed)

    def _halt(self):
        self._mode = None
        self._state = "holding" if self._stop_action == "hold" else ""

    # -- physics --------------------------------------------------------------
    def _wanted_step(self, dt_s):
        """Degrees the controller tries to turn this tick (signed)."""
        if self._mode == "forever":
            return self._speed * dt_s
        if self._mode == "position":
            remaining = self._target - self.encoder_deg()
            step = min(abs(remaining), self._speed * dt_s)
            return step if remaining >= 0 else -step
        return 0.0

    def _clamp(self, shaft):
        if self.min_deg is not None and shaft < self.min_deg:
            return float(self.min_deg)
        if self.max_deg is not None and shaft > self.max_deg:
            return float(self.max_deg)
        return shaft

    def take_command(self):
        """Read a command ev3dev2 wrote since the last step (if any)."""
        self._take_command()

    def max_step_deg(self, dt_s):
        """The most this motor would turn in dt_s (to size the world's sub-steps)."""
        return abs(self._wanted_step(dt_s))

    def advance(self, dt_s):
        """Turn the shaft for dt_s simulated seconds; True if it moved."""
        if self._mode is None:
            return False
        step = self._wanted_step(dt_s)
        before = self.shaft_deg
        if not self.blocked:
            self.shaft_deg = self._clamp(before + step)
        moved = self.shaft_deg - before
        if self._mode == "position" and abs(self._target - self.encoder_deg()) < 1e-6:
            self._halt()
            return moved != 0.0
        if abs(moved) < abs(step) * 0.5:
            self._stuck_s += dt_s
        else:
            self._stuck_s = 0.0
        stalled = self._stuck_s >= STALL_AFTER_S
        self._state = "running stalled" if stalled else "running"
        return moved != 0.0

    def publish(self, speed_dps):
        """Write position, speed and state for ev3dev2 to read."""
        self._publish(speed_dps if self._mode is not None else 0.0)

    def _publish(self, speed_dps):
        self.dir["position"].write(int(round(self.encoder_deg())))
        self.dir["speed"].write(int(round(speed_dps)))
        self.dir["state"].write(self._state)

    def close(self):
        self.dir.close()
