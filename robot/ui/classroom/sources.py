"""Where the classroom's robot is: in this process, or at the other end of a link.

Both sources feed a Board and answer `request(cmd, fields)` with a reply of
the link protocol (`{"ok": true, "result": ...}` or `{"ok": false, "error":
..., "code": ...}`), so the web server treats them alike.

- `ServiceSource(service, sizes)`: a RobotService here (the simulated robot
  of `cubebot classroom --sim`); requests go through the link's own
  Dispatcher, so they are checked exactly as over a link.
- `LinkSource(device, opener)`: a LinkClient over a serial port or TCP
  (cubebot.robot.link.tcp.open_tcp). A reader thread forwards events; the
  status is asked every STATUS_EVERY_S (battery, and a robot that stops
  answering is shown); a lost link is shown and reopened every
  RECONNECT_S; the pairing code given once is sent again on every reconnection.
"""

import threading
import time

from cubebot.robot import __version__
from cubebot.robot.errors import LinkError, RobotError
from cubebot.robot.link.protocol import FAILED, Dispatcher
from cubebot.robot.ui.classroom.board import LINK_DOWN, LINK_QUIET, LINK_UP

EVENT_POLL_S = 0.2
STATUS_EVERY_S = 2.0
STATUS_TIMEOUT_S = 2.0
RECONNECT_S = 1.0
REQUEST_TIMEOUT_S = 5.0


class ServiceSource(object):
    """A RobotService in this process."""

    def __init__(self, service, sizes, target="the simulated robot"):
        self.service = service
        self.target = target
        self.dispatcher = Dispatcher(service, __version__, sizes)
        self.board = None
        self._poller = None
        self._closing = threading.Event()

    def start(self, board):
        self.board = board
        self.service.subscribe(board.event)
        board.link(LINK_UP, "in this process")
        board.hello(self.dispatcher.hello()["data"])
        self._poller = threading.Thread(target=self._poll, name="classroom-status")
        self._poller.daemon = True
        self._poller.start()

    def _poll(self):
        while not self._closing.wait(STATUS_EVERY_S):
            self.board.status(self.service.status())

    def request(self, cmd, fields):
        message = dict(fields)
        message.update({"id": 1, "cmd": cmd})
        return self.dispatcher.handle(message)

    def close(self):
        self._closing.set()
        if self.board is not None:
            self.service.unsubscribe(self.board.event)


class LinkSource(object):
    """A robot over a link (see the module docstring)."""

    def __init__(self, device, opener, target=None, code=None, client_factory=None):
        self.device = device
        self.opener = opener
        self.target = target or device
        self.code = code
        self.board = None
        self._client = None
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._thread = None
        if client_factory is None:
            from cubebot.robot.link.client import LinkClient
            client_factory = LinkClient
        self._client_factory = client_factory

    def start(self, board):
        self.board = board
        self._thread = threading.Thread(target=self._loop, name="classroom-link")
        self._thread.daemon = True
        self._thread.start()

    def close(self):
        self._closing.set()
        if self._thread is not None:
            self._thread.join(RECONNECT_S + STATUS_TIMEOUT_S + 1.0)

    # -- requests from the page --------------------------------------------------
    def request(self, cmd, fields):
        with self._lock:
            client = self._client
        if client is None:
            return {"ok": False, "code": FAILED, "error": "no link to the robot at the moment"}
        try:
            reply = client.request_raw(cmd, REQUEST_TIMEOUT_S, **fields)
        except LinkError as exc:
            return {"ok": False, "code": FAILED, "error": str(exc)}
        if cmd == "pair":
            if reply.get("ok"):
                self.code = fields.get("code")
            self._pairing(client, reply.get("ok"))
        return reply

    def _pairing(self, client, paired):
        hello = client.hello or {}
        if isinstance(hello.get("pairing"), dict):
            self.board.link(LINK_UP, "", {"required": True, "paired": bool(paired)})

    # -- the link thread -----------------------------------------------------------
    def _loop(self):
        while not self._closing.is_set():
            try:
                client = self._client_factory(self.device, opener=self.opener).open()
            except LinkError as exc:
                self.board.link(LINK_DOWN, str(exc))
                self._closing.wait(RECONNECT_S)
                continue
            try:
                self._session(client)
            except RobotError as exc:        # the link failed, or the robot refused hello
                self.board.link(LINK_DOWN, str(exc))
            except Exception as exc:  # noqa: BLE001 - a robot answering nonsense: say so, try again
                self.board.link(LINK_DOWN, "the robot's answer cannot be read: {}".format(exc))
            finally:
                with self._lock:
                    self._client = None
                client.close()
            self._closing.wait(RECONNECT_S)

    def _session(self, client):
        hello = client.request("hello", STATUS_TIMEOUT_S)
        if not isinstance(hello, dict):
            raise ValueError("hello is not an object")
        pairing = hello.get("pairing") if isinstance(hello.get("pairing"), dict) else None
        self.board.hello(hello)
        self.board.link(LINK_UP, "", pairing)
        with self._lock:
            self._client = client
        if pairing is not None and self.code:
            reply = client.request_raw("pair", STATUS_TIMEOUT_S, code=self.code)
            if not reply.get("ok"):            # a restarted brick shows a new code: ask for it
                self.code = None
                self.board.note("the robot wants its new pairing code")
            self._pairing(client, reply.get("ok"))
        asked = time.time()
        while not self._closing.is_set():
            message = client.next_event(EVENT_POLL_S)
            if message is not None and isinstance(message.get("event"), str) and message["event"] != "hello":
                self.board.event(message["event"], message.get("data"))
            if time.time() - asked >= STATUS_EVERY_S:
                asked = time.time()
                self._ask_status(client)

    def _ask_status(self, client):
        try:
            status = client.request("status", STATUS_TIMEOUT_S)
        except LinkError:
            if client.lost is not None:
                raise
            self.board.link(LINK_QUIET, "no answer to status within {:g} s".format(STATUS_TIMEOUT_S))
            return
        self.board.link(LINK_UP, "")
        if isinstance(status, dict):
            self.board.status(status)
