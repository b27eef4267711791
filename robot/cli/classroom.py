"""`cubebot classroom --sim | --port DEVICE | --tcp HOST:PORT`: the robot's run on a browser page.

Starts a web server on this laptop (127.0.0.1 by default) and opens the
browser on its page, made for a projector: the robot's state, timers, the
net as the sensor reads it, the cube in 3D, the solution, Run/Scan/Stop and
the lesson's runs. The robot is the simulated one in this process (--sim),
or a brick over a serial link (--port, e.g. Bluetooth /dev/rfcomm0) or over
TCP (--tcp, `cubebot run --tcp` or `cubebot serve --tcp` on the brick; type the
pairing code its screen shows into the page, or pass --code). Ctrl-C ends it. See docs/classroom.md.
"""

import os
import signal
import sys
import threading

from cubebot.robot.inputs import BadValue, arg_int, arg_rule, arg_seed, arg_writable_file, short

DEFAULT_LOG = os.path.join("~", ".cubebot", "classroom-runs.json")
MAX_SPEED = 1000              # --speed: the simulated robot at most this many times real time
STOP_WAIT_S = 30.0            # on the way out: how long a stopped run may take to leave the robot safe
MAX_CODE_CHARS = 32


def register(subparsers):
    from cubebot.robot.cli.demo import robot_size_type
    from cubebot.robot.cli.serve import arg_address
    from cubebot.robot.ui.classroom import DEFAULT_HOST, DEFAULT_PORT
    parser = subparsers.add_parser("classroom", help="the robot's run on a browser page, for a projector",
                                   description=__doc__.split("\n\n")[0])
    robot = parser.add_mutually_exclusive_group(required=True)
    robot.add_argument("--sim", action="store_true", help="the simulated robot, in this process")
    robot.add_argument("--port", metavar="DEVICE", help="a robot on a serial link (cubebot serve --port)")
    robot.add_argument("--tcp", type=arg_address(), metavar="HOST:PORT",
                       help="a robot on TCP (cubebot run/serve --tcp), over USB networking or Wi-Fi")
    parser.add_argument("--code", type=code_arg(), default=None,
                        help="--tcp: the pairing code on the brick's screen (or type it into the page)")
    parser.add_argument("--host", type=_host_arg(), default=DEFAULT_HOST,
                        help="address the page is served on (default {}: this laptop only)".format(DEFAULT_HOST))
    parser.add_argument("--http-port", type=arg_int(0, 65535), default=DEFAULT_PORT,
                        help="TCP port of the page (default {}; 0 picks a free one)".format(DEFAULT_PORT))
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser (print the address)")
    parser.add_argument("--log", type=arg_writable_file("the run log"), default=None, metavar="FILE",
                        help="the lesson's run log (default {})".format(DEFAULT_LOG))
    parser.add_argument("--size", type=robot_size_type(), default=3, help="--sim: the cube size of a run")
    parser.add_argument("--seed", type=arg_seed(), default=0, help="--sim: the seed of the first cube")
    parser.add_argument("--speed", type=arg_int(1, MAX_SPEED), default=1,
                        help="--sim: how many times faster than the real robot (default 1)")
    parser.set_defaults(run=run)


def code_arg():
    def check(text):
        code = "".join(text.split())
        if not code or len(code) > MAX_CODE_CHARS or not code.isdigit():
            raise BadValue("{} is not a pairing code: the digits on the brick's screen".format(short(text)))
        return code
    return arg_rule(check, "code")


def _host_arg():
    def check(text):
        import socket
        if text == "localhost":
            return text
        for family in (socket.AF_INET, socket.AF_INET6):
            try:
                socket.inet_pton(family, text)
                return text
            except (OSError, ValueError):
                continue
        raise BadValue("{} is not an IP address (or localhost) to serve the page on".format(short(text)))
    return arg_rule(check, "host")


def _source(args):
    """(source, what to close after) for the robot the arguments name."""
    from cubebot.robot.machine.config import SIZES
    from cubebot.robot.ui.classroom.sources import LinkSource, ServiceSource
    if args.sim:
        from cubebot.robot.cli.serve import hardware_service
        from cubebot.robot.job.robots import SIM
        from cubebot.robot.machine.config import Config
        service, opened = hardware_service(SIM, args.size, Config(), args.seed, pace=args.speed)
        return ServiceSource(service, SIZES, "the simulated robot"), (service, opened)
    if args.tcp is not None:
        from cubebot.robot.link.tcp import open_tcp
        device = "tcp://{}:{}".format(args.tcp[0], args.tcp[1])
        return LinkSource(device, open_tcp, target="tcp {}:{}".format(*args.tcp), code=args.code), None
    from cubebot.robot.link.server import open_serial
    return LinkSource(args.port, open_serial, target=args.port), None


def run(args):
    from cubebot.robot.cli.main import UsageError
    from cubebot.robot.errors import RobotError
    from cubebot.robot.ui.classroom.board import Board
    from cubebot.robot.ui.classroom.runlog import RunLog
    from cubebot.robot.ui.classroom.server import ClassroomServer
    try:
        runlog = RunLog(args.log or os.path.expanduser(DEFAULT_LOG))
    except ValueError as exc:
        raise UsageError(str(exc))
    source, owned = _source(args)
    board = Board(source.target, history=runlog.runs, on_run_end=runlog.add)
    try:
        server = ClassroomServer(source, board, runlog, args.host, args.http_port)
    except OSError as exc:
        _close(source, owned)
        raise RobotError(str(exc))
    source.start(board)
    server.start()
    sys.stdout.write("classroom: {} (Ctrl-C to end)\n".format(server.url))
    sys.stdout.flush()
    if not args.no_browser:
        import webbrowser
        webbrowser.open(server.url)
    done = threading.Event()
    previous = []
    for name in ("SIGINT", "SIGTERM"):
        sig = getattr(signal, name, None)
        if sig is not None:
            previous.append((sig, signal.signal(sig, lambda signum, frame: done.set())))
    try:
        while not done.wait(0.5):
            pass
    finally:
        for sig, handler in previous:
            signal.signal(sig, handler)
        server.close()
        _close(source, owned)
    return 0


def _close(source, owned):
    source.close()
    if owned is not None:
        service, opened = owned
        if service.stop():
            service.wait(STOP_WAIT_S)
        opened.close()
