"""`cubebot calibrate`: check the mechanism's positions and make a colour profile.

With a *solved* cube on the table:
  1. homing: the flipper and the arm are run against their stops (as every
     run does);
  2. reach: the flipper goes to hold and flip (tipping the cube once) and
     away, the arm to every named
     position (park .. centre); each must get there without stalling and
     read back on its encoder within REACH_TOLERANCE_DEG;
  3. timing: the table turns the cube a quarter each way, the bottom layer
     is turned a quarter each way while held (the second, from hold, is
     timed), and the cube is flipped four times (all of which leave it as it
     was); each action is timed on the
     robot's clock and the time model's per-move constants are fitted to
     them: `settle_s` from the table turns (time less cruise time) and
     `flip_settle_s` from the flips (time less both strokes' cruise and
     settling). The report shows each action measured and as the fitted
     model predicts it (the held turns are the check: they are not fitted);
  4. colours: the cube is scanned (cubebot.robot.job.scan) and the colours engineer's
     `make_profile` turns the readings into a profile (the reference reading
     of each of the six colours: the white balance of this sensor under this
     light); the white reading's channel gains are reported;
  5. files: the profile and the configuration (with the fitted timing) are
     written atomically
     (temp file + os.replace) and the previous version of each is kept as
     `<file>.bak`.

`calibrate(mechanism, n, ...)` returns a Calibration with the checks and the
profile; `save(...)` writes the files.
"""

import os

from cubebot.robot.machine import orientation
from cubebot.robot.errors import RobotError

REACH_TOLERANCE_DEG = 5
TIMED_FLIPS = 4               # x^4: the cube ends as it started
FITTED_DIGITS = 3             # fitted seconds are rounded to milliseconds


class Step(object):
    """One line of the calibration report."""

    def __init__(self, ok, name, detail):
        self.ok = ok
        self.name = name
        self.detail = detail


class Calibration(object):
    def __init__(self):
        self.steps = []
        self.profile = None
        self.timing = {}          # fitted time-model settings: {"settle_s": s, "flip_settle_s": s}

    def add(self, ok, name, detail):
        self.steps.append(Step(ok, name, detail))

    @property
    def ok(self):
        return all(s.ok for s in self.steps) and self.profile is not None

    def report(self):
        lines = ["cubebot calibrate"]
        for s in self.steps:
            lines.append("  {:<4}  {:<14}  {}".format("ok" if s.ok else "FAIL", s.name, s.detail))
        lines.append("result: {}".format("ok" if self.ok else "FAULT"))
        return "\n".join(lines) + "\n"


def _home(mech, cal):
    try:
        mech.home()
    except RobotError as exc:
        cal.add(False, "homing", str(exc))
        return False
    cal.add(True, "homing", "flipper and arm found their end stops (encoders zeroed there)")
    return True


def _reach(mech, cal):
    cfg = mech.config
    hw = mech.hw
    targets = [(hw.flipper, cfg.flipper_speed_dps, name, getattr(cfg, name))
               for name in ("flipper_hold_deg", "flipper_flip_deg", "flipper_away_deg")]
    arm = cfg.arm_positions_deg()
    order = sorted(arm, key=lambda k: -arm[k])            # park outwards to centre
    targets += [(hw.arm, cfg.arm_speed_dps, "arm " + k, arm[k]) for k in order]
    targets.append((hw.arm, cfg.arm_speed_dps, "arm park", cfg.arm_park_deg))
    for motor, speed, label, goal in targets:
        try:
            motor.run_to_position(goal, speed, cfg.move_timeout_s)
            got = motor.position_deg()
            good = abs(got - goal) <= REACH_TOLERANCE_DEG
            cal.add(good, "reach", "{} {} deg: at {} deg".format(label, goal, got))
        except RobotError as exc:
            cal.add(False, "reach", "{} {} deg: {}".format(label, goal, exc))
            mech.release()
            return False
    return True


def _timed(mech, action):
    """Seconds that `action()` takes on the robot's clock."""
    t0 = mech.now_s()
    action()
    return mech.now_s() - t0


