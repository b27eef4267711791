"""`remote watch` says when the robot has gone quiet: real server and client over a pty pair;
the server stops (the device stays, as when `serve` is killed behind an RFCOMM tty)."""

import io
import os
import threading
import time
from types import SimpleNamespace

from cubebot.robot.cli import remote
from cubebot.robot.cli.serve import link_server, sim_service
from cubebot.robot.link.client import LinkClient
from cubebot.robot.link.ptypair import PtyBridge
from cubebot.robot.ui import watcher
from cubebot.robot.ui.watcher import watch

WAIT_S = 20.0


class _Lines(io.StringIO):
    """An output stream the test can read while watch writes to it."""

    def isatty(self):
        return False


def _wait_for(stream, text):
    deadline = time.time() + WAIT_S
    while text not in stream.getvalue():
        assert time.time() < deadline, "no {!r} in {!r}".format(text, stream.getvalue()[-500:])
        time.sleep(0.02)


def test_watch_shows_no_answer_after_serve_stops_and_recovers(tmp_path, monkeypatch):
    monkeypatch.setattr(watcher, "WATCH_QUIET_S", 0.3)
    monkeypatch.setattr(watcher, "WATCH_PING_TIMEOUT_S", 0.3)
    bridge = PtyBridge(tmp_path)
    service = sim_service(3)
    server = link_server(service, bridge.robot, reconnect_max_s=0.2).start()
    read_fd, write_fd = os.pipe()
    keys = os.fdopen(read_fd, "r")
    stream = _Lines()
    out = remote._Out(False, stream)
    args = SimpleNamespace(port=bridge.laptop, once=False, scale=1, baud=None, timeout=2.0)
    result = {}

    def make_client(a):
        return LinkClient(a.port, timeout_s=2.0)
    thread = threading.Thread(target=lambda: result.setdefault("rc", watch(make_client, args, out, False, keys)))
    thread.daemon = True
    try:
        assert server.connected.wait(5)
        thread.start()
        _wait_for(stream, "connected to")
        time.sleep(1.0)
        assert "does not answer" not in stream.getvalue()       # an idle robot that answers pings
        server.close(5)
        _wait_for(stream, "the robot does not answer")
        server = link_server(service, bridge.robot, reconnect_max_s=0.2).start()
        _wait_for(stream, "the robot answers again")
        os.write(write_fd, b"q\n")
        thread.join(WAIT_S)
        assert result.get("rc") == 0
    finally:
        server.close(5)
        os.close(write_fd)
        bridge.close()
