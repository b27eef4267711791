"""The classroom's web server: the page, its assets, a stream of snapshots, and commands.

Standard library only (http.server with a thread per request, so it runs on
CPython 3.5 and on any laptop OS). Routes:

  GET  /                 the page (static/index.html); /static/NAME its assets (package data)
  GET  /events           Server-Sent Events: a whole snapshot (`event: snapshot`) at once and
                         after every change (at most one per SSE_MIN_INTERVAL_S), a comment
                         every SSE_KEEPALIVE_S; the browser's EventSource reconnects by itself
  GET  /api/snapshot     the snapshot as JSON
  GET  /api/runs.csv     the lesson's run log as CSV
  POST /api/run, /api/scan  {"size": N, "seed": S} (both optional); /api/stop; /api/pair {"code": "..."}

Commands check their Origin: it must be this server as the browser reached
it (`http://HOST:PORT` with HOST an IP address or localhost, so a page of
another site, even one whose name points here, is refused: 403). Every
refusal is a 4xx status with one line of JSON, `{"error": "..."}`; no
request can stop the server.
"""

import json
import os
import re
import socket
import threading

from http.server import BaseHTTPRequestHandler, HTTPServer
from socketserver import ThreadingMixIn

from cubebot.robot.ui.classroom import DEFAULT_HOST, DEFAULT_PORT
from cubebot.robot.link.protocol import (BAD_CODE, BAD_FRAME, BAD_REQUEST, BUSY, INVALID_CUBE,
                                         NOT_PAIRED, SLOW_DOWN, UNKNOWN_COMMAND, UNSOLVABLE)

SSE_MIN_INTERVAL_S = 0.1          # at most this many snapshots a second per tab (coalesced)
SSE_KEEPALIVE_S = 10.0            # a comment line this often keeps proxies and the tab awake
SSE_RETRY_MS = 1000               # the browser's reconnect delay after a lost stream
MAX_BODY_BYTES = 4096
STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
ASSETS = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "app.css": "text/css; charset=utf-8", "cube.js": "text/javascript; charset=utf-8"}
COMMANDS = ("run", "scan", "stop", "pair")
# A reply's protocol error code -> the HTTP status the page gets.
STATUS_OF_CODE = {BAD_FRAME: 400, BAD_REQUEST: 400, UNKNOWN_COMMAND: 400, INVALID_CUBE: 400,
                  UNSOLVABLE: 400, BAD_CODE: 400, NOT_PAIRED: 403, BUSY: 409, SLOW_DOWN: 429}
FAILED_STATUS = 503
_IP_OR_LOCALHOST = re.compile(r"^(localhost|[0-9.]+|\[[0-9a-fA-F:.]+\])(:[0-9]+)?$")


class _Refused(Exception):
    def __init__(self, status, message):
        Exception.__init__(self, message)
        self.status = status