def _clamp_s(seconds):
    """A fitted setting within its config range (0..2 s), in milliseconds."""
    return round(min(2.0, max(0.0, seconds)), FITTED_DIGITS)


def _time_moves(mech, cal):
    """Time table turns, held turns and flips; fit settle_s and flip_settle_s (cal.timing)."""
    from cubebot.robot.machine.timing import HOLD, TimeModel
    cfg = mech.config
    try:
        table = [_timed(mech, lambda q=q: mech.turn_table(q)) for q in (1, -1)]
        mech.turn_bottom(1)                      # engages the flipper: not timed
        held = [_timed(mech, lambda: mech.turn_bottom(-1))]
        flips = [_timed(mech, mech.flip) for _ in range(TIMED_FLIPS)]     # each from hold
    except RobotError as exc:
        cal.add(False, "timing", str(exc))
        mech.release()
        return False
    quarter = cfg.table_quarter_deg()
    settle = _clamp_s(sum(table) / len(table) - quarter / float(cfg.table_speed_dps))
    stroke = cfg.flipper_flip_deg - cfg.flipper_hold_deg
    tumble = _clamp_s(sum(flips) / len(flips) - 2 * (stroke / float(cfg.flipper_speed_dps) + settle))
    cal.timing = {"settle_s": settle, "flip_settle_s": tumble}
    fitted = dict(cfg.as_dict(), **cal.timing)
    model = TimeModel.from_config(type(cfg)(**fitted))
    rows = (("table quarter", table, model.rotate_s[1]), ("held quarter", held, model.twist_s[1]),
            ("flip from hold", flips, model.flip_s[HOLD]))
    for name, measured, predicted in rows:
        cal.add(True, "timing", "{}: {:.3f} s measured, {:.3f} s in the fitted model".format(
            name, sum(measured) / len(measured), predicted))
    cal.add(True, "timing", "fitted settle_s = {} s, flip_settle_s = {} s".format(settle, tumble))
    return True


def _white_balance(profile):
    """Channel gains that make the white reference (the brightest colour) grey."""
    white = max(profile["facelets"], key=sum)
    top = max(white)
    return [round(top / float(v), 2) if v else 0.0 for v in white], white


def calibrate(mechanism, n, make_profile=None, emit=None, stop=None):
    """Run the checks and the scan; see the module docstring."""
    from cubebot.robot.job.scan import Scanner
    if make_profile is None:
        from cubebot.robot.colour.calibration import make_profile
    cal = Calibration()
    mech = mechanism
    try:
        if not _home(mech, cal) or not _reach(mech, cal) or not _time_moves(mech, cal):
            return cal
        # The reach check took the flipper to flip and back: the cube lies
        # tipped once (x), which the scan must know to read it in its own frame.
        scanner = Scanner(mech, n, emit=emit, stop=stop, where=orientation.rotate(orientation.IDENTITY, "x"))
        scanner.read_facelets()
        mech.move_arm_named("park")
        try:
            cal.profile = make_profile(scanner.readings, n)
        except (RobotError, ValueError) as exc:
            cal.add(False, "colours", str(exc))
            return cal
        gains, white = _white_balance(cal.profile)
        cal.add(True, "colours", "{0}x{0}x{0} scanned: white reads ({1:.0f}, {2:.0f}, {3:.0f}), "
                "gains r/g/b {4}".format(n, white[0], white[1], white[2], "/".join(str(g) for g in gains)))
    finally:
        mech.release()
    return cal


def save(cal, config, config_path, profile_path, save_profile=None):
    """Write the profile and the configuration with the fitted timing (atomically; old ones
    kept as .bak)."""
    if save_profile is None:
        from cubebot.robot.colour.profile import save_profile
    for path in (config_path, profile_path):
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            os.makedirs(folder)
    from cubebot.solver.tables import keep_backup
    keep_backup(profile_path)
    save_profile(cal.profile, profile_path)
    type(config)(**dict(config.as_dict(), **cal.timing)).save(config_path)
