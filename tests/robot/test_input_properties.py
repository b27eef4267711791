"""Property tests for every loader on the robot side: any input gives a result or one
project error (ConfigError, MalformedScan, BadValue, FrameError, a protocol reply), never
another exception. Example budgets come from the "ci" profile (tests/conftest.py).

Covered: scan JSON in every accepted layout (the de-facto facelet object, the
cubebot-scan format with one or several samples per facelet), config (dicts and raw
file bytes), batch lines, link frames and requests, and the argparse number rules.
"""

import json

import pytest
from hypothesis import given, settings, strategies as st

from cubebot.robot import inputs
from cubebot.robot.machine.config import SETTINGS, Config
from cubebot.robot.errors import ConfigError, FrameError
from cubebot.robot.link import framing
from cubebot.robot.link.protocol import (
    BAD_FRAME,
    BAD_REQUEST,
    BUSY,
    FAILED,
    INVALID_CUBE,
    UNKNOWN_COMMAND,
    UNSOLVABLE,
    Dispatcher,
)
from cubebot.robot.colour.scanfile import MAX_READING, FORMAT, MalformedScan, parse_scan

from .link.fake_service import FakeService

# JSON-ish values, hostile numbers included
HOSTILE_NUMBERS = st.one_of(
    st.integers(), st.integers(min_value=10 ** 300, max_value=10 ** 400),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([1e300, -0.0, 5e-324, 2 ** 53 + 1]))
SCALARS = st.one_of(st.none(), st.booleans(), HOSTILE_NUMBERS, st.text(max_size=12))
JSONISH = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)), max_leaves=20)
READING = st.one_of(
    st.lists(st.one_of(st.integers(0, 1100), st.floats(0, 300)), min_size=3, max_size=3),
    st.lists(HOSTILE_NUMBERS, min_size=0, max_size=4), JSONISH)


def _one_line(exc):
    text = str(exc)
    assert text and "\n" not in text, repr(text)
    return text


def _parse(text, size=None):
    try:
        readings, n = parse_scan(text, size)
    except MalformedScan as exc:
        _one_line(exc)
        return None
    assert len(readings) == 6 * n * n
    for samples in readings:
        assert samples and all(len(s) == 3 and all(0 <= c <= MAX_READING for c in s) for s in samples)
    return readings, n


@settings(max_examples=50)
@given(st.sampled_from([2, 3]), st.data())
def test_defacto_scans_parse_or_raise_one_malformed_scan(n, data):
    count = 6 * n * n
    keys = [str(k) for k in range(1, count + 1)]
    obj = dict((k, data.draw(READING)) for k in keys)
    if data.draw(st.booleans()):
        obj.pop(data.draw(st.sampled_from(keys)))
    if data.draw(st.booleans()):
        obj[data.draw(st.text(max_size=6))] = data.draw(READING)
    size = data.draw(st.one_of(st.none(), st.integers(-5, 10 ** 7)))
    _parse(json.dumps(obj), size)


@settings(max_examples=50)
@given(st.data())
def test_own_format_scans_parse_or_raise_one_malformed_scan(data):
    n = data.draw(st.one_of(st.integers(2, 3), JSONISH))
    count = 6 * n * n if isinstance(n, int) and not isinstance(n, bool) and 2 <= n <= 3 else 24
    sample = st.one_of(READING, st.lists(READING, min_size=1, max_size=3))
    readings = data.draw(st.one_of(st.lists(sample, min_size=count, max_size=count), JSONISH))
    obj = {"format": FORMAT, "version": data.draw(st.one_of(st.just(1), JSONISH)), "size": n,
           "readings": readings}
    if data.draw(st.booleans()):
        obj["order"] = data.draw(st.one_of(st.just("URFDLB"), st.text(max_size=6)))
    _parse(json.dumps(obj))


@given(st.one_of(st.text(max_size=300), JSONISH.map(json.dumps),
                 st.binary(max_size=200).map(lambda b: b.decode("latin-1"))))
def test_any_text_as_a_scan_parses_or_raises_one_malformed_scan(text):
    _parse(text)


@settings(max_examples=10)
@given(st.data())
def test_parsed_scans_resolve_or_raise_scan_unresolved(data):
    from cubebot.robot.colour.resolve import resolve
    from cubebot.robot.errors import ScanUnresolved
    value = st.one_of(st.integers(0, int(MAX_READING)), st.floats(0, MAX_READING), st.sampled_from([0, MAX_READING]))
    obj = dict((str(k), data.draw(st.lists(value, min_size=3, max_size=3))) for k in range(1, 25))
    readings, n = _parse(json.dumps(obj))
    try:
        result = resolve(readings, n)
    except ScanUnresolved as exc:
        _one_line(exc)
        return
    assert len(result.state) == 24


