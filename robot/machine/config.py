"""The mechanism's numbers: ports, gearing, speeds, positions, settle times.

Positions are those of David Gilday's MINDCUB3R as used by the ev3dev port;
speeds and settling times are chosen within what the EV3 motors hold under
load, and the time model's basis is in docs/robot.md ("The time model and
its basis"); `cubebot calibrate` measures them on a real robot. Units are in the names: `_deg` motor degrees (encoder
counts; the table is geared, `table_gear_ratio` motor degrees per cube
degree), `_dps` motor degrees per second, `_s` seconds, `_cm` centimetres.

Conventions (robot frame, see cubebot.robot.machine.orientation):
  flipper  0 = away (homed against its stop by running at
           `homing_flipper_speed_dps` until it stalls); positive towards the
           cube: `flipper_hold_deg` presses the upper layers,
           `flipper_flip_deg` pushes the cube over.
  table    positive motor degrees turn the table clockwise seen from above.
  arm      0 = parked against its stop (homed at `homing_arm_speed_dps`);
           negative towards the cube's centre: corner, edge, centre.

`Config.load(path)` reads a JSON object (UTF-8) whose keys override the
defaults; every value is checked (type, finite, range: one schema, SETTINGS)
before any motor moves, and a bad one (NaN, Infinity, 1e400, a string, ...)
raises ConfigError naming the key and its limits. `Config.save(path)`
writes atomically and keeps the previous file as `path + ".bak"`.
"""

import json

from cubebot.robot.errors import ConfigError
from cubebot.robot.inputs import BadValue, decode, number, parse_json, read_bytes, short

SIZES = (2, 3)                # the cube sizes the MINDCUB3R turns (the arm and tray fit these)
LARGE_MOTOR_MAX_DPS = 1050
MEDIUM_MOTOR_MAX_DPS = 1560
FLIPPER_RANGE_DEG = (0, 230)       # the flipper's travel between its stops
ARM_RANGE_DEG = (-820, 0)          # the sensor arm's travel between its stops
N_ROTATIONS = 24                   # whole-cube rotations
N_VIEWS = 2 * N_ROTATIONS          # views of cubebot.robot.plan.choose: each rotation, of the cube and its inverse
MAX_SEARCH_SLACK = 4               # moves over the solver's length the 3x3x3 candidates may have
MAX_SEARCH_NODES = 10 ** 8         # the two-phase candidate search's node budget (0: no search)
MAX_PLANNED_CANDIDATES = 10000     # candidates planned exactly, after the flip bound's ranking
INPUT_PORTS = ("in1", "in2", "in3", "in4")
OUTPUT_PORTS = ("outA", "outB", "outC", "outD")

# key: (default, type, low, high). type "port_in"/"port_out" are names.
# Ranges are inclusive; None means unbounded.
SETTINGS = [
    ("flipper_port", "outA", "port_out", None, None),
    ("table_port", "outB", "port_out", None, None),
    ("arm_port", "outC", "port_out", None, None),
    ("color_port", "in3", "port_in", None, None),
    ("proximity_port", "in4", "port_in", None, None),
    ("table_gear_ratio", 3, int, 1, 12),
    ("table_speed_dps", 750, int, 50, LARGE_MOTOR_MAX_DPS),
    ("table_overshoot_deg", 18, int, 0, 60),
    ("scan_table_speed_dps", 750, int, 50, LARGE_MOTOR_MAX_DPS),
    ("flipper_speed_dps", 600, int, 50, LARGE_MOTOR_MAX_DPS),
    ("flipper_away_deg", 0, int, FLIPPER_RANGE_DEG[0], FLIPPER_RANGE_DEG[1]),
    ("flipper_hold_deg", 85, int, FLIPPER_RANGE_DEG[0], FLIPPER_RANGE_DEG[1]),
    ("flipper_flip_deg", 190, int, FLIPPER_RANGE_DEG[0], FLIPPER_RANGE_DEG[1]),
    ("arm_speed_dps", 1000, int, 50, MEDIUM_MOTOR_MAX_DPS),
    ("arm_park_deg", 0, int, ARM_RANGE_DEG[0], ARM_RANGE_DEG[1]),
    ("arm_centre_deg", -750, int, ARM_RANGE_DEG[0], ARM_RANGE_DEG[1]),
    ("arm_edge_deg", -660, int, ARM_RANGE_DEG[0], ARM_RANGE_DEG[1]),
    ("arm_corner_deg", -595, int, ARM_RANGE_DEG[0], ARM_RANGE_DEG[1]),
    ("arm_corner_2x2_deg", -650, int, ARM_RANGE_DEG[0], ARM_RANGE_DEG[1]),
    ("arm_half_deg", -400, int, ARM_RANGE_DEG[0], ARM_RANGE_DEG[1]),
    ("settle_s", 0.05, float, 0.0, 2.0),
    ("flip_settle_s", 0.15, float, 0.0, 2.0),
    ("homing_flipper_speed_dps", -50, int, -LARGE_MOTOR_MAX_DPS, -1),
    ("homing_arm_speed_dps", 500, int, 1, MEDIUM_MOTOR_MAX_DPS),
    ("homing_timeout_s", 10.0, float, 0.5, 60.0),
    ("move_timeout_s", 5.0, float, 0.1, 60.0),
    ("samples_per_facelet", 2, int, 1, 10),
    ("max_rescans", 2, int, 0, 10),
    ("max_retries", 2, int, 0, 10),
    ("solution_views_2x2", N_VIEWS, int, 1, N_VIEWS),
    ("solution_views_3x3", 1, int, 1, N_VIEWS),
    ("search_slack_3x3", 0, int, 0, MAX_SEARCH_SLACK),
    ("search_nodes_3x3", 300000, int, 0, MAX_SEARCH_NODES),
    ("planned_candidates_3x3", 24, int, 1, MAX_PLANNED_CANDIDATES),
    ("cube_present_cm", 8.0, float, 1.0, 100.0),
]

