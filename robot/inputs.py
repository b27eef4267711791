"""The rules every value from outside passes, written once.

Numbers, texts and paths arrive through the command line, config files, scan
and batch files and the serial link. Each entrance checks them with these
rules before any work starts:

  number(value, low, high, integer=False)   a finite int/float within [low, high]
  parse_number(text, low, high, integer)    the same for a command-line string
  decode(data, what)                        bytes -> str (UTF-8, BOM allowed)
  read_text(path, what, limit_bytes)        a whole file (or "-" for stdin), bounded
  writable_dir(path, what)                  a folder that exists (made if missing) and takes files
  writable_file(path, what)                 a file path whose folder takes files
  short(value)                              a value shortened for a one-line message

Every failure raises BadValue (a ValueError) whose message is one line naming
the value and the limit; each entrance wraps it in its own error (ConfigError,
MalformedScan, a usage error, argparse's). The `arg_*` functions turn the
rules into argparse `type=` functions, so a bad option is refused by the
parser with one line and exit code 2.
"""

import argparse
import io
import json
import math
import os
import sys
import tempfile

from cubebot.robot.errors import ConfigError

MAX_TEXT_BYTES = 1 << 20          # a config, scan or settings file is far smaller than 1 MiB
SHORT_CHARS = 40                  # how much of a bad value a message repeats
PROBE_PREFIX = ".cubebot-probe."  # name of the temporary file that tests a folder
MAX_SEED = 2 ** 53                # seeds travel over the serial link as JSON numbers


class BadValue(ValueError):
    """A value from outside breaks a rule; the message names it and the limit."""


def short(value):
    """repr(value), cut to SHORT_CHARS characters (a 400-digit number stays one short line)."""
    text = repr(value)
    if len(text) > SHORT_CHARS:
        text = text[:SHORT_CHARS - 3] + "..."
    return text


def _limits(low, high):
    if low is None and high is None:
        return ""
    if high is None:
        return " >= {}".format(low)
    if low is None:
        return " <= {}".format(high)
    return " between {} and {}".format(low, high)


def number(value, low=None, high=None, integer=False):
    """`value` as an int (integer=True) or a float, checked; BadValue if it is not
    a finite number within [low, high] (None: unbounded on that side)."""
    kind = "an integer" if integer else "a number"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadValue("{} is not {}{}".format(short(value), kind, _limits(low, high)))
    if isinstance(value, float) and not math.isfinite(value):
        raise BadValue("{} is not a finite number{}".format(short(value), _limits(low, high)))
    if integer and isinstance(value, float):
        if value != math.floor(value):
            raise BadValue("{} is not an integer{}".format(short(value), _limits(low, high)))
        value = int(value)
    # compare before any float(): an int of 400 digits is out of range, not an overflow
    if (low is not None and value < low) or (high is not None and value > high):
        raise BadValue("{} is out of range: must be{}".format(short(value), _limits(low, high)))
    return int(value) if integer else float(value)


def parse_number(text, low=None, high=None, integer=False):
    """A number from command-line text ("12", "0.5", not "inf"/"nan"); BadValue otherwise."""
    text = text.strip()
    if len(text) > 64:
        raise BadValue("{} is not a number{}".format(short(text), _limits(low, high)))
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        kind = "an integer" if integer else "a number"
        raise BadValue("{} is not {}{}".format(short(text), kind, _limits(low, high)))
    return number(value, low, high, integer)


def decode(data, what):
    """`data` (bytes) as text: UTF-8, with or without a byte-order mark; BadValue otherwise."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadValue("{} is not UTF-8 text (byte {} at offset {}): save it as UTF-8".format(
            what, hex(data[exc.start]), exc.start))


def stdin_bytes():
    """stdin as a binary stream (a replaced text stdin, as in tests, is encoded as UTF-8)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is not None:
        return stream
    return io.BytesIO(sys.stdin.read().encode("utf-8"))


def read_bytes(path, what, limit_bytes=MAX_TEXT_BYTES):
    """The bytes of `path` ("-": stdin), at most limit_bytes; BadValue if unreadable or longer."""
    try:
        if path == "-":
            data = stdin_bytes().read(limit_bytes + 1)
        else:
            with open(path, "rb") as fh:
                data = fh.read(limit_bytes + 1)
    except (IOError, OSError) as exc:
        raise BadValue("cannot read {} {}: {}".format(what, path, exc.strerror or exc))
    if len(data) > limit_bytes:
        raise BadValue("{} {} is longer than {} bytes: not a {}".format(what, path, limit_bytes, what))
    return data


