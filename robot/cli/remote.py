"""`cubebot remote --port DEVICE [--json] ACTION`: drive and watch a robot over the link.

DEVICE is a serial device, or tcp://HOST:PORT for a robot on `cubebot run
--tcp` or `cubebot serve --tcp` (--code gives its pairing code, needed to run, scan, stop and solve).

Actions: status, ping, run [--size N] [--seed S], scan, stop, solve STATE,
last-scan, watch. `run` and `scan` follow the run's events until it ends;
`watch` draws a live view for a projector (ANSI redraws on a terminal, one
line per event otherwise) and reconnects when the link drops. --json prints
every received message raw, one per line. Exit codes: 0 fine, 1 link failure
or a failed run, 2 bad input (refused by the robot as such).
"""

import json
import sys
import time

from cubebot.robot.inputs import arg_int, arg_seconds, arg_seed

RUN_SILENCE_S = 120.0         # run/scan: give up when the robot says nothing this long
SOLVE_TIMEOUT_S = 120.0       # solve on the brick may take a while (4x4x4: more)
WATCH_SCALES = (1, 2, 3)      # watch --scale: facelet sizes of the net
MAX_TIMEOUT_S = 3600.0        # --timeout: at most an hour


def register(subparsers):
    parser = subparsers.add_parser("remote", help="drive and watch a robot over a serial link (cubebot serve)",
                                   description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", required=True, metavar="DEVICE",
                        help="serial device, e.g. /dev/rfcomm0, or tcp://HOST:PORT (cubebot run/serve --tcp)")
    from cubebot.robot.cli.classroom import code_arg
    parser.add_argument("--code", type=code_arg(), default=None,
                        help="tcp://: the pairing code on the brick's screen (to move the robot)")
    from cubebot.robot.link.server import BAUD_RANGE
    parser.add_argument("--baud", type=arg_int(*BAUD_RANGE), default=None, help="baud rate (default 115200)")
    parser.add_argument("--json", action="store_true", help="print the raw protocol messages")
    parser.add_argument("--timeout", type=arg_seconds(0, MAX_TIMEOUT_S), default=None, metavar="S",
                        help="seconds to wait for a reply (default 5, at most {:g})".format(MAX_TIMEOUT_S))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    actions.add_parser("status", help="the robot's state and last result")
    actions.add_parser("ping", help="round trip time")
    for name, text in (("run", "scan, solve and turn; follow it to the end"),
                       ("scan", "scan only; follow it to the end")):
        sub = actions.add_parser(name, help=text)
        sub.add_argument("--size", type=_link_size(), default=None, help="cube size")
        sub.add_argument("--seed", type=arg_seed(), default=None, help="simulated robot: which scrambled cube")
    actions.add_parser("stop", help="stop the run under way (the robot is left safe)")
    solve = actions.add_parser("solve", help="solve a facelet string on the robot, without moving")
    solve.add_argument("state", type=_state_arg(), help="facelets in URFDLB order")
    actions.add_parser("last-scan", help="the raw readings of the last scan (de-facto JSON)")
    watch = actions.add_parser("watch", help="live view: the cube, the solution, progress, state")
    watch.add_argument("--once", action="store_true", help="exit after the next run ends")
    watch.add_argument("--scale", type=arg_int(min(WATCH_SCALES), max(WATCH_SCALES)), default=1,
                       help="size of the cube's facelets on a terminal (2 or 3 for a projector)")
    parser.set_defaults(run=run)


def _link_size():
    """type= of run/scan --size: a size the protocol carries (the robot says which it turns)."""
    from cubebot.solver.facelets import MAX_SIZE, MIN_SIZE
    return arg_int(MIN_SIZE, MAX_SIZE)


def _state_arg():
    """type= of solve STATE: no longer than the protocol's limit (the robot checks the rest)."""
    from cubebot.robot.inputs import BadValue, arg_rule, short
    from cubebot.robot.link.protocol import MAX_STATE_CHARS

    def check(text):
        if not 0 < len(text) <= MAX_STATE_CHARS:
            raise BadValue("{} has {} characters; a cube has 24..{}".format(
                short(text), len(text), MAX_STATE_CHARS))
        return text
    return arg_rule(check, "state")


