"""The MINDCUB3R mechanism on top of a Hardware backend and a Config.

Robot-frame actions (see cubebot.robot.machine.orientation and docs/architecture.md):
  flip()                   x: the flipper pushes the cube over (back face down)
  turn_table(q)            y^q: the table turns q quarter turns clockwise
                           seen from above, the cube free
  turn_bottom(q)           D^q: the flipper holds the upper layers and the
                           table turns the bottom layer (clockwise seen from
                           below for q > 0), overshooting and settling back
  rotate_table_deg(d)      the table (cube free) by d cube degrees (scanning)
  move_arm_to(deg) / move_arm_named(name), read_rgb(), release(), home()

The flipper rests where the last action left it (hold after a flip or a
held turn) and is moved away only when the table must turn the whole cube:
this saves a flipper stroke between consecutive held turns and flips.
Table targets are kept in absolute motor degrees so that errors never add up.
Every move waits for the motor and then `settle_s`, as cubebot.robot.machine.timing's model
assumes, so the simulated clock and the planner's estimates agree.
"""

from cubebot.robot.errors import RobotError


class Mechanism(object):
    """Drives flipper, table and arm; counts what it did (`counts`)."""

    def __init__(self, hardware, config):
        self.hw = hardware
        self.config = config
        self.homed = False
        self._table_target_deg = 0
        self.counts = {"flip": 0, "rotate": 0, "twist": 0}

    # -- helpers ----------------------------------------------------------
    def _settle(self):
        if self.config.settle_s:
            self.hw.clock.sleep_s(self.config.settle_s)

    def _move(self, motor, position_deg, speed_dps, settle=True):
        motor.run_to_position(position_deg, speed_dps, self.config.move_timeout_s)
        if settle:
            self._settle()

    def _check_homed(self):
        if not self.homed:
            raise RobotError("the mechanism is not homed: call home() before moving the cube")

    def _flipper_to(self, position_deg):
        if self.hw.flipper.position_deg() != position_deg:
            self._move(self.hw.flipper, position_deg, self.config.flipper_speed_dps)

    def _table_by(self, motor_deg, settle=True):
        self._table_target_deg += motor_deg
        self._move(self.hw.table, self._table_target_deg, self.config.table_speed_dps, settle)

    # -- homing -----------------------------------------------------------
    def home(self):
        """Home the flipper and the arm against their stops; zero the table."""
        cfg = self.config
        self.hw.flipper.run_until_stalled(cfg.homing_flipper_speed_dps, cfg.homing_timeout_s)
        self.hw.flipper.reset_position(0)
        self.hw.flipper.stop(hold=True)
        self.hw.arm.run_until_stalled(cfg.homing_arm_speed_dps, cfg.homing_timeout_s)
        self.hw.arm.reset_position(0)
        self.hw.arm.stop(hold=True)
        self._table_target_deg = self.hw.table.position_deg()
        self.homed = True
        self._flipper_to(cfg.flipper_away_deg)
        self._move(self.hw.arm, cfg.arm_park_deg, cfg.arm_speed_dps)

    # -- actions ----------------------------------------------------------
    def flip(self):
        """Tilt the cube a quarter turn (x); the flipper ends at hold."""
        self._check_homed()
        self._clear_arm()
        cfg = self.config
        self._move(self.hw.flipper, cfg.flipper_flip_deg, cfg.flipper_speed_dps)
        if cfg.flip_settle_s:
            self.hw.clock.sleep_s(cfg.flip_settle_s)      # the tipped cube falls onto the table
        self._move(self.hw.flipper, cfg.flipper_hold_deg, cfg.flipper_speed_dps)
        self.counts["flip"] += 1

    def turn_table(self, quarter_turns):
        """Turn the whole cube q quarter turns clockwise seen from above (y^q)."""
        self._check_homed()
        turns = _shortest(quarter_turns)
        if not turns:
            return
        self._flipper_to(self.config.flipper_away_deg)
        self._table_by(turns * self.config.table_quarter_deg())
        self.counts["rotate"] += 1

    def turn_bottom(self, quarter_turns):
        """Turn the bottom layer q quarter turns like D, the upper layers held."""
        self._check_homed()
        turns = _shortest(quarter_turns)
        if not turns:
            return
        self._clear_arm()
        self._flipper_to(self.config.flipper_hold_deg)
        # D is clockwise seen from below = anticlockwise seen from above.
        motor_deg = -turns * self.config.table_quarter_deg()
        overshoot = self.config.table_overshoot_deg * (1 if motor_deg > 0 else -1)
        if overshoot:
            self._table_by(motor_deg + overshoot)
            self._table_by(-overshoot)
        else:
            self._table_by(motor_deg)
        self.counts["twist"] += 1

    def rotate_table_deg(self, cube_deg, settle=True):
        """Turn the table (cube free) by `cube_deg` cube degrees (any amount)."""
        self._check_homed()
        self._flipper_to(self.config.flipper_away_deg)
        self._table_by(int(round(cube_deg * self.config.table_gear_ratio)), settle)

    def start_table_by_deg(self, cube_deg, speed_dps):
        """Start turning the table (cube free) by `cube_deg`; return at once."""
        self._check_homed()
        self._flipper_to(self.config.flipper_away_deg)
        self._table_target_deg += int(round(cube_deg * self.config.table_gear_ratio))
        self.hw.table.start_to_position(self._table_target_deg, speed_dps)

    def table_position_cube_deg(self):
        """The table's encoder now, in cube degrees since homing."""
        return self.hw.table.position_deg() / float(self.config.table_gear_ratio)

    def table_is_moving(self):
        return self.hw.table.is_moving()

    def wait_table(self):
        """Wait for a move started by start_table_by_deg, then settle."""
        self.hw.table.wait_until_stopped(self.config.move_timeout_s)
        self._settle()

    def sleep_s(self, seconds):
        self.hw.clock.sleep_s(seconds)

    def table_cube_deg(self):
        """The table's commanded angle in cube degrees since homing."""
        return self._table_target_deg / float(self.config.table_gear_ratio)

    # -- the sensor arm ---------------------------------------------------
    def move_arm_to(self, position_deg, settle=True):
        self._check_homed()
        if self.hw.arm.position_deg() != position_deg:
            self._move(self.hw.arm, position_deg, self.config.arm_speed_dps, settle)

    def move_arm_named(self, name, settle=True):
        """Move the arm to "park", "half", "corner", "corner_2x2", "edge" or "centre"."""
        positions = self.config.arm_positions_deg()
        if name not in positions:
            raise RobotError("unknown arm position {!r}: use one of {}".format(
                name, ", ".join(sorted(positions))))
        self.move_arm_to(positions[name], settle)

    def start_arm_to(self, position_deg):
        """Start the arm towards a position without waiting (overlaps a table move)."""
        self.hw.arm.start_to_position(position_deg, self.config.arm_speed_dps)

    def wait_arm(self):
        self.hw.arm.wait_until_stopped(self.config.move_timeout_s)

    def arm_in_and_release(self, arm_position_deg):
        """Move the arm over the cube while the flipper goes away (both at once)."""
        self._check_homed()
        cfg = self.config
        moving = []
        if self.hw.flipper.position_deg() != cfg.flipper_away_deg:
            self.hw.flipper.start_to_position(cfg.flipper_away_deg, cfg.flipper_speed_dps)
            moving.append(self.hw.flipper)
        if self.hw.arm.position_deg() != arm_position_deg:
            self.hw.arm.start_to_position(arm_position_deg, cfg.arm_speed_dps)
            moving.append(self.hw.arm)
        for motor in moving:
            motor.wait_until_stopped(cfg.move_timeout_s)
        if moving:
            self._settle()

    def _clear_arm(self):
        """The arm must be clear of the flipper's stroke: at most half-way in."""
        if self.hw.arm.position_deg() < self.config.arm_half_deg:
            self.move_arm_to(self.config.arm_half_deg, settle=False)

    def read_rgb(self):
        return self.hw.color.read_rgb_raw()

    def cube_present(self):
        """True if the proximity sensor sees a cube (True if there is no sensor)."""
        if self.hw.proximity is None:
            return True
        return self.hw.proximity.read_distance_cm() <= self.config.cube_present_cm

    # -- safety -----------------------------------------------------------
    def release(self):
        """Leave the cube free: flipper away, motors stopped. Best effort."""
        try:
            if self.homed:
                self._flipper_to(self.config.flipper_away_deg)
        except RobotError:
            pass                # a jammed flipper: stopping it is all we can do
        finally:
            for motor in self.hw.motors():
                motor.stop(hold=False)

    def now_s(self):
        return self.hw.clock.now_s()


def _shortest(quarter_turns):
    """q mod 4 as -1, 0, 1 or 2 (the shortest way round)."""
    q = quarter_turns % 4
    return q - 4 if q == 3 else q