def read_text(path, what, limit_bytes=MAX_TEXT_BYTES):
    """The text of `path` ("-": stdin): bounded, decoded; BadValue naming `what` otherwise."""
    return decode(read_bytes(path, what, limit_bytes), "{} {}".format(what, path))


def writable_dir(path, what):
    """Make sure `path` is a folder that takes new files (created if missing); its path.

    Checked by creating and removing a small file, so that it holds for root
    and for read-only mounts alike. BadValue names `what` and the reason.
    """
    if os.path.exists(path) and not os.path.isdir(path):
        raise BadValue("{} {} is not a folder".format(what, path))
    try:
        if not os.path.isdir(path):
            os.makedirs(path)
        fd, probe = tempfile.mkstemp(dir=path, prefix=PROBE_PREFIX)
        os.close(fd)
        os.remove(probe)
    except (IOError, OSError) as exc:
        raise BadValue("cannot write to {} {}: {}".format(what, path, exc.strerror or exc))
    return path


def writable_file(path, what):
    """Make sure the file `path` can be written (its folder made if missing); its path."""
    if os.path.isdir(path):
        raise BadValue("{} {} is a folder, not a file".format(what, path))
    if os.path.exists(path) and not os.path.isfile(path):
        raise BadValue("{} {} is not a regular file".format(what, path))
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise BadValue("cannot write to {} {}: permission denied".format(what, path))
    writable_dir(os.path.dirname(os.path.abspath(path)), "the folder of " + what)
    return path


# -- argparse type= functions ------------------------------------------------------------

def arg_rule(check, name, limits=(None, None)):
    """An argparse type function from a BadValue-raising check.

    `name` (also the function's __name__: argparse uses it in some messages) says what
    kind of value it takes and `limits` its (low, high) bounds, so that tests can find
    hostile values for every option of every command.
    """
    def convert(text):
        try:
            return check(text)
        except BadValue as exc:
            raise argparse.ArgumentTypeError(str(exc))
    convert.__name__ = name
    convert.limits = limits
    return convert


def arg_int(low=None, high=None):
    """type= for an integer option within [low, high]."""
    return arg_rule(lambda text: parse_number(text, low, high, integer=True), "integer", (low, high))


def arg_seconds(low, high):
    """type= for a duration in seconds, finite, above `low` and at most `high`."""
    def check(text):
        try:
            value = parse_number(text, None, None)
        except BadValue:
            value = None
        if value is None or not low < value <= high:
            raise BadValue("{} is not a number of seconds above {:g} and at most {:g}".format(
                short(text.strip()), low, high))
        return value
    return arg_rule(check, "seconds", (low, high))


def arg_seed():
    """type= for a random seed: an integer from 0 to MAX_SEED."""
    return arg_int(0, MAX_SEED)


def random_seed():
    """A fresh seed (0..2^32-1) from the OS, for a run the user did not seed."""
    return int.from_bytes(os.urandom(4), "big")


def arg_size(sizes, what):
    """type= for a cube size N that must be one of `sizes()` (called when parsing)."""
    def check(text):
        allowed = sorted(sizes())
        value = parse_number(text, None, None, integer=True)
        if value not in allowed:
            raise BadValue("{} is not a size {}: use {}".format(
                value if abs(value) < 10 ** 6 else short(text.strip()), what,
                ", ".join(str(n) for n in allowed)))
        return value
    return arg_rule(check, "size")


def arg_choice(choices, what):
    """type= for one of a fixed set of words (case kept), naming the set on failure."""
    def check(text):
        if text not in choices:
            raise BadValue("{} is not {}: use one of {}".format(short(text), what, ", ".join(choices)))
        return text
    return arg_rule(check, "choice")


def arg_writable_dir(what):
    """type= for a folder that is made (if missing) and must take files, checked at parse time."""
    return arg_rule(lambda text: writable_dir(os.path.expanduser(text), what), "folder")


def arg_writable_file(what):
    """type= for a file to be written, checked at parse time (its folder made if missing)."""
    return arg_rule(lambda text: writable_file(os.path.expanduser(text), what), "file")


def _no_constant(name):
    raise ValueError("{} is not a number JSON allows".format(name))


def parse_json(text, source):
    """The JSON value of a settings text: NaN and Infinity refused; ConfigError naming `source`."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise ConfigError("{} is not valid JSON: {}".format(source, str(exc).splitlines()[0]))
