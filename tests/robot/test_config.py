"""cubebot.robot.machine.config: defaults, overrides, validation before motion, atomic save."""

import json

import pytest

from cubebot.robot.machine.config import Config, load_config
from cubebot.robot.errors import ConfigError


def test_defaults_are_mindcub3r():
    cfg = Config()
    assert (cfg.flipper_port, cfg.table_port, cfg.arm_port) == ("outA", "outB", "outC")
    assert cfg.table_gear_ratio == 3 and cfg.table_quarter_deg() == 270
    assert (cfg.arm_centre_deg, cfg.arm_edge_deg, cfg.arm_corner_deg) == (-750, -660, -595)
    assert cfg.flipper_hold_deg == 85 and cfg.flipper_flip_deg == 190


def test_file_overrides(tmp_path):
    path = tmp_path / "robot.json"
    path.write_text(json.dumps({"table_speed_dps": 600, "settle_s": 0.1}))
    cfg = load_config(str(path))
    assert cfg.table_speed_dps == 600 and cfg.settle_s == 0.1
    assert cfg.flipper_speed_dps == Config().flipper_speed_dps


@pytest.mark.parametrize("overrides, words", [
    ({"arm_edge_deg": -900}, ["arm_edge_deg", "-820", "0"]),
    ({"table_speed_dps": 5000}, ["table_speed_dps", "1050"]),
    ({"flipper_hold_deg": "85"}, ["flipper_hold_deg", "integer"]),
    ({"flipper_hold_deg": None}, ["flipper_hold_deg", "missing"]),
    ({"arm_port": "outA"}, ["flipper_port", "arm_port"]),
    ({"color_port": "outB"}, ["color_port", "in1"]),
    ({"flipper_hold_deg": 200}, ["flipper_hold_deg", "flipper_flip_deg"]),
    ({"no_such_key": 1}, ["no_such_key"]),
])
def test_bad_settings_name_key_and_limit(overrides, words):
    with pytest.raises(ConfigError) as info:
        Config(**overrides)
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message


def test_bad_files(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        load_config(str(bad))
    bad.write_text("[1, 2]")
    with pytest.raises(ConfigError, match="JSON object"):
        load_config(str(bad))


def test_save_is_atomic_and_keeps_backup(tmp_path):
    path = str(tmp_path / "robot.json")
    Config(table_speed_dps=500).save(path)
    Config(table_speed_dps=700).save(path)
    assert load_config(path).table_speed_dps == 700
    assert load_config(path + ".bak").table_speed_dps == 500
    assert sorted(p.name for p in tmp_path.iterdir()) == ["robot.json", "robot.json.bak"]