class _Out(object):
    """Where results go: raw messages with --json, readable lines otherwise."""

    def __init__(self, raw, stream=None):
        self.raw = raw
        self.stream = stream or sys.stdout

    def message(self, message):
        if self.raw:
            self.line(json.dumps(message, sort_keys=True))

    def text(self, text):
        if not self.raw and text is not None:
            self.line(text)

    def line(self, text):
        self.stream.write(text + "\n")
        self.stream.flush()


def _request(link, out, cmd, timeout_s=None, **fields):
    """Send a request, print its reply with --json; the result, or raise."""
    from cubebot.robot.cli.main import UsageError
    from cubebot.robot.errors import RemoteError
    from cubebot.robot.link.protocol import BAD_INPUT_CODES
    reply = link.request_raw(cmd, timeout_s, **fields)
    out.message(reply)
    if not reply.get("ok"):
        text = "robot: {}".format(reply.get("error", "request failed"))
        if reply.get("code") in BAD_INPUT_CODES:
            raise UsageError(text)
        raise RemoteError(text, reply.get("code", "failed"))
    return reply.get("result") or {}


def _status(link, out, args):
    from cubebot.robot.ui.watch import summary
    status = _request(link, out, "status")
    out.text("state: {}{}, size {}".format(status.get("state"), " (running)" if status.get("running") else "",
                                           status.get("size")))
    out.text("last: " + summary(status.get("last_result")))
    return 0


def _ping(link, out, args):
    start = time.time()
    _request(link, out, "ping")
    out.text("pong from {} in {:.1f} ms".format(args.port, 1000.0 * (time.time() - start)))
    return 0


def _follow(link, out):
    """Print the events of the run just started until it ends; its exit code."""
    from cubebot.robot.errors import LinkError
    from cubebot.robot.ui.watch import describe, run_exit_code
    from cubebot.robot.ui.watcher import WATCH_POLL_S
    last = time.time()
    while True:
        message = link.next_event(WATCH_POLL_S)
        if message is None:
            if time.time() - last > RUN_SILENCE_S:
                raise LinkError("no event from the robot for {:g} s".format(RUN_SILENCE_S))
            continue
        last = time.time()
        out.message(message)
        out.text(describe(message))
        if message.get("event") in ("finished", "error"):
            return run_exit_code(message)


def _start(link, out, args):
    link.drain_events()
    fields = dict((k, getattr(args, k)) for k in ("size", "seed") if getattr(args, k) is not None)
    _request(link, out, args.action, **fields)
    return _follow(link, out)


def _stop(link, out, args):
    result = _request(link, out, "stop")
    out.text("stop requested" if result.get("stopping") else "nothing was running")
    return 0


def _solve(link, out, args):
    result = _request(link, out, "solve", SOLVE_TIMEOUT_S, state=args.state)
    out.text("{} ({} moves, {:.3f} s on the robot)".format(
        " ".join(result.get("moves", [])) or "(already solved)", result.get("length", 0), result.get("seconds", 0.0)))
    return 0


def _last_scan(link, out, args):
    result = _request(link, out, "last_scan")
    out.text(json.dumps(result.get("readings"), sort_keys=True))
    return 0


ACTIONS = {"status": _status, "ping": _ping, "run": _start, "scan": _start, "stop": _stop,
           "solve": _solve, "last-scan": _last_scan}


class _PairingClient(object):
    """A LinkClient that sends the pairing code (--code) right after it opens."""

    def __init__(self, client, code):
        self.client = client
        self.code = code

    def __enter__(self):
        link = self.client.open()
        try:
            link.request("pair", code=self.code)
        except BaseException:
            link.close()
            raise
        return link

    def __exit__(self, *exc):
        self.client.close()
        return False


def _client(args):
    from cubebot.robot.link.client import DEFAULT_TIMEOUT_S, LinkClient
    from cubebot.robot.link.server import DEFAULT_BAUD, open_serial
    from cubebot.robot.link.tcp import is_tcp, open_tcp
    client = LinkClient(args.port, args.baud or DEFAULT_BAUD,
                        args.timeout if args.timeout is not None else DEFAULT_TIMEOUT_S,
                        opener=open_tcp if is_tcp(args.port) else open_serial)
    code = getattr(args, "code", None)        # callers may build args without it
    return _PairingClient(client, code) if code is not None else client


def run(args):
    out = _Out(args.json)
    if args.action == "watch":
        from cubebot.robot.ui.watcher import watch
        return watch(_client, args, out)
    with _client(args) as link:
        return ACTIONS[args.action](link, out, args)
