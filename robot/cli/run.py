"""`cubebot run [--virtual-brick | --sim] [--tcp [HOST:]PORT]`: the resident brick app (cubebot.robot.ui.app).

Opens the robot once, then waits for a cube or ENTER, scans, solves, turns,
shows the result, and waits again; it never exits on a cube or motor fault.
--link DEVICE also serves the serial link; --tcp serves the link on a TCP
port (USB networking, Wi-Fi), and the ready screen shows the brick's name,
addresses, port and a pairing code, new at each start, that a laptop must
send before it may move the robot (watching needs none).
--keys reads ENTER/u/d/b/q lines from stdin as buttons (SSH, virtual brick);
--screenshots DIR saves every screen as a PNG (virtual brick and sim).
On the simulated backends each run puts a freshly scrambled cube (seeded)
on the table.
"""

import os

from cubebot.robot.inputs import arg_int, arg_seed, arg_writable_dir, arg_writable_file

DEFAULT_HOME = os.path.join("~", ".cubebot")
LINK_CLOSE_S = 5.0            # at exit: how long the serial or TCP link may take to close
MAX_RUNS = 10 ** 6            # --runs: a bound, not a real limit


def register(subparsers):
    from cubebot.robot.job.robots import add_backend_arguments
    parser = subparsers.add_parser("run", help="the resident brick app: solve at the press of a button")
    add_backend_arguments(parser)
    parser.add_argument("--settings", default=os.path.join(DEFAULT_HOME, "app.json"),
                        type=arg_writable_file("settings file"),
                        help="where the chosen cube size is remembered (default: %(default)s)")
    parser.add_argument("--log-file", default=os.path.join(DEFAULT_HOME, "cubebot.log"),
                        type=arg_writable_file("log file"),
                        help="rotating log file (default: %(default)s); stderr gets the log too")
    parser.add_argument("--record", default=os.path.join(DEFAULT_HOME, "last-run.json"),
                        type=arg_writable_file("run record"),
                        help="where each run's state is recorded as it goes, so that after a power or "
                             "link loss the app says how far the last run got (default: %(default)s)")
    parser.add_argument("--screenshots", metavar="DIR", default=None, type=arg_writable_dir("screenshot folder"),
                        help="simulated backends: save each screen as a PNG in DIR")
    parser.add_argument("--keys", action="store_true",
                        help="stdin lines act as buttons: empty=ENTER, u=UP, d=DOWN, b=BACKSPACE, q=quit")
    parser.add_argument("--seed", type=arg_seed(), default=0, help="simulated backends: seed of the first cube")
    parser.add_argument("--runs", type=arg_int(1, MAX_RUNS), default=None, help="quit after this many runs")
    parser.add_argument("--link", metavar="DEVICE", default=None,
                        help="also serve the serial link on DEVICE (e.g. /dev/rfcomm0): `cubebot remote` "
                             "can then watch and start runs too")
    from cubebot.robot.cli.serve import arg_address
    parser.add_argument("--tcp", type=arg_address(), metavar="[HOST:]PORT", default=None,
                        help="also serve the link on TCP (HOST default: every network), behind the pairing "
                             "code the screen shows: `cubebot classroom --tcp` and `cubebot remote` use it")
    parser.set_defaults(run=run)


def run(args):
    from cubebot.robot.ui.app import App, Settings, setup_logging
    from cubebot.robot.job.robots import EV3, colour_profile, open_backend, robot_config, robot_factory
    from cubebot.robot.cli.main import UsageError
    from cubebot.robot.hw.ev3.devices import RealClock
    from cubebot.robot.job.service import RobotService
    if args.screenshots and args.backend == EV3:
        raise UsageError("--screenshots works with --virtual-brick or --sim (the brick has its LCD)")
    config = robot_config(args.config, args.backend)
    profile = colour_profile(args.profile, args.backend)
    setup_logging(os.path.expanduser(args.log_file) if args.log_file else None)
    screen = None
    if args.screenshots:
        from cubebot.robot.hw.virtual_brick.screen import PngScreen
        screen = PngScreen(args.screenshots)
    opened = open_backend(args.backend, config, state=None, seed=args.seed, screen=screen)
    with opened:
        hw = opened.hw
        if args.keys:
            from cubebot.robot.ui.keys import StdinButtons
            hw.buttons = StdinButtons()
        service = RobotService(robot_factory(opened, config, args.seed, profile),
                               record_path=os.path.expanduser(args.record))
        servers = []
        _exit_on_sigterm()
        try:
            tcp = None
            if args.tcp is not None:
                from cubebot.robot.cli.serve import log_pairing, tcp_server
                tcp = tcp_server(service, args.tcp)
                servers.append(tcp.start())
                log_pairing(tcp)
            if args.link:
                from cubebot.robot.machine.config import SIZES
                from cubebot.robot.link.server import LinkServer
                servers.append(LinkServer(service, args.link, sizes=SIZES).start())
            app = App(service, hw, Settings(os.path.expanduser(args.settings)), RealClock(),
                      config.cube_present_cm, link=tcp)

            def should_exit():
                idle = app.mode != "working"
                if args.runs is not None and app.finished_runs >= args.runs and idle:
                    return True
                return idle and bool(getattr(hw.buttons, "quit", False))
            app.run(should_exit)
        finally:
            for server in servers:
                server.close(LINK_CLOSE_S)
            service.stop()
            service.wait()
    return 0


def _exit_on_sigterm():
    """systemd stops the app with SIGTERM: unwind (stop the run, motors safe)."""
    import signal

    def handler(signum, frame):
        raise SystemExit(0)
    signal.signal(signal.SIGTERM, handler)
