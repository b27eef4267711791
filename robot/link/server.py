"""The robot end of the serial link: a RobotService behind a pyserial device.

`LinkServer(service, device).serve_forever()` opens the device, sends the
hello event, forwards every service event and answers requests (one reply
each, see cubebot.robot.link.protocol). When the device fails or disappears it
reports it and polls until the device is back (at most RECONNECT_MAX_S
between tries), then says hello again. `close()` (from a signal handler or
another thread) ends it within one read poll. `start()` runs it in a thread,
so the button app can host the link next to its own loop.

Messages received that are not requests (they carry "event" or "ok": our own
output echoed back by a tty in echo mode, or another robot) are ignored, so
two ends can never talk each other into a loop.
"""

import collections
import os
import logging
import threading

from cubebot.robot import __version__
from cubebot.robot.link.framing import PARTIAL_LINE_TIMEOUT_S, READ_POLL_S, WRITE_TIMEOUT_S, Channel
from cubebot.robot.link.protocol import ALL_SIZES, BUSY, FAILED, INTERNAL, Dispatcher, event_message, reply_error
from cubebot.robot.link.solving import SolveJob

DEFAULT_BAUD = 115200
BAUD_RANGE = (50, 4000000)        # baud rates serial hardware offers (--baud)
RECONNECT_MIN_S = 0.1             # first wait before reopening a vanished device ...
RECONNECT_MAX_S = 1.0             # ... doubling up to this bound
OUTBOX_LIMIT = 2000               # queued messages beyond which progress events are dropped
DROPPABLE_EVENTS = ("scan_progress", "move_progress")
WRITER_POLL_S = 0.1               # how often the writer thread checks for the session's end

LOG = logging.getLogger("cubebot.link")


def open_serial(device, baud):
    """Open `device` (a tty path or a pyserial URL such as loop://) for the link."""
    import serial
    return serial.serial_for_url(device, baudrate=baud, timeout=READ_POLL_S,
                                 write_timeout=WRITE_TIMEOUT_S)


def link_errors():
    """The exceptions that mean the device failed or vanished."""
    import serial
    return (serial.SerialException, OSError)


def reason(exc):
    """A short text for an open/read failure: the OS's words when there is an errno."""
    number = getattr(exc, "errno", None)
    if isinstance(number, int):
        return os.strerror(number)
    return str(exc) or type(exc).__name__


class Outbox(object):
    """The messages waiting for the writer: ordered, bounded for progress events."""

    def __init__(self, limit=OUTBOX_LIMIT):
        self.limit = limit
        self.dropped = 0
        self._items = collections.deque()
        self._cond = threading.Condition()

    def put(self, message):
        with self._cond:
            if len(self._items) >= self.limit and message.get("event") in DROPPABLE_EVENTS:
                self.dropped += 1
                return
            self._items.append(message)
            self._cond.notify()

    def get(self, timeout_s):
        """The next message, or None after timeout_s."""
        with self._cond:
            if not self._items:
                self._cond.wait(timeout_s)
            return self._items.popleft() if self._items else None


