"""Helpers of the classroom tests: the server with its robot in this process, and a plain HTTP client."""

import contextlib
import http.client
import json
import time

from cubebot.robot.cli.serve import hardware_service
from cubebot.robot.job.robots import SIM
from cubebot.robot.machine.config import SIZES, Config
from cubebot.robot.ui.classroom.board import Board
from cubebot.robot.ui.classroom.runlog import RunLog
from cubebot.robot.ui.classroom.server import ClassroomServer
from cubebot.robot.ui.classroom.sources import ServiceSource

WAIT_S = 60.0                 # generous: a simulated run takes a few seconds at FAST_PACE
FAST_PACE = 20                # the simulated robot this many times faster than the real one


class Classroom(object):
    """One server: `url`, `port`, `board`, `runlog`, `source`; close() ends it."""

    def __init__(self, source, log_path, port=0, owned=None):
        self.source = source
        self.runlog = RunLog(log_path)
        self.board = Board(source.target, history=self.runlog.runs, on_run_end=self.runlog.add)
        self.server = ClassroomServer(source, self.board, self.runlog, "127.0.0.1", port)
        self.port = self.server.httpd.server_address[1]
        self.url = self.server.url
        self.owned = owned
        source.start(self.board)
        self.server.start()

    def close(self):
        self.server.close()
        self.source.close()
        if self.owned is not None:
            service, opened = self.owned
            if service.stop():
                service.wait(WAIT_S)
            opened.close()


def sim_source(pace=FAST_PACE, seed=0):
    service, opened = hardware_service(SIM, 3, Config(), seed, pace=pace)
    return ServiceSource(service, SIZES), (service, opened)


@contextlib.contextmanager
def sim_classroom(log_path, pace=FAST_PACE, port=0):
    source, owned = sim_source(pace)
    room = Classroom(source, str(log_path), port, owned)
    try:
        yield room
    finally:
        room.close()


def request(port, method, path, body=None, headers=None, origin=True):
    """(status, parsed JSON or text) of one request to 127.0.0.1:port."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    all_headers = {}
    if origin:
        all_headers["Origin"] = "http://127.0.0.1:{}".format(port)
    all_headers.update(headers or {})
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    conn.request(method, path, body=data, headers=all_headers)
    response = conn.getresponse()
    raw = response.read().decode("utf-8")
    conn.close()
    try:
        return response.status, json.loads(raw)
    except ValueError:
        return response.status, raw


def snapshot(port):
    return request(port, "GET", "/api/snapshot")[1]


def wait_for(port, predicate, what, timeout_s=WAIT_S):
    """Poll the snapshot until predicate(snapshot) holds; the snapshot."""
    deadline = time.time() + timeout_s
    snap = None
    while time.time() < deadline:
        snap = snapshot(port)
        if predicate(snap):
            return snap
        time.sleep(0.05)
    raise AssertionError("waited {:g} s for {}; last banner {!r}".format(
        timeout_s, what, snap and snap.get("banner")))


def banner(snap):
    return snap["banner"]["text"]


class EventStream(object):
    """A reader of /events: snapshots one by one (a minimal Server-Sent Events parser)."""

    def __init__(self, port, timeout_s=10.0):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout_s)
        self.conn.request("GET", "/events")
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type").startswith("text/event-stream")

    def next_snapshot(self):
        event, data = None, []
        while True:
            line = self.response.fp.readline().decode("utf-8")
            if not line:
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line == "":
                if event == "snapshot" and data:
                    return json.loads("\n".join(data))
                event, data = None, []
            elif line.startswith("event: "):
                event = line[len("event: "):]
            elif line.startswith("data: "):
                data.append(line[len("data: "):])

    def close(self):
        self.conn.close()
