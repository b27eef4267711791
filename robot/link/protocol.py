"""The serial protocol: request checking, command dispatch onto a RobotService, message shapes.

Requests `{"id": int, "cmd": name, ...fields}` get exactly one reply
`{"id": same, "ok": true, "result": {...}}` or `{"id": same, "ok": false,
"error": "one line", "code": CODE}` (`"id": null` when the request had no
usable id). Events are `{"event": name, "data": {...}}` and carry no id.
The commands only call the RobotService: the link runs nothing else (no
shell, no files). See docs/serial-protocol.md.
"""

import logging

from cubebot.solver.errors import InvalidCube, NoSolver, SolverFailed, UnsolvableCube
from cubebot.solver.facelets import MAX_SIZE, MIN_SIZE
from cubebot.robot.errors import ConfigError, FrameError, RobotError
from cubebot.robot.inputs import MAX_SEED


PROTOCOL_VERSION = 1
MAX_ID = 2 ** 53                  # ids must fit a JavaScript number exactly
MAX_STATE_CHARS = 6 * MAX_SIZE * MAX_SIZE

# Error codes carried in "code" of a failed reply.
BAD_FRAME = "bad_frame"               # the line is not a JSON object
BAD_REQUEST = "bad_request"           # missing or wrong fields, bad id
UNKNOWN_COMMAND = "unknown_command"
INVALID_CUBE = "invalid_cube"         # solve: the state is not a valid cube
UNSOLVABLE = "unsolvable"             # solve: valid colours, impossible cube
SOLVER_FAILED = "solver_failed"       # solve: the solver failed (a dead child, no memory)
BUSY = "busy"                         # a run is already under way
FAILED = "failed"                     # the robot refused or failed
INTERNAL = "internal"                 # a bug on the robot side; the link goes on
NOT_PAIRED = "not_paired"             # a TCP link: this command needs the pairing code first
BAD_CODE = "bad_code"                 # pair: a wrong pairing code
SLOW_DOWN = "slow_down"               # pair: too soon after a wrong code
BAD_INPUT_CODES = (BAD_FRAME, BAD_REQUEST, UNKNOWN_COMMAND, INVALID_CUBE, UNSOLVABLE, BAD_CODE)
# Commands that move the robot or make it work: on a link with a pairing gate
# (TCP) they need the pairing code first; watching (ping, hello, status,
# last_scan, the events) stays open.
GATED_COMMANDS = ("run", "scan", "stop", "solve")
MAX_CODE_CHARS = 32

HELLO = "hello"
LOG = logging.getLogger(__name__)


class RequestError(ValueError):
    """A request that cannot be executed as sent; `code` is the reply's error code."""

    def __init__(self, message, code=BAD_REQUEST):
        ValueError.__init__(self, message)
        self.code = code


def reply_ok(request_id, result):
    """The reply to a request that succeeded."""
    return {"id": request_id, "ok": True, "result": result}


def reply_error(request_id, message, code):
    """The reply to a request that failed."""
    return {"id": request_id, "ok": False, "error": str(message), "code": code}


def event_message(name, payload):
    """An unsolicited event."""
    return {"event": name, "data": payload if payload is not None else {}}


