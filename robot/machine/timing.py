"""The time model: estimated seconds for each mechanism action.

Every motor move of D motor degrees at speed V deg/s takes

    D / V + settle_s

seconds: the cruise time plus one fixed `settle_s` that stands for ramping
up, ramping down, the motor's position hold settling and the command round
trip over sysfs (a trapezoid whose ramps are folded into a constant). See
`motor_seconds`. Each leg of a two-leg stroke (the flip's push out and
back, the twist's overshoot and return) settles, as
cubebot.robot.machine.mechanism moves the motors. A flip also waits
`flip_settle_s` between its legs while the tipped cube falls onto the
table: with it, a flip is the slowest quarter-turn action, as on the real
mechanism (docs/robot.md, "The time model and its basis").

The flipper has two resting states, AWAY (flipper_away_deg, clear of the cube)
and HOLD (flipper_hold_deg, pressing on the upper layers):
  rotate   needs AWAY: from HOLD the flipper is first released (HOLD -> AWAY).
           The table turns q quarters the short way: |table_quarters(q)| *
           90 cube degrees * table_gear_ratio motor degrees. Ends AWAY.
  twist    needs HOLD: from AWAY the flipper is first engaged (AWAY -> HOLD).
           The table turns the bottom layer the short way, plus
           table_overshoot_deg, then returns by the overshoot (two motor
           moves). Ends HOLD, so consecutive twists keep holding.
  flip     the flipper goes from where it is to flipper_flip_deg, waits
           flip_settle_s for the cube to land, and goes back to
           flipper_hold_deg (two motor moves). Ends HOLD.

All the seconds come from the configuration (`TimeModel.from_config`); the
simulated clock uses the same formulas through `motor_seconds`.
"""

from cubebot.robot.machine.actions import FLIP, ROTATE, TWIST, table_quarters

AWAY = "away"
HOLD = "hold"
FLIPPER_STATES = (AWAY, HOLD)

CUBE_DEGREES_PER_QUARTER = 90

# The config attributes the model reads.
CONFIG_FIELDS = (
    "table_gear_ratio", "table_speed_dps", "table_overshoot_deg",
    "flipper_speed_dps", "flipper_away_deg", "flipper_hold_deg", "flipper_flip_deg",
    "settle_s", "flip_settle_s",
)


def motor_seconds(degrees, speed_dps, settle_s):
    """Seconds for one motor move of `degrees` (either sign) at `speed_dps`.

    Cruise time plus a fixed settle_s for the ramps and the settling.
    """
    return abs(degrees) / float(speed_dps) + settle_s


class TimeModel(object):
    """Seconds per action, depending on the flipper state before it.

    rotate_s and twist_s are indexed by quarter turns (index 0 unused):
    rotate_s[q] is a free table turn y^q, twist_s[q] a held D^q.
    flip_s maps the flipper state before the flip to its seconds.
    engage_s: AWAY -> HOLD; release_s: HOLD -> AWAY.
    """

    def __init__(self, flip_s, rotate_s, twist_s, engage_s, release_s):
        self.flip_s = dict(flip_s)
        self.rotate_s = tuple(rotate_s)
        self.twist_s = tuple(twist_s)
        self.engage_s = engage_s
        self.release_s = release_s
        for name, value in sorted(self._values().items()):
            if not value >= 0:
                raise ValueError("time model {} = {!r}: seconds must be >= 0".format(name, value))

    def _values(self):
        values = {"engage_s": self.engage_s, "release_s": self.release_s}
        for state in FLIPPER_STATES:
            values["flip_s[" + state + "]"] = self.flip_s[state]
        for q in (1, 2, 3):
            values["rotate_s[%d]" % q] = self.rotate_s[q]
            values["twist_s[%d]" % q] = self.twist_s[q]
        return values

    def key(self):
        """A hashable summary of every number in the model."""
        return tuple(sorted(self._values().items()))

    def __eq__(self, other):
        return isinstance(other, TimeModel) and self.key() == other.key()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return "TimeModel(%s)" % ", ".join("%s=%.3f" % kv for kv in self.key())

    @classmethod
    def from_config(cls, config):
        """The model for a mechanism configuration (see CONFIG_FIELDS)."""
        ratio = config.table_gear_ratio
        table_v = config.table_speed_dps
        overshoot = config.table_overshoot_deg
        flip_v = config.flipper_speed_dps
        away, hold, flip_pos = config.flipper_away_deg, config.flipper_hold_deg, config.flipper_flip_deg
        settle = config.settle_s
        tumble = config.flip_settle_s
        quarter_deg = CUBE_DEGREES_PER_QUARTER * ratio

        def table(q):
            return abs(table_quarters(q)) * quarter_deg

        rotate_s = [0.0] + [motor_seconds(table(q), table_v, settle) for q in (1, 2, 3)]
        twist_s = [0.0] + [motor_seconds(table(q) + overshoot, table_v, settle)
                           + motor_seconds(overshoot, table_v, settle) for q in (1, 2, 3)]
        back = motor_seconds(flip_pos - hold, flip_v, settle) + tumble
        flip_s = {
            AWAY: motor_seconds(flip_pos - away, flip_v, settle) + back,
            HOLD: motor_seconds(flip_pos - hold, flip_v, settle) + back,
        }
        lift = motor_seconds(hold - away, flip_v, settle)
        return cls(flip_s, rotate_s, twist_s, engage_s=lift, release_s=lift)

    def action_seconds(self, action, flipper):
        """(seconds, flipper state after) for `action` from flipper state `flipper`."""
        kind, q = action
        if kind == FLIP:
            return self.flip_s[flipper], HOLD
        if kind == ROTATE:
            return self.rotate_s[q] + (self.release_s if flipper == HOLD else 0.0), AWAY
        if kind == TWIST:
            return self.twist_s[q] + (self.engage_s if flipper == AWAY else 0.0), HOLD
        raise ValueError("unknown action kind {!r}: use flip, rotate or twist".format(kind))

    def seconds(self, actions, flipper=AWAY):
        """(total seconds, flipper state after) for an action list."""
        total = 0.0
        for a in actions:
            s, flipper = self.action_seconds(a, flipper)
            total += s
        return total, flipper