class LinkServer(object):
    """See the module docstring. `stats` counts what happened on the link."""

    def __init__(self, service, device, baud=DEFAULT_BAUD, opener=open_serial,
                 reconnect_max_s=RECONNECT_MAX_S, software_version=__version__, sizes=ALL_SIZES,
                 partial_timeout_s=PARTIAL_LINE_TIMEOUT_S, gate=None):
        """gate: the pairing gate of a TCP connection (see protocol.Dispatcher), None on serial."""
        self.service = service
        self.device = device
        self.baud = baud
        self.opener = opener
        self.reconnect_max_s = reconnect_max_s
        self.partial_timeout_s = partial_timeout_s
        self.dispatcher = Dispatcher(service, software_version, sizes, gate=gate)
        self.stats = {"connections": 0, "requests": 0, "frame_errors": 0, "discarded": 0,
                      "ignored": 0, "dropped_events": 0, "write_timeouts": 0, "link_losses": 0}
        self.connected = threading.Event()
        self._closing = threading.Event()
        self._thread = None
        self._solve = None                # the SolveJob of the solve being computed, if any

    # -- life cycle -------------------------------------------------------
    def start(self):
        """Serve in a daemon thread; return at once."""
        self._thread = threading.Thread(target=self.serve_forever, name="link-server")
        self._thread.daemon = True
        self._thread.start()
        return self

    def close(self, timeout_s=None):
        """Ask the server to end (safe from signal handlers); join its thread if started."""
        self._closing.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout_s)

    @property
    def closing(self):
        return self._closing.is_set()

    def serve_forever(self):
        """Serve until close(): open, talk, and reopen after a lost link."""
        wait_s = RECONNECT_MIN_S
        reported = None
        while not self._closing.is_set():
            try:
                port = self.opener(self.device, self.baud)
            except link_errors() + (ValueError,) as exc:
                message = reason(exc)
                if message != reported:
                    LOG.warning("waiting for %s: %s", self.device, message)
                    reported = message
                self._closing.wait(wait_s)
                wait_s = min(wait_s * 2, self.reconnect_max_s)
                continue
            wait_s = RECONNECT_MIN_S
            reported = None
            self.stats["connections"] += 1
            LOG.info("link up on %s", self.device)
            try:
                why = self._session(port)
            except Exception as exc:  # noqa: BLE001 - a bug must not end the link for good
                LOG.exception("link session failed")
                why = "internal error: {}".format(reason(exc))
            if why is not None:
                self.stats["link_losses"] += 1
                LOG.warning("link lost on %s: %s; waiting for it to come back", self.device, why)
                self._closing.wait(RECONNECT_MIN_S)     # a device failing at once must not spin

    # -- one connection -----------------------------------------------------
    def serve_port(self, port):
        """Talk over one port opened elsewhere (a TCP connection) until it fails or close();
        the reason it failed, or None. The port is closed after."""
        self.stats["connections"] += 1
        return self._session(port)

    def _session(self, port):
        """Talk over one open port until it fails (returns the reason) or close() (None)."""
        channel = Channel(port, partial_timeout_s=self.partial_timeout_s)
        discarded_before = self.stats["discarded"]
        outbox = Outbox()
        lost = []
        ended = threading.Event()

        def forward(name, payload):
            outbox.put(event_message(name, payload))

        writer = threading.Thread(target=self._write_loop, args=(channel, outbox, ended, lost),
                                  name="link-writer")
        writer.daemon = True
        outbox.put(self.dispatcher.hello())
        self.service.subscribe(forward)
        writer.start()
        self.connected.set()
        try:
            while not self._closing.is_set() and not lost:
                try:
                    items = channel.poll()
                except link_errors() as exc:
                    lost.append(reason(exc))
                    break
                for item in items:
                    reply = self._answer(item, outbox)
                    if reply is not None:
                        outbox.put(reply)
                self.stats["discarded"] = discarded_before + channel.discarded
        finally:
            self._abandon_solve(None)       # nobody is left to read its reply
            self.connected.clear()
            self.service.unsubscribe(forward)
            ended.set()
            writer.join(WRITE_TIMEOUT_S + WRITER_POLL_S)
            if not lost:
                self._drain(outbox, channel)
            self.stats["dropped_events"] += outbox.dropped
            _close_quietly(port)
        return lost[0] if lost else None

    def _answer(self, item, outbox):
        """The reply to one received item, or None for messages that are not requests and for
        a solve (its reply comes later, from its SolveJob)."""
        if isinstance(item, dict) and ("event" in item or "ok" in item):
            self.stats["ignored"] += 1
            return None
        if isinstance(item, dict):
            self.stats["requests"] += 1
        else:
            self.stats["frame_errors"] += 1
            return self.dispatcher.handle(item)
        if item.get("cmd") == "solve":
            return self._start_solve(item, outbox)
        if item.get("cmd") == "stop" and self.dispatcher.refusal(item) is None:
            abandoned = self._abandon_solve(outbox)
            reply = self.dispatcher.handle(item)
            if abandoned and reply.get("ok"):
                reply["result"]["stopping"] = True
            return reply
        return self.dispatcher.handle(item)

    def _start_solve(self, request, outbox):
        """Hand a solve request to a SolveJob; an error reply if it cannot start, else None."""
        refusal = self.dispatcher.refusal(request)
        if refusal is not None:
            return refusal
        if self._solve is not None and self._solve.running:
            return reply_error(request["id"], "a solve is being computed (request {}): wait for its "
                               "reply or send stop".format(self._solve.request.get("id")), BUSY)
        self._solve = SolveJob(self.dispatcher.handle, request, outbox.put,
                               reply_error(request["id"], "the solve ended without a reply", INTERNAL))
        return None

    def _abandon_solve(self, outbox):
        """Kill the solve being computed, if any, and answer it as stopped; True if there was one."""
        job = self._solve
        if job is None or not job.abandon():
            return False
        job.wait()
        if outbox is not None:
            outbox.put(reply_error(job.request["id"], "solve stopped on request", FAILED))
        return True

    def _write_loop(self, channel, outbox, ended, lost):
        """The writer thread: sends queued messages until the session ends."""
        import serial
        while not ended.is_set() and not lost:
            message = outbox.get(WRITER_POLL_S)
            if message is None:
                continue
            try:
                channel.send(message)
            except serial.SerialTimeoutException:
                self.stats["write_timeouts"] += 1     # nobody reads: drop it, keep serving
            except link_errors() as exc:
                lost.append(reason(exc))

    def _drain(self, outbox, channel):
        """On a clean close: send what is still queued (best effort, bounded by the write timeout)."""
        while True:
            message = outbox.get(0)
            if message is None:
                return
            try:
                channel.send(message)
            except link_errors():
                return


def _close_quietly(port):
    try:
        port.close()
    except Exception:  # noqa: BLE001 - the device may already be gone
        pass