@given(st.dictionaries(st.sampled_from([s[0] for s in SETTINGS] + ["zz"]), JSONISH, max_size=4))
def test_any_config_dict_is_a_config_or_one_config_error(overrides):
    try:
        config = Config.from_dict(overrides)
    except ConfigError as exc:
        _one_line(exc)
        return
    for key, _, _kind, low, high in SETTINGS:
        value = getattr(config, key)
        if low is not None:
            assert low <= value <= high and value == value      # finite, in range (NaN fails ==)


@given(st.one_of(st.binary(max_size=300), JSONISH.map(lambda v: json.dumps(v).encode("utf-16")),
                 st.dictionaries(st.sampled_from([s[0] for s in SETTINGS]), JSONISH, max_size=3).map(
                     lambda d: json.dumps(d).encode("utf-8")),
                 st.sampled_from([b'{"settle_s": NaN}', b'{"table_speed_dps": 1e400}',
                                  b'{"settle_s": Infinity}', b'\xef\xbb\xbf{"settle_s": 0.1}',
                                  b'{"max_rescans": ' + b"9" * 400 + b"}", b"[" * 100000])))
def test_any_config_file_is_a_config_or_one_config_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("config") / "config.json"
    path.write_bytes(data)
    try:
        Config.load(str(path))
    except ConfigError as exc:
        _one_line(exc)


@given(st.lists(st.one_of(st.binary(max_size=80), st.text(max_size=80).map(lambda t: t.encode("utf-8")),
                          st.sampled_from([b"# a comment\n", b"\n", b"UUUURRRRFFFFDDDDLLLLBBBB\n",
                                           b"x" * 5000, b"\xff\xfe"])), max_size=8))
def test_any_batch_lines_give_states_or_one_bad_value(lines):
    from cubebot.robot.cli.solve import MAX_LINE_BYTES, batch_states
    try:
        states = list(batch_states(lines, "FILE"))
    except inputs.BadValue as exc:
        assert "batch FILE line " in _one_line(exc)
        return
    for _number, state in states:
        assert state and not state.startswith("#") and state == state.strip()
        assert len(state.encode("utf-8")) <= MAX_LINE_BYTES


@given(st.one_of(st.binary(max_size=200), JSONISH.map(lambda v: json.dumps(v).encode("utf-8")),
                 st.sampled_from([b"[" * 50000, b'{"id": 1, "cmd": "ping"}', b"\xc3"])))
def test_any_frame_decodes_to_a_message_or_one_frame_error(line):
    try:
        message = framing.decode(line)
    except FrameError as exc:
        _one_line(exc)
        return
    assert isinstance(message, dict)


KNOWN_CODES = (BAD_FRAME, BAD_REQUEST, UNKNOWN_COMMAND, INVALID_CUBE, UNSOLVABLE, BUSY, FAILED)
COMMANDS = st.sampled_from(["ping", "hello", "status", "run", "scan", "solve", "stop", "last_scan", "reboot"])


@given(st.one_of(
    st.fixed_dictionaries({"id": st.one_of(st.integers(), JSONISH), "cmd": st.one_of(COMMANDS, JSONISH)},
                          optional={"size": st.one_of(st.integers(-3, 12), JSONISH),
                                    "seed": st.one_of(st.integers(), JSONISH),
                                    "state": st.one_of(st.text(alphabet="URFDLB", max_size=60), JSONISH),
                                    "extra": JSONISH}),
    st.dictionaries(st.text(max_size=6), JSONISH, max_size=4)))
def test_any_request_gets_one_reply_with_a_documented_code_never_internal(message):
    dispatcher = Dispatcher(FakeService(), "test", sizes=(2, 3))
    reply = dispatcher.handle(message)
    assert set(reply) in ({"id", "ok", "result"}, {"id", "ok", "error", "code"})
    if not reply["ok"]:
        assert reply["code"] in KNOWN_CODES, reply
        _one_line(reply["error"])
    json.dumps(reply)                               # the reply can be sent
    dispatcher.service.stop()
    dispatcher.service.wait(5)


@given(st.text(max_size=80), st.sampled_from([(0, 10, True), (0.0, 2.0, False), (None, None, False),
                                              (1, 2 ** 53, True)]))
def test_number_rules_from_text_give_a_finite_value_in_range_or_bad_value(text, rule):
    low, high, integer = rule
    try:
        value = inputs.parse_number(text, low, high, integer)
    except inputs.BadValue as exc:
        _one_line(exc)
        return
    assert value == value and value not in (float("inf"), float("-inf"))
    assert (low is None or value >= low) and (high is None or value <= high)
    assert isinstance(value, int if integer else float)


@pytest.mark.parametrize("text", ["inf", "-inf", "nan", "1e309", "-1e309", "9" * 400, "1e9", "", " ", "0x10"])
def test_number_rules_refuse_the_classic_hostile_numbers(text):
    with pytest.raises(inputs.BadValue):
        inputs.parse_number(text, 0, 600)
