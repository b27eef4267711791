"""The `cubebot` command line: a thin dispatcher over cubebot.robot.cli.

`main(argv=None) -> int` is the console script. User mistakes (a bad state,
a missing file, a bad setting, an option out of range) print one line on
stderr and return 2; no traceback is shown for them. Exit codes (README):
0 ok, 1 the job failed, 2 bad input, 3 a scan that does not read as a cube,
130 interrupted.
"""

import argparse
import errno
import importlib
import os
import pkgutil
import sys

from cubebot.solver.errors import CubeError, InvalidCube, NoSolver, TableError
from cubebot.robot.errors import ConfigError, RobotError
from cubebot.robot.inputs import BadValue


EXIT_OK = 0
EXIT_FAULT = 1                # the job failed (a fault, an unsolved cube, failed batch lines)
EXIT_USAGE = 2                # bad input: an option, a file, a state, a setting
EXIT_UNREADABLE_SCAN = 3      # a scan that does not resolve to a cube
EXIT_INTERRUPTED = 130        # Ctrl-C
# errno values of a write that fails during the work: a fault of the disk, not bad input
DISK_FAULTS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)
STDOUT_NAME = "output (stdout)"   # the file name of an OSError raised writing the output


class UsageError(ValueError):
    """A user mistake found by a command (bad file, bad option value)."""


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line on stderr and exit code 2."""

    def error(self, message):
        sys.stderr.write("{}: error: {}\n".format(self.prog, message))
        sys.exit(EXIT_USAGE)

# Imports that only some commands need -> the package that provides them (extra "ev3").
OPTIONAL = {"ev3dev2": "python-ev3dev2", "PIL": "Pillow"}


def command_modules():
    """Names of the modules in cubebot.robot.cli, sorted (each one subcommand)."""
    from cubebot.robot import cli as commands
    return sorted(name for _, name, _ in pkgutil.iter_modules(commands.__path__)
                  if not name.startswith("_") and name != __name__.rsplit(".", 1)[-1])


def build_parser():
    """The full argument parser with every subcommand registered."""
    parser = _Parser(prog="cubebot", description="Scan, solve and turn a Rubik's cube with an EV3 robot.")
    from cubebot.robot import __version__
    parser.add_argument("--version", action="version", version="cubebot " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in command_modules():
        module = importlib.import_module("cubebot.robot.cli." + name)
        module.register(sub)
    return parser


def main(argv=None):
    """Run one `cubebot` subcommand; return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        if getattr(args, "command", None):
            # a command with actions (tables) given none: one line, like any usage error
            sys.stderr.write("cubebot {0}: error: give an action: cubebot {0} --help lists them\n".format(
                args.command))
        else:
            parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.run(args)
    except (InvalidCube, NoSolver, TableError, ConfigError, UsageError, BadValue) as exc:
        sys.stderr.write("cubebot: error: {}\n".format(exc))
        return EXIT_USAGE
    except (CubeError, RobotError) as exc:
        sys.stderr.write("cubebot: {}\n".format(exc))
        return EXIT_FAULT
    except KeyboardInterrupt:
        sys.stderr.write("cubebot: interrupted\n")
        return EXIT_INTERRUPTED
    except MemoryError:
        sys.stderr.write("cubebot: out of memory\n")
        return EXIT_FAULT
    except EnvironmentError as exc:
        if exc.errno not in DISK_FAULTS:
            raise
        if str(exc.filename).endswith("(stdout)"):
            _drop_stdout()
        sys.stderr.write("cubebot: cannot write {}: {}\n".format(exc.filename or "a file", exc.strerror))
        return EXIT_FAULT
    except ImportError as exc:
        missing = (getattr(exc, "name", None) or "").split(".")[0]
        if missing not in OPTIONAL:
            raise
        sys.stderr.write("cubebot: error: this command needs {} ({}): pip install 'cubebot[ev3]'\n".format(
            OPTIONAL[missing], missing))
        return EXIT_USAGE


def _drop_stdout():
    """After a failed write to stdout, point it at the null device: the output kept in its
    buffer cannot be written, and flushing it again at exit would print a second error."""
    try:
        fileno = sys.stdout.fileno()
    except (AttributeError, ValueError, EnvironmentError):
        return                              # not a file (a test's capture): nothing to drop
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fileno)
    finally:
        os.close(devnull)


def write_output(text):
    """Write and flush `text` on stdout; a failed write is an EnvironmentError named STDOUT_NAME."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except EnvironmentError as exc:
        raise OSError(exc.errno, exc.strerror, "the " + STDOUT_NAME)


if __name__ == "__main__":
    # Run the imported module's main, so that `python -m cubebot.robot.cli.main`
    # and the commands share one set of classes (UsageError) rather than two.
    from cubebot.robot.cli.main import main as _main
    sys.exit(_main())
