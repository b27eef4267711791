"""Framing over pyserial's loop:// port: lines, limits, garbage, silence."""

import json

import pytest
import serial

from cubebot.robot.errors import FrameError
from cubebot.robot.link import framing
from cubebot.robot.link.framing import Channel, LineSplitter, decode, encode


class FakeClock(object):
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def loop():
    port = serial.serial_for_url("loop://", baudrate=1000000, timeout=0.01, write_timeout=1.0,
                                  do_not_open=True)
    port.buffer_size = 256 * 1024   # loop:// blocks writes beyond its queue size (4 KiB by default)
    port.open()
    yield port
    port.close()


def poll_until(channel, count, tries=50):
    items = []
    for _ in range(tries):
        items.extend(channel.poll())
        if len(items) >= count:
            break
    return items


def test_round_trip_over_loop(loop):
    channel = Channel(loop)
    messages = [{"id": 1, "cmd": "ping"}, {"event": "state", "data": {"state": "idle"}},
                {"id": 2, "cmd": "solve", "state": "é ü"}]
    for m in messages:
        channel.send(m)
    assert poll_until(channel, 3) == messages


def test_encode_is_one_line_and_never_fails():
    data = encode({"text": "a\nb", "obj": object()})
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    assert json.loads(data.decode())["text"] == "a\nb"


@pytest.mark.parametrize("line, needle", [
    (b"\xff\xfe garbage", "not UTF-8"),
    (b"{not json", "invalid JSON"),
    (b"[1, 2]", "JSON object"),
    (b"42", "JSON object"),
    (b"[" * 100000, "invalid JSON"),
])
def test_decode_rejects_with_one_line(line, needle):
    with pytest.raises(FrameError) as info:
        decode(line)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


def test_garbage_then_valid_lines_keep_working(loop):
    channel = Channel(loop)
    loop.write(b"\x00\x01\xff\xfe\x80garbage\n\r\n\n{\"id\": 1, \"cmd\": \"ping\"}\r\n")
    items = poll_until(channel, 2)
    assert isinstance(items[0], FrameError)
    assert items[1] == {"id": 1, "cmd": "ping"}


def test_overlong_line_is_discarded_up_to_next_newline(loop):
    channel = Channel(loop, max_line=1000)
    loop.write(b"{\"id\": 1, \"junk\": \"" + b"x" * 5000)
    loop.write(b"x" * 5000 + b"\"}\n{\"id\": 2, \"cmd\": \"ping\"}\n")
    items = poll_until(channel, 1)
    assert items == [{"id": 2, "cmd": "ping"}]
    assert channel.discarded == 1


def test_default_limit_is_64_kib():
    assert framing.MAX_LINE_BYTES == 65536
    splitter = LineSplitter()
    assert splitter.feed(b"a" * 65536 + b"\n", 0.0) == [b"a" * 65536]
    assert splitter.feed(b"a" * 65537 + b"\nb\n", 0.0) == [b"b"]
    assert splitter.discarded == 1


def test_overlong_line_split_across_many_chunks():
    splitter = LineSplitter(max_line=10)
    out = []
    for chunk in [b"12345", b"67890", b"abc", b"def\nok", b"\n"]:
        out.extend(splitter.feed(chunk, 0.0))
    assert out == [b"ok"]
    assert splitter.discarded == 1


def test_partial_line_then_silence_is_dropped(loop):
    clock = FakeClock()
    channel = Channel(loop, partial_timeout_s=2.0, clock=clock)
    loop.write(b"{\"id\": 1, \"cm")
    assert poll_until(channel, 1, tries=3) == []
    assert channel.splitter.pending() > 0
    clock.now = 1.0
    channel.poll()
    assert channel.splitter.pending() > 0          # not yet silent long enough
    clock.now = 3.5
    channel.poll()
    assert channel.splitter.pending() == 0 and channel.discarded == 1
    loop.write(b"{\"id\": 2, \"cmd\": \"ping\"}\n")
    assert poll_until(channel, 1) == [{"id": 2, "cmd": "ping"}]


def test_silence_also_ends_skipping_an_overlong_line():
    splitter = LineSplitter(max_line=4, partial_timeout_s=1.0)
    assert splitter.feed(b"123456789", 0.0) == []
    assert splitter.expire(5.0)
    assert splitter.feed(b"ok\n", 5.0) == [b"ok"]