def _check_int(name, value, low=None, high=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError("field '{}' must be an integer, got {}".format(name, type(value).__name__))
    if (low is not None and value < low) or (high is not None and value > high):
        raise RequestError("field '{}' = {} is out of range {}..{}".format(name, value, low, high))
    return value


def _check_seed(value):
    return _check_int("seed", value, 0, MAX_SEED)     # the same limit as the commands' --seed


def _check_state(value):
    if not isinstance(value, str):
        raise RequestError("field 'state' must be a string, got {}".format(type(value).__name__))
    if not value or len(value) > MAX_STATE_CHARS:
        raise RequestError("field 'state' has {} characters; a cube has 24..{}".format(
            len(value), MAX_STATE_CHARS))
    return value


def _check_code(value):
    if not isinstance(value, str):
        raise RequestError("field 'code' must be a string, got {}".format(type(value).__name__))
    if not 0 < len(value) <= MAX_CODE_CHARS:
        raise RequestError("field 'code' has {} characters; the pairing code is a few digits".format(
            len(value)))
    return value


def command_fields(sizes, pairing=False):
    """command -> {field: (checker, required)}, for a robot that handles cube `sizes`;
    with `pairing`, the `pair` command too."""
    low, high = min(sizes), max(sizes)

    def check_size(value):
        _check_int("size", value, low, high)
        if value not in sizes:
            raise RequestError("field 'size' = {} is not a size this robot turns ({})".format(
                value, ", ".join(str(s) for s in sorted(sizes))))
        return value

    run_fields = {"size": (check_size, False), "seed": (_check_seed, False)}
    commands = {"ping": {}, "hello": {}, "status": {}, "run": run_fields, "scan": run_fields,
                "solve": {"state": (_check_state, True)}, "stop": {}, "last_scan": {}}
    if pairing:
        commands["pair"] = {"code": (_check_code, True)}
    return commands


ALL_SIZES = tuple(range(MIN_SIZE, MAX_SIZE + 1))
COMMAND_FIELDS = command_fields(ALL_SIZES)


def parse_request(message, commands=COMMAND_FIELDS):
    """(id, cmd, fields) of a decoded request; raises RequestError (id kept when usable).

    commands: the table of command_fields(sizes).
    """
    request_id = message.get("id")
    if "id" not in message:
        raise RequestError("missing field 'id' (an integer)")
    if isinstance(request_id, bool) or not isinstance(request_id, int) or abs(request_id) > MAX_ID:
        raise RequestError("field 'id' must be an integer within +-2^53")
    cmd = message.get("cmd")
    if cmd is None:
        raise RequestError("missing field 'cmd'")
    if not isinstance(cmd, str):
        raise RequestError("field 'cmd' must be a string, got {}".format(type(cmd).__name__))
    spec = commands.get(cmd)
    if spec is None:
        raise RequestError("unknown command '{}' (known: {})".format(
            cmd[:40], ", ".join(sorted(commands))), UNKNOWN_COMMAND)
    extra = sorted(k for k in message if k not in ("id", "cmd") and k not in spec)
    if extra:
        raise RequestError("unknown field '{}' for {} (allowed: {})".format(
            extra[0][:40], cmd, ", ".join(sorted(spec)) or "none"))
    fields = {}
    for name in sorted(spec):
        check, required = spec[name]
        if name in message and message[name] is not None:
            fields[name] = check(message[name])
        elif required:
            raise RequestError("missing field '{}' for {}".format(name, cmd))
    return request_id, cmd, fields


class Dispatcher(object):
    """Answers requests by calling a RobotService (see docs/architecture.md).

    gate: None (a serial link: every command is open), or an object with
    `paired` (bool) and `try_code(code)` (raises RequestError when refused):
    then GATED_COMMANDS need a successful `pair` first (cubebot.robot.link.tcp).
    """

    def __init__(self, service, software_version, sizes=ALL_SIZES, gate=None):
        self.service = service
        self.software_version = software_version
        self.sizes = tuple(sorted(sizes))
        self.gate = gate
        self.commands = command_fields(self.sizes, pairing=gate is not None)

    def _parse(self, message):
        """parse_request, then the pairing gate: (id, cmd, fields) or RequestError."""
        request_id, cmd, fields = parse_request(message, self.commands)
        if self.gate is not None and cmd in GATED_COMMANDS and not self.gate.paired:
            raise RequestError("{} needs the pairing code first: send pair with the code shown "
                               "on the robot's screen".format(cmd), NOT_PAIRED)
        return request_id, cmd, fields

    def refusal(self, message):
        """The error reply if `message` cannot be executed as sent (bad id, command, fields), else None.

        Checks only, runs nothing: the server uses it before it hands a request elsewhere.
        """
        if isinstance(message, FrameError):
            return reply_error(None, message, BAD_FRAME)
        try:
            self._parse(message)
        except RequestError as exc:
            request_id = message.get("id") if _usable_id(message.get("id")) else None
            return reply_error(request_id, exc, exc.code)
        return None

    def hello(self):
        """The hello event sent first on every connection."""
        return event_message(HELLO, self._hello_data())

    def handle(self, message):
        """The one reply to a received item (a decoded dict or a FrameError). Never raises."""
        if isinstance(message, FrameError):
            return reply_error(None, message, BAD_FRAME)
        request_id = None
        try:
            request_id = message.get("id") if _usable_id(message.get("id")) else None
            request_id, cmd, fields = self._parse(message)
            return reply_ok(request_id, getattr(self, "_cmd_" + cmd)(fields))
        except RequestError as exc:
            return reply_error(request_id, exc, exc.code)
        except InvalidCube as exc:
            return reply_error(request_id, exc, INVALID_CUBE)
        except SolverFailed as exc:
            return reply_error(request_id, exc, SOLVER_FAILED)
        except UnsolvableCube as exc:
            return reply_error(request_id, exc, UNSOLVABLE)
        except NoSolver as exc:             # a well-formed cube of a size without a solver
            return reply_error(request_id, exc, BAD_REQUEST)
        except ConfigError as exc:
            return reply_error(request_id, exc, BAD_REQUEST)
        except RobotError as exc:
            return reply_error(request_id, exc, BUSY if self._running() else FAILED)
        except Exception as exc:  # a bug must not take the link down
            LOG.exception("request %r failed", message)
            return reply_error(request_id, "internal error: {}: {}".format(type(exc).__name__, exc), INTERNAL)

    def _running(self):
        try:
            return bool(self.service.status().get("running"))
        except Exception:
            return False

    def _hello_data(self):
        status = self.service.status()
        data = {"protocol": PROTOCOL_VERSION, "software": self.software_version,
                "state": status.get("state"), "status": status,
                "commands": sorted(self.commands), "sizes": list(self.sizes)}
        if self.gate is not None:
            data["pairing"] = {"required": True, "paired": bool(self.gate.paired)}
        return data

    def _refuse_if_busy(self, what):
        status = self.service.status()
        if status.get("running"):
            raise RequestError("cannot {}: a run is already under way (state {}); send stop first".format(
                what, status.get("state")), BUSY)

    def _cmd_ping(self, fields):
        return {"pong": True}

    def _cmd_hello(self, fields):
        return self._hello_data()

    def _cmd_status(self, fields):
        return self.service.status()

    def _cmd_run(self, fields):
        self._refuse_if_busy("run")
        self.service.start_run(size=fields.get("size"), seed=fields.get("seed"))
        return {"started": "run", "status": self.service.status()}

    def _cmd_scan(self, fields):
        self._refuse_if_busy("scan")
        self.service.start_scan(size=fields.get("size"), seed=fields.get("seed"))
        return {"started": "scan", "status": self.service.status()}

    def _cmd_solve(self, fields):
        return self.service.solve(fields["state"])

    def _cmd_stop(self, fields):
        return {"stopping": bool(self.service.stop())}

    def _cmd_pair(self, fields):
        self.gate.try_code(fields["code"])
        return {"paired": True}

    def _cmd_last_scan(self, fields):
        return {"readings": self.service.last_scan()}


def _usable_id(value):
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_ID
