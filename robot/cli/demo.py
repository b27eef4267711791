"""`cubebot demo`: the whole job on a simulated MINDCUB3R.

Scrambles a virtual cube (a random one, or the one of --seed), scans it with the simulated colour
sensor, resolves the colours, solves, plans the mechanism's actions and runs
them on the simulated robot, then checks that the cube is solved. Prints the
scanned net, the solution, the action counts and the estimated robot time
(scan, compute on the brick, turning) and the seed, so that the same cube
can be run again with --seed; --json prints one object instead (its "seed").
Exit 0 if the cube ends solved, 1 if the job failed, 2 for bad input (an
option, the config, a missing table).
"""

import json
import sys

from cubebot.robot.inputs import arg_seconds, arg_seed, arg_size, arg_writable_dir

from cubebot.robot.machine.config import SIZES


def robot_size_type():
    """type= of --size for the commands that drive the robot: one of SIZES."""
    return arg_size(lambda: SIZES, "the robot turns")


def _max_budget_s():
    from cubebot.solver.api import MAX_BUDGET_S
    return MAX_BUDGET_S


def register(subparsers):
    parser = subparsers.add_parser(
        "demo", help="scramble, scan, solve and turn a cube on the simulated robot",
        description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=robot_size_type(), default=3, help="cube size (default 3)")
    parser.add_argument("--seed", type=arg_seed(), default=None,
                        help="seed of the scramble and the sensor (default: a random one, printed)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--config", metavar="FILE", help="mechanism settings (JSON) overriding the defaults")
    parser.add_argument("--debug", action="store_true", help="check the simulated cube after every action")
    parser.add_argument("--noise", choices=("low", "moderate", "high"), default="moderate",
                        help="colour sensor noise (default moderate, like a real sensor)")
    parser.add_argument("--budget", type=arg_seconds(0, _max_budget_s()), default=None,
                        help="solver time budget in seconds (3x3x3: more time, more candidates)")
    parser.add_argument("--fault", choices=("dead-sensor", "stuck-table", "slip"), default=None,
                        help="inject a fault into the simulated robot (to see how a run fails)")
    parser.add_argument("--virtual-brick", action="store_true",
                        help="drive the simulated cube through python-ev3dev2 on a virtual brick "
                             "(fake sysfs with motor physics; slower, real library)")
    parser.add_argument("--screenshots", metavar="DIR", default=None, type=arg_writable_dir("screenshot folder"),
                        help="with --virtual-brick: save the brick's screens as PNG files in DIR")
    parser.set_defaults(run=run)


def _seconds(value):
    return "{:6.1f} s".format(value)


def _range(result, key):
    """'12.3-36.9 s' from KEY_range_seconds, else KEY_seconds alone."""
    bounds = result.get(key + "_range_seconds")
    if not bounds or bounds[1] - bounds[0] < 0.05:
        return _seconds(result.get(key + "_seconds", 0.0)).strip()
    return "{:.1f}-{:.1f} s".format(bounds[0], bounds[1])


def report(result, color):
    """The human-readable report of a run result."""
    from cubebot.robot.machine import actions as act
    from cubebot.robot.ui.netview import render_net
    lines = []
    if result.get("state"):
        lines.append("scanned cube:")
        lines.append(render_net(result["state"], color=color))
    if result.get("doubtful"):
        lines.append("doubtful facelets (URFDLB indices): {}".format(
            " ".join(str(i) for i in result["doubtful"])))
    if result.get("error"):
        lines.append("error: " + result["error"])
    if result.get("moves"):
        lines.append("solution ({} moves): {}".format(len(result["moves"]), " ".join(result["moves"])))
        lines.append("actions: " + ", ".join("{} {}".format(result["actions"][k], k) for k in act.KINDS))
    lines.append("estimated robot time: scan {}, compute {}, turning {}, check {}, total {}".format(
        _seconds(result.get("scan_seconds", 0.0)).strip(),
        _range(result, "compute"), _seconds(result.get("turn_seconds", 0.0)).strip(),
        _seconds(result.get("check_seconds", 0.0)).strip(), _range(result, "total")))
    if result.get("check"):
        lines.append("check at the end: {} facelets read, {}{}".format(
            result["check"]["read"], "all as solved" if result["check"]["ok"] else "a slip seen",
            "" if not result.get("retries") else "; {} slip(s) caught earlier, the cube rescanned and "
            "solved again".format(result["retries"])))
    if result.get("naive_seconds"):
        lines.append("turning as planned {}; the naive planner would take {}".format(
            _seconds(result["planned_seconds"]).strip(), _seconds(result["naive_seconds"]).strip()))
    lines.append("solved" if result.get("solved") else "NOT solved")
    if result.get("seed") is not None:
        lines.append("seed {0} (run this cube again with --seed {0})".format(result["seed"]))
    return "\n".join(lines)


def run(args):
    from cubebot.solver.errors import CubeError, NoSolver, TableError
    from cubebot.robot.machine.config import load_config
    from cubebot.robot.inputs import random_seed
    from cubebot.robot.errors import ConfigError, RobotError
    from cubebot.robot.job.pipeline import run_job
    from cubebot.robot.job.robots import make_sim_robot
    from cubebot.robot.cli.main import UsageError
    from cubebot.robot.ui.netview import color_wanted
    config = load_config(args.config)
    if args.screenshots and not args.virtual_brick:
        raise UsageError("--screenshots needs --virtual-brick")
    if args.seed is None:
        args.seed = random_seed()
    opened, feed = None, None
    if args.virtual_brick:
        from cubebot.robot.job.robots import open_virtual_robot
        screen = None
        if args.screenshots:
            from cubebot.robot.ui.screenfeed import ScreenFeed
            from cubebot.robot.hw.virtual_brick.screen import PngScreen
            screen = PngScreen(args.screenshots)
            feed = ScreenFeed(screen, args.size)
        opened = open_virtual_robot(args.size, args.seed, config=config, noise=args.noise,
                                    debug=args.debug, fault=args.fault, screen=screen)
        robot = opened.robot
    else:
        robot = make_sim_robot(args.size, args.seed, config=config, noise=args.noise, debug=args.debug,
                               fault=args.fault)
    try:
        result = run_job(robot, args.size, budget=args.budget, emit=feed)
    except (ConfigError, TableError, NoSolver):
        raise                             # bad input: one line on stderr, exit 2
    except (RobotError, CubeError) as exc:
        result = {"solved": False, "size": args.size, "error": str(exc)}
    finally:
        if opened is not None:
            opened.close()
    if feed is not None:
        feed.finish(result)
    result["seed"] = args.seed
    if args.json:
        sys.stdout.write(json.dumps(result, sort_keys=True) + "\n")
    else:
        sys.stdout.write(report(result, color=color_wanted(sys.stdout)) + "\n")
    return 0 if result.get("solved") else 1
