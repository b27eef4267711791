"""`cubebot serve --port DEVICE [--baud B] [--sim | --virtual-brick]`: the robot behind a serial link.

Opens DEVICE (a Bluetooth RFCOMM tty such as /dev/rfcomm0, a USB-serial
adapter, a pty) with pyserial, says hello, forwards the robot's events and
answers requests (docs/serial-protocol.md). A vanished device is reported
and waited for; SIGINT/SIGTERM stop any run (robot left safe) and exit 0.
With --sim every run gets a freshly scrambled simulated cube (seeded).
"""

import logging
import signal
import sys

from cubebot.robot.inputs import arg_int, arg_seed
from cubebot.robot.cli.demo import robot_size_type

STOP_WAIT_S = 30.0            # on shutdown: how long to wait for a stopped run to leave the robot safe


def register(subparsers):
    from cubebot.robot.job.robots import add_backend_arguments
    parser = subparsers.add_parser("serve", help="run the robot behind a serial link (see cubebot remote)",
                                   description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", required=True, metavar="DEVICE",
                        help="serial device, e.g. /dev/rfcomm0 or a pty (a pyserial URL works too)")
    from cubebot.robot.link.server import BAUD_RANGE
    parser.add_argument("--baud", type=arg_int(*BAUD_RANGE), default=None,
                        help="baud rate (default 115200; ignored by ptys and RFCOMM)")
    add_backend_arguments(parser)
    parser.add_argument("--size", type=robot_size_type(), default=3, help="default cube size of a run (2 or 3)")
    parser.add_argument("--seed", type=arg_seed(), default=0,
                        help="simulated backends: seed of the first cube; each run without a seed takes the next")
    parser.set_defaults(run=run)


def sim_service(size, first_seed=0, config=None, profile=None):
    """A RobotService on the simulated robot, built as every command builds one
    (cubebot.robot.job.robots): a run started with a seed gets that seed's cube (the
    one `demo --seed S` solves); runs without one take first_seed, first_seed + 1, ...
    """
    from cubebot.robot.job.robots import SIM
    from cubebot.robot.machine.config import Config
    return hardware_service(SIM, size, config or Config(), first_seed, profile)[0]


def hardware_service(kind, size, config, first_seed=0, profile=None):
    """(RobotService, OpenRobot) on a robot of any kind; close the OpenRobot after."""
    from cubebot.robot.job.robots import open_backend, robot_factory
    from cubebot.robot.job.service import RobotService
    opened = open_backend(kind, config, state=None, seed=first_seed)
    return RobotService(robot_factory(opened, config, first_seed, profile), default_size=size), opened


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


def run(args):
    from cubebot.robot.job.robots import colour_profile, robot_config
    config = robot_config(args.config, args.backend)
    profile = colour_profile(args.profile, args.backend)
    _stderr_logging()
    service, opened = hardware_service(args.backend, args.size, config, args.seed, profile)
    server = link_server(service, args.port, args.baud)

    def on_signal(signum, frame):
        server.close()
    previous = [(sig, signal.signal(sig, on_signal)) for sig in (signal.SIGINT, signal.SIGTERM)]
    logging.getLogger("cubebot.link").info("serving the %s robot on %s (Ctrl-C to end)", args.backend, args.port)
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
