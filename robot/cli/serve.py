"""`cubebot serve --port DEVICE | --tcp [HOST:]PORT [--sim | --virtual-brick]`: the robot behind a link.

Opens DEVICE (a Bluetooth RFCOMM tty such as /dev/rfcomm0, a USB-serial
adapter, a pty) with pyserial, says hello, forwards the robot's events and
answers requests (docs/serial-protocol.md). A vanished device is reported
and waited for; SIGINT/SIGTERM stop any run (robot left safe) and exit 0.
With --tcp it listens on a TCP port instead (the network of the EV3's USB
cable or a Wi-Fi dongle) and shows its name and a pairing code on the
brick's screen (and on stderr): a laptop must send that code before it may
move the robot. With --sim every run gets a freshly scrambled simulated cube (seeded).
"""

import logging
import signal
import sys

from cubebot.robot.inputs import BadValue, arg_int, arg_rule, arg_seed, short
from cubebot.robot.cli.demo import robot_size_type

STOP_WAIT_S = 30.0            # on shutdown: how long to wait for a stopped run to leave the robot safe


def register(subparsers):
    from cubebot.robot.job.robots import add_backend_arguments
    parser = subparsers.add_parser("serve", help="run the robot behind a serial link (see cubebot remote)",
                                   description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", metavar="DEVICE",
                       help="serial device, e.g. /dev/rfcomm0 or a pty (a pyserial URL works too)")
    where.add_argument("--tcp", type=arg_address(), metavar="[HOST:]PORT",
                       help="listen on TCP instead (HOST default: every network), behind a pairing code")
    from cubebot.robot.link.server import BAUD_RANGE
    parser.add_argument("--baud", type=arg_int(*BAUD_RANGE), default=None,
                        help="baud rate (default 115200; ignored by ptys and RFCOMM)")
    add_backend_arguments(parser)
    parser.add_argument("--size", type=robot_size_type(), default=3, help="default cube size of a run (2 or 3)")
    parser.add_argument("--seed", type=arg_seed(), default=0,
                        help="simulated backends: seed of the first cube; each run without a seed takes the next")
    parser.set_defaults(run=run)


def arg_address():
    """type= of --tcp: [HOST:]PORT."""
    def check(text):
        from cubebot.robot.link.tcp import parse_address
        try:
            return parse_address(text.strip())
        except ValueError:
            raise BadValue("{} is not [HOST:]PORT with a port 0..65535".format(short(text)))
    return arg_rule(check, "address")


def sim_service(size, first_seed=0, config=None, profile=None):
    """A RobotService on the simulated robot, built as every command builds one
    (cubebot.robot.job.robots): a run started with a seed gets that seed's cube (the
    one `demo --seed S` solves); runs without one take first_seed, first_seed + 1, ...
    """
    from cubebot.robot.job.robots import SIM
    from cubebot.robot.machine.config import Config
    return hardware_service(SIM, size, config or Config(), first_seed, profile)[0]


def hardware_service(kind, size, config, first_seed=0, profile=None, pace=None):
    """(RobotService, OpenRobot) on a robot of any kind; close the OpenRobot after.
    pace: the simulated robot's speed against real time (see open_backend)."""
    from cubebot.robot.job.robots import open_backend, robot_factory
    from cubebot.robot.job.service import RobotService
    opened = open_backend(kind, config, state=None, seed=first_seed, pace=pace)
    battery = getattr(opened.hw, "battery", None)
    return RobotService(robot_factory(opened, config, first_seed, profile), default_size=size,
                        battery=battery.read_voltage_v if battery is not None else None), opened


def link_server(service, device, baud=None, **options):
    """The LinkServer `serve` runs: the sizes the robot turns, default baud; options go to LinkServer."""
    from cubebot.robot.link.server import DEFAULT_BAUD, LinkServer
    from cubebot.robot.machine.config import SIZES
    return LinkServer(service, device, baud or DEFAULT_BAUD, sizes=SIZES, **options)


def _stderr_logging():
    log = logging.getLogger("cubebot")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("serve: %(message)s"))
        log.addHandler(handler)
    log.setLevel(logging.INFO)


def tcp_server(service, address, pairing=None):
    """The TcpLinkServer `serve --tcp` runs (bound already); raises RobotError if the port is taken."""
    from cubebot.robot.errors import RobotError
    from cubebot.robot.link.tcp import TcpLinkServer
    from cubebot.robot.machine.config import SIZES
    try:
        return TcpLinkServer(service, address[0], address[1], sizes=SIZES, pairing=pairing)
    except OSError as exc:
        raise RobotError("cannot listen on {}:{}: {}".format(address[0], address[1], exc.strerror or exc))


def log_pairing(server):
    """The log line that tells where the link listens and its pairing code (the journal on the brick)."""
    host, port = server.address
    logging.getLogger("cubebot.link").info("listening on %s:%s as %s, pairing code %s (addresses: %s)",
                                           host, port, server.pairing.name, server.pairing.code,
                                           ", ".join(server.addresses()) or "none yet")


def show_pairing(opened, server):
    """The brick's name, addresses and pairing code: on its screen (if any) and in the log."""
    log_pairing(server)
    screen = getattr(opened.hw, "screen", None)
    if screen is None:
        return
    try:
        from cubebot.robot.ui.screens import pairing_screen
        name, addresses, port, code = server.advert()
        screen.show(pairing_screen(name, code, port, addresses))
    except ImportError:                    # no Pillow: the log line has it
        pass


def run(args):
    from cubebot.robot.job.robots import colour_profile, robot_config
    config = robot_config(args.config, args.backend)
    profile = colour_profile(args.profile, args.backend)
    _stderr_logging()
    service, opened = hardware_service(args.backend, args.size, config, args.seed, profile)
    if args.tcp is not None:
        try:
            server = tcp_server(service, args.tcp)
        except BaseException:
            opened.close()
            raise
        show_pairing(opened, server)
    else:
        server = link_server(service, args.port, args.baud)

    def on_signal(signum, frame):
        server.close()
    previous = [(sig, signal.signal(sig, on_signal)) for sig in (signal.SIGINT, signal.SIGTERM)]
    logging.getLogger("cubebot.link").info("serving the %s robot on %s (Ctrl-C to end)", args.backend,
                                           args.port or "tcp port {}".format(server.address[1]))
    try:
        server.serve_forever()
    finally:
        for sig, handler in previous:
            signal.signal(sig, handler)
        if service.stop():
            service.wait(STOP_WAIT_S)
        opened.close()
    logging.getLogger("cubebot.link").info("stopped")
    return 0
