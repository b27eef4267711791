"""cubebot calibrate on the simulation (and its failure paths)."""

import json

from cubebot.robot.tools import calibrate
from cubebot.robot.job.robots import open_backend
from cubebot.robot.cli.main import main
from cubebot.robot.machine.config import Config
from cubebot.robot.errors import ConfigError
from cubebot.robot.machine.mechanism import Mechanism
from cubebot.solver.facelets import solved


def test_calibrate_on_the_sim_writes_profile_and_config_keeping_the_old_ones(tmp_path, capsys):
    (tmp_path / "config.json").write_text('{"settle_s": 0.05}\n')
    (tmp_path / "profile.json").write_text("old profile\n")
    code = main(["calibrate", "--sim", "--config", str(tmp_path / "config.json"),
                 "--profile", str(tmp_path / "profile.json")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "result: ok" in out and "white reads" in out
    profile = json.loads((tmp_path / "profile.json").read_text())
    assert profile["format"] == "cubebot-colour-profile" and profile["size"] == 3
    # The reach check tips the cube once; the profile is still in the cube's own
    # frame: class U (white on the simulated cube) is the brightest reading.
    refs = dict(zip(profile["classes"], profile["facelets"]))
    assert max(refs, key=lambda k: sum(refs[k])) == "U"
    assert refs["F"][1] > 2 * refs["F"][0]          # green
    assert (tmp_path / "profile.json.bak").read_text() == "old profile\n"
    assert json.loads((tmp_path / "config.json").read_text())["settle_s"] == 0.05
    assert (tmp_path / "config.json.bak").exists()
    assert Config.load(str(tmp_path / "config.json")).settle_s == 0.05
    assert "fitted settle_s = 0.05 s, flip_settle_s = {} s".format(Config().flip_settle_s) in out


def test_calibrate_fits_the_time_model_to_the_timed_moves():
    """A robot whose flips take longer (the cube tumbles 0.4 s) and whose moves settle 0.12 s:
    calibration times its moves and recovers both constants from the robot's clock."""
    robot = Config(settle_s=0.12, flip_settle_s=0.4)
    with open_backend("sim", robot, state=solved(3)) as opened:
        mech = Mechanism(opened.hw, robot)
        mech.home()
        cal = calibrate.Calibration()
        assert calibrate._time_moves(mech, cal)
    assert cal.timing == {"settle_s": 0.12, "flip_settle_s": 0.4}
    assert opened.world.is_solved() and opened.world.where == "URFDLB"


def _not_solved(readings, n):
    raise ConfigError("calibration scan is not a solved cube: faces R show several colours")


def test_a_scrambled_cube_writes_nothing():
    config = Config()
    with open_backend("sim", config, state=solved(3)) as opened:
        cal = calibrate.calibrate(Mechanism(opened.hw, config), 3, make_profile=_not_solved)
    assert not cal.ok
    assert "not a solved cube" in cal.report()
    assert [s.name for s in cal.steps if s.ok][:1] == ["homing"]
    reach = [s for s in cal.steps if s.name == "reach"]
    assert len(reach) == 3 + len(config.arm_positions_deg()) + 1 and all(s.ok for s in reach)


def test_a_jammed_flipper_fails_the_reach_check():
    config = Config()
    class JamsAfterHoming(Mechanism):
        def home(self):
            Mechanism.home(self)
            self.hw.flipper.jam_after_deg(20)

    with open_backend("sim", config, state=solved(3)) as opened:
        cal = calibrate.calibrate(JamsAfterHoming(opened.hw, config), 3, make_profile=_not_solved)
    failed = [s for s in cal.steps if not s.ok]
    assert len(failed) == 1 and failed[0].name == "reach", cal.report()
    assert "flipper_hold_deg" in failed[0].detail and "flipper" in failed[0].detail
    assert cal.profile is None and not cal.ok