KEYS = [s[0] for s in SETTINGS]
_TYPE_NAMES = {int: "an integer", float: "a number", "port_in": "an input port",
               "port_out": "an output port"}


def _check(key, value, kind, low, high):
    """The value converted to its kind; ConfigError if it does not fit."""
    if value is None:
        raise ConfigError("setting {} is missing: give {}{}".format(
            key, _TYPE_NAMES[kind], "" if low is None else " between {} and {}".format(low, high)))
    if kind in ("port_in", "port_out"):
        allowed = INPUT_PORTS if kind == "port_in" else OUTPUT_PORTS
        if not isinstance(value, str) or value not in allowed:
            raise ConfigError("setting {} = {}: must be one of {}".format(
                key, short(value), ", ".join(allowed)))
        return value
    try:
        return number(value, low, high, integer=kind is int)
    except BadValue:
        raise ConfigError("setting {} = {}: must be {}{}".format(
            key, _shown(value), "a finite number" if kind is float else _TYPE_NAMES[kind],
            "" if low is None else " between {} and {}".format(low, high)))


def _shown(value):
    """A bad value as JSON would spell it (NaN, Infinity), cut short."""
    if isinstance(value, float) and value != value:
        return "NaN"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return short(value)


class Config(object):
    """The validated settings; each is an attribute named as its key."""

    def __init__(self, **overrides):
        unknown = sorted(set(overrides) - set(KEYS))
        if unknown:
            raise ConfigError("unknown setting {}: known settings are {}".format(
                short(unknown[0]), ", ".join(KEYS)))
        for key, default, kind, low, high in SETTINGS:
            value = overrides.get(key, default)
            setattr(self, key, _check(key, value, kind, low, high))
        self._check_relations()

    def _check_relations(self):
        """Positions must be in the order the mechanism relies on."""
        order = [("flipper_away_deg", "flipper_hold_deg"), ("flipper_hold_deg", "flipper_flip_deg"),
                 ("arm_centre_deg", "arm_edge_deg"), ("arm_edge_deg", "arm_corner_deg"),
                 ("arm_corner_deg", "arm_half_deg"), ("arm_half_deg", "arm_park_deg")]
        for low_key, high_key in order:
            if getattr(self, low_key) >= getattr(self, high_key):
                raise ConfigError("setting {} = {}: must be below {} = {}".format(
                    low_key, getattr(self, low_key), high_key, getattr(self, high_key)))
        if not self.arm_edge_deg < self.arm_corner_2x2_deg < self.arm_corner_deg:
            raise ConfigError("setting arm_corner_2x2_deg = {}: must be between arm_edge_deg = {} "
                              "and arm_corner_deg = {}".format(self.arm_corner_2x2_deg,
                                                               self.arm_edge_deg, self.arm_corner_deg))
        ports = [self.flipper_port, self.table_port, self.arm_port]
        if len(set(ports)) != len(ports):
            raise ConfigError("settings flipper_port, table_port, arm_port = {}: must be three "
                              "different ports".format(", ".join(ports)))
        if self.color_port == self.proximity_port:
            raise ConfigError("settings color_port and proximity_port = {}: must differ".format(
                self.color_port))

    def as_dict(self):
        """Every setting as a plain dict."""
        return dict((key, getattr(self, key)) for key in KEYS)

    def table_quarter_deg(self):
        """Motor degrees of one quarter turn of the table."""
        return 90 * self.table_gear_ratio

    def arm_positions_deg(self):
        """The named arm positions: name -> motor degrees."""
        return {"park": self.arm_park_deg, "half": self.arm_half_deg,
                "corner": self.arm_corner_deg, "corner_2x2": self.arm_corner_2x2_deg,
                "edge": self.arm_edge_deg, "centre": self.arm_centre_deg}

    @classmethod
    def from_dict(cls, data, source="config"):
        """A Config from a dict of overrides; ConfigError if it is not one."""
        if not isinstance(data, dict):
            raise ConfigError("{}: must be a JSON object of settings, not {}".format(
                source, type(data).__name__))
        return cls(**data)

    @classmethod
    def load(cls, path):
        """A Config from a JSON file of overrides (UTF-8, at most MAX_TEXT_BYTES); ConfigError
        naming the file or the setting if it is missing, unreadable or wrong."""
        source = "config file " + path
        try:
            text = decode(read_bytes(path, "config file"), source)
        except BadValue as exc:
            raise ConfigError(str(exc))
        return cls.from_dict(parse_json(text, source), source=source)

    def save(self, path):
        """Write every setting to `path` atomically; keep the old file as .bak."""
        from cubebot.solver.tables import write_text_atomic
        text = json.dumps(self.as_dict(), indent=2, sort_keys=True) + "\n"
        write_text_atomic(path, text, backup=True)


def load_config(path=None):
    """The defaults, or the defaults overridden by the JSON file at `path`."""
    if path is None:
        return Config()
    return Config.load(path)