class _HTTPServer(ThreadingMixIn, HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        """A request that failed in a way not answered already: nothing printed, the server goes on."""


class _Handler(BaseHTTPRequestHandler):
    server_version = "cubebot-classroom"
    default_request_version = "HTTP/1.0"      # even a garbled request line gets a status line
    error_content_type = "application/json"

    # -- plumbing ------------------------------------------------------------------
    @property
    def app(self):
        return self.server.app

    def log_message(self, format, *args):
        """Quiet: a classroom laptop's terminal is not a web log."""

    def send_error(self, code, message=None, explain=None):
        """Every error as one line of JSON (http.server's own ones included: 400, 414, 501)."""
        text = message or {404: "no such page", 501: "method not allowed"}.get(code, "bad request")
        if code == 501:
            code = 405
        self._send_json(code, {"error": text})

    def _send(self, status, body, content_type, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _send_json(self, status, obj):
        body = (json.dumps(obj, sort_keys=True) + "\n").encode("utf-8")
        try:
            self._send(status, body, "application/json")
        except OSError:
            pass

    def _path(self):
        return self.path.split("?", 1)[0].split("#", 1)[0]

    # -- GET -----------------------------------------------------------------------
    def do_GET(self):
        path = self._path()
        try:
            if path in ("/", "/index.html"):
                self._asset("index.html")
            elif path.startswith("/static/"):
                self._asset(path[len("/static/"):])
            elif path == "/events":
                self._events()
            elif path == "/api/snapshot":
                self._send_json(200, self.app.board.snapshot())
            elif path == "/api/runs.csv":
                body = self.app.runlog.csv_text().encode("utf-8")
                self._send(200, body, "text/csv; charset=utf-8",
                           [("Content-Disposition", 'attachment; filename="cubebot-runs.csv"')])
            else:
                self._send_json(404, {"error": "no such page: {}".format(path[:80])})
        except OSError:                 # the tab went away: nothing to answer
            pass

    do_HEAD = do_GET

    def _asset(self, name):
        if name not in ASSETS:
            self._send_json(404, {"error": "no such file: {}".format(name[:80])})
            return
        self._send(200, self.app.asset(name), ASSETS[name])

    def _events(self):
        board = self.app.board
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write("retry: {}\n\n".format(SSE_RETRY_MS).encode("ascii"))
        seq = -1
        closing = self.app.closing
        while not closing.is_set():
            current = board.wait(seq, SSE_KEEPALIVE_S)
            if closing.is_set():
                return
            if current == seq:
                self.wfile.write(b": still here\n\n")
            else:
                snap = board.snapshot()
                seq = snap["seq"]
                data = json.dumps(snap, sort_keys=True, separators=(",", ":"))
                self.wfile.write("id: {}\nevent: snapshot\ndata: {}\n\n".format(seq, data).encode("utf-8"))
            self.wfile.flush()
            closing.wait(SSE_MIN_INTERVAL_S)

    # -- POST ----------------------------------------------------------------------
    def do_POST(self):
        path = self._path()
        try:
            cmd = path[len("/api/"):] if path.startswith("/api/") else None
            if cmd not in COMMANDS:
                raise _Refused(404, "no such command: {}".format(path[:80]))
            self._check_origin()
            fields = self._body()
            reply = self.app.command(cmd, fields)
        except _Refused as exc:
            self._send_json(exc.status, {"error": str(exc)})
            return
        except Exception as exc:  # noqa: BLE001 - a bug answers 500 in one line; the server goes on
            self._send_json(500, {"error": "internal error: {}: {}".format(type(exc).__name__, exc)[:200]})
            return
        if reply.get("ok"):
            self._send_json(200, {"ok": True, "result": reply.get("result")})
        else:
            self._send_json(STATUS_OF_CODE.get(reply.get("code"), FAILED_STATUS),
                            {"error": reply.get("error", "refused"), "code": reply.get("code")})

    def _not_allowed(self):
        self._send_json(405, {"error": "method {} not allowed here".format(self.command[:20])})

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _not_allowed

    def _check_origin(self):
        origin = self.headers.get("Origin")
        host = self.headers.get("Host") or ""
        if origin is None:
            raise _Refused(403, "commands need an Origin header (send them from the classroom page)")
        if not _IP_OR_LOCALHOST.match(host) or origin != "http://" + host:
            raise _Refused(403, "commands are only taken from this server's own page, not from {}".format(
                origin[:80]))

    def _body(self):
        length = self.headers.get("Content-Length")
        if length is None:
            return {}
        if not length.isdigit():
            raise _Refused(400, "Content-Length is not a number")
        if int(length) > MAX_BODY_BYTES:
            raise _Refused(413, "the request body is over {} bytes".format(MAX_BODY_BYTES))
        raw = self.rfile.read(int(length)) if int(length) else b""
        if not raw.strip():
            return {}
        try:
            fields = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise _Refused(400, "the request body is not JSON")
        if not isinstance(fields, dict):
            raise _Refused(400, "the request body must be a JSON object")
        return fields


class ClassroomServer(object):
    """The web server of one classroom: `source` (sources.ServiceSource or LinkSource), `board`, `runlog`."""

    def __init__(self, source, board, runlog, host=DEFAULT_HOST, port=DEFAULT_PORT):
        self.source = source
        self.board = board
        self.runlog = runlog
        self.closing = threading.Event()
        self._assets = {}
        self._thread = None
        try:
            self.httpd = _HTTPServer((host, port), _Handler)
        except (OSError, socket.error) as exc:
            raise OSError("cannot listen on {}:{}: {}".format(host, port, getattr(exc, "strerror", None) or exc))
        self.httpd.app = self

    @property
    def url(self):
        host, port = self.httpd.server_address[:2]
        if host in ("0.0.0.0", "::"):
            host = "127.0.0.1"
        return "http://{}:{}/".format(host, port)

    def asset(self, name):
        if name not in self._assets:
            with open(os.path.join(STATIC_DIR, name), "rb") as fh:
                self._assets[name] = fh.read()
        return self._assets[name]

    def command(self, cmd, fields):
        """A page's command as a protocol reply (the source checks its fields)."""
        reply = self.source.request(cmd, fields)
        if cmd != "pair" and not reply.get("ok"):
            self.board.note(reply.get("error", ""))
        elif cmd == "pair":
            self.board.note("paired: the robot takes commands" if reply.get("ok") else reply.get("error", ""))
        else:
            self.board.note("")
        return reply

    def start(self):
        self._thread = threading.Thread(target=self.serve_forever, name="classroom-http")
        self._thread.daemon = True
        self._thread.start()
        return self

    def serve_forever(self):
        self.httpd.serve_forever(poll_interval=0.2)

    def close(self):
        """Stop serving: the streams end, the port is freed."""
        self.closing.set()
        self.board.note("")             # wakes every stream so that it sees closing
        self.httpd.shutdown()
        self.httpd.server_close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2.0)
