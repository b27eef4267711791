"""The robot's exception tree.

RobotError
  MotorStalled: a motor stalled or missed its deadline; names motor and target.
  DeviceMissing: a motor or sensor is not on its port; names device and port.
  ConfigError (also a ValueError): a setting is missing, of the wrong type or
      out of range; names the setting and its limits. Raised before any motor
      moves.
  ScanUnresolved: the readings do not resolve to a valid cube; carries the
      doubtful facelet positions so that the robot can rescan exactly those.
  Stopped: a stop was requested (BACKSPACE, a `stop` over the link).
  LinkError: the serial link failed (device missing or gone, no answer in time).
  FrameError (also a ValueError): a received line is not a protocol message
      (not UTF-8, not JSON, not an object); the link itself keeps working.
  RemoteError: the other end of the link answered a request with an error;
      carries its `code`.
"""


class RobotError(Exception):
    """Base class for every error the robot side raises on purpose."""


class MotorStalled(RobotError):
    """A motor stalled or timed out before reaching its target."""


class DeviceMissing(RobotError):
    """A device is not connected where the configuration says it is."""


class ConfigError(RobotError, ValueError):
    """A configuration value is missing, malformed or out of range."""


class ScanUnresolved(RobotError):
    """No valid cube is close to the readings.

    `doubtful` lists the facelet indices (URFDLB order, 0-based) to rescan.
    """

    def __init__(self, message, doubtful=()):
        RobotError.__init__(self, message)
        self.doubtful = list(doubtful)


class Stopped(RobotError):
    """The run was stopped on request; the robot has been left safe."""


def check_stop(stop, where=""):
    """Raise Stopped if `stop` (a threading.Event, or None) is set; `where` ends the message."""
    if stop is not None and stop.is_set():
        raise Stopped("stopped on request" + (" " + where if where else ""))


class LinkError(RobotError):
    """The serial link failed: the device is missing or vanished, or no reply came in time."""


class FrameError(RobotError, ValueError):
    """A received line is not a protocol message; names what is wrong with it."""


class RemoteError(RobotError):
    """The robot answered a request with `"ok": false`; `code` says what kind of refusal."""

    def __init__(self, message, code="failed"):
        RobotError.__init__(self, message)
        self.code = code
