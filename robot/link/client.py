"""The laptop end of the serial link: requests with timeouts, and the event stream.

    with LinkClient("/dev/rfcomm0") as link:
        link.request("run", size=3)          # -> the reply's result, or raises
        message = link.next_event(5.0)       # -> {"event": ..., "data": ...} or None

A reader thread splits the incoming lines: replies go to the request waiting
for their id, events to a queue. Lines that are not messages are dropped.
`request` raises RemoteError (the robot said no; `.code`) or LinkError (the
device failed, vanished, or no reply came within the timeout).
"""

import itertools
import queue
import threading

from cubebot.robot.errors import LinkError, RemoteError
from cubebot.robot.link.framing import Channel
from cubebot.robot.link.server import DEFAULT_BAUD, link_errors, open_serial, reason

DEFAULT_TIMEOUT_S = 5.0           # a reply to an ordinary request
EVENT_QUEUE_LIMIT = 10000         # events kept for a slow consumer before the oldest go


class LinkClient(object):
    """One open link to a robot; see the module docstring."""

    def __init__(self, device, baud=DEFAULT_BAUD, timeout_s=DEFAULT_TIMEOUT_S, opener=open_serial):
        self.device = device
        self.baud = baud
        self.timeout_s = timeout_s
        self.opener = opener
        self.hello = None
        self.lost = None                  # why the link failed, once it has
        self.frame_errors = 0
        self._ids = itertools.count(1)
        self._replies = {}
        self._cond = threading.Condition()
        self._events = queue.Queue(EVENT_QUEUE_LIMIT)
        self._channel = None
        self._port = None
        self._closing = threading.Event()
        self._reader = None

    def open(self):
        """Open the device and start reading; raises LinkError if it cannot be opened."""
        try:
            self._port = self.opener(self.device, self.baud)
            self._port.reset_input_buffer()    # drop stale output queued before we came
        except link_errors() + (ValueError,) as exc:
            raise LinkError("cannot open {}: {}".format(self.device, reason(exc)))
        self._channel = Channel(self._port)
        self._reader = threading.Thread(target=self._read_loop, name="link-reader")
        self._reader.daemon = True
        self._reader.start()
        return self

    def close(self):
        self._closing.set()
        if self._reader is not None:
            self._reader.join(1.0)
        if self._port is not None:
            try:
                self._port.close()
            except Exception:  # noqa: BLE001 - the device may already be gone
                pass

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()
        return False

    # -- requests -----------------------------------------------------------
    def send_raw(self, message):
        """Send one message as it is (tests, debugging); raises LinkError."""
        try:
            self._channel.send(message)
        except link_errors() as exc:
            raise LinkError("link to {} failed while sending: {}".format(self.device, exc))

    def request(self, cmd, timeout_s=None, **fields):
        """Send a request and wait for its reply; return its result."""
        reply = self.request_raw(cmd, timeout_s, **fields)
        if not reply.get("ok"):
            raise RemoteError("robot: {}".format(reply.get("error", "request failed")),
                              reply.get("code", "failed"))
        return reply.get("result")

    def request_raw(self, cmd, timeout_s=None, **fields):
        """Send a request; return the whole reply message (ok or not)."""
        timeout_s = self.timeout_s if timeout_s is None else timeout_s
        message = dict(fields)
        with self._cond:
            request_id = next(self._ids)
        message.update({"id": request_id, "cmd": cmd})
        self.send_raw(message)
        with self._cond:
            self._cond.wait_for(lambda: request_id in self._replies or self.lost is not None, timeout_s)
            reply = self._replies.pop(request_id, None)
        if reply is not None:
            return reply
        if self.lost is not None:
            raise LinkError("link to {} lost: {}".format(self.device, self.lost))
        raise LinkError("no reply to {} from {} within {:g} s".format(cmd, self.device, timeout_s))

    # -- events -------------------------------------------------------------
    def next_event(self, timeout_s):
        """The next event message, or None after timeout_s; raises LinkError once the link is lost."""
        try:
            return self._events.get(timeout=timeout_s)
        except queue.Empty:
            if self.lost is not None:
                raise LinkError("link to {} lost: {}".format(self.device, self.lost))
            return None

    def drain_events(self):
        """Forget the events received so far (before starting a run to follow)."""
        while True:
            try:
                self._events.get_nowait()
            except queue.Empty:
                return

    # -- the reader thread ----------------------------------------------------
    def _read_loop(self):
        while not self._closing.is_set():
            try:
                items = self._channel.poll()
            except link_errors() as exc:
                with self._cond:
                    self.lost = str(exc) or type(exc).__name__
                    self._cond.notify_all()
                return
            for item in items:
                self._route(item)

    def _route(self, item):
        if not isinstance(item, dict):
            self.frame_errors += 1
            return
        if "event" in item:
            if item.get("event") == "hello":
                self.hello = item.get("data")
            if self._events.full():
                self._events.get_nowait()
            self._events.put_nowait(item)
        elif "id" in item and "ok" in item:
            with self._cond:
                self._replies[item["id"]] = item
                self._cond.notify_all()
        else:
            self.frame_errors += 1
