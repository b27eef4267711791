"""Line framing for the serial link: UTF-8 JSON objects, one per line.

A frame is the bytes up to a newline (`\\n`; a `\\r` before it is dropped).
Framing problems are discarded silently (and counted): a line longer than
MAX_LINE_BYTES is dropped up to its next newline, and a partial line that
stays silent for PARTIAL_LINE_TIMEOUT_S is dropped. Content problems (not
UTF-8, not JSON, not an object) come out as FrameError values so that the
server can answer them, and the link keeps working either way.

`Channel` wraps one open pyserial port (a real tty or `loop://`).
"""

import json
import threading
import time

from cubebot.robot.errors import FrameError


MAX_LINE_BYTES = 64 * 1024        # longest accepted line, newline excluded
PARTIAL_LINE_TIMEOUT_S = 2.0      # a partial line silent this long is dropped
READ_POLL_S = 0.05                # pyserial read timeout: how often a reader wakes up
WRITE_TIMEOUT_S = 2.0             # pyserial write timeout: a peer that stops reading
NEWLINE = b"\n"


def encode(message):
    """One message (a dict) as the bytes of one line, newline included.

    Values json cannot encode are sent as their str() so that encoding never fails.
    """
    text = json.dumps(message, sort_keys=True, separators=(",", ":"), default=str)
    return text.encode("utf-8") + NEWLINE


def decode(line):
    """The dict held by one line (bytes without the newline); raises FrameError."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FrameError("line is not UTF-8: byte 0x{:02x} at offset {}".format(
            line[exc.start], exc.start))
    try:
        message = json.loads(text)
    except RecursionError:
        raise FrameError("invalid JSON: nested too deeply")
    except ValueError as exc:
        raise FrameError("invalid JSON: {}".format(exc))
    if not isinstance(message, dict):
        raise FrameError("a message must be a JSON object, got {}".format(_json_type(message)))
    return message


def _json_type(value):
    """The JSON name of a decoded value's type."""
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return "a number"


class LineSplitter(object):
    """Cuts a byte stream into lines, enforcing the length limit and the silence timeout.

    `feed(data, now)` returns the complete lines (bytes, without newline, blank
    lines skipped); `expire(now)` drops a partial line older than the timeout.
    `discarded` counts the lines dropped by framing.
    """

    def __init__(self, max_line=MAX_LINE_BYTES, partial_timeout_s=PARTIAL_LINE_TIMEOUT_S):
        self.max_line = max_line
        self.partial_timeout_s = partial_timeout_s
        self.discarded = 0
        self._buf = bytearray()
        self._skipping = False      # inside an over-long line: drop up to the next newline
        self._last_data = 0.0

    def feed(self, data, now):
        """Append received bytes; return the complete lines they finish."""
        lines = []
        start = 0
        while True:
            end = data.find(NEWLINE, start)
            if end < 0:
                break
            self._take(data[start:end], lines)
            start = end + 1
        rest = data[start:]
        if rest:
            self._grow(rest)
        if data:
            self._last_data = now
        return lines

    def expire(self, now):
        """Drop a partial line when nothing arrived for partial_timeout_s; True if one was dropped."""
        pending = self._buf or self._skipping
        if pending and now - self._last_data >= self.partial_timeout_s:
            if self._buf:
                self.discarded += 1
            self._buf = bytearray()
            self._skipping = False
            return True
        return False

    def pending(self):
        """Bytes of the partial line held so far."""
        return len(self._buf)

    def _take(self, piece, lines):
        """A newline ends `piece`: emit the line unless it is over-long or blank."""
        if self._skipping:
            self._skipping = False
            return
        if len(self._buf) + len(piece) > self.max_line:
            self.discarded += 1
            self._buf = bytearray()
            return
        line = bytes(self._buf) + bytes(piece)
        self._buf = bytearray()
        if line.endswith(b"\r"):
            line = line[:-1]
        if line.strip():
            lines.append(line)

    def _grow(self, rest):
        """Keep the start of an unfinished line, switching to skipping when it is too long."""
        if self._skipping:
            return
        if len(self._buf) + len(rest) > self.max_line:
            self.discarded += 1
            self._buf = bytearray()
            self._skipping = True
            return
        self._buf.extend(rest)


class Channel(object):
    """Messages over one open pyserial port.

    `send(message)` may be called from any thread; `poll()` from one reader
    thread only. pyserial errors (SerialException, a vanished device) propagate.
    """

    def __init__(self, port, max_line=MAX_LINE_BYTES, partial_timeout_s=PARTIAL_LINE_TIMEOUT_S,
                 clock=time.monotonic):
        self.port = port
        self.clock = clock
        self.splitter = LineSplitter(max_line, partial_timeout_s)
        self._write_lock = threading.Lock()

    def send(self, message):
        """Write one message as one line."""
        data = encode(message)
        with self._write_lock:
            self.port.write(data)

    def poll(self):
        """Wait up to the port's read timeout; return the messages received.

        Each item is a dict, or a FrameError for a line that is not a message.
        """
        data = self.port.read(1)
        if data:
            waiting = self.port.in_waiting
            if waiting:
                data += self.port.read(waiting)
        now = self.clock()
        items = []
        for line in self.splitter.feed(data, now):
            try:
                items.append(decode(line))
            except FrameError as exc:
                items.append(exc)
        self.splitter.expire(now)
        return items

    @property
    def discarded(self):
        """Lines dropped by framing (too long, or partial and silent)."""
        return self.splitter.discarded
