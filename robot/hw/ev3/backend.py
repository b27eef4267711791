"""The python-ev3dev2 backend: `make_hardware(config)` -> cubebot.robot.hw.interface.Hardware.

Devices (ports from cubebot.robot.machine.config):
  flipper   LargeMotor   config.flipper_port   (outA)
  table     LargeMotor   config.table_port     (outB)
  arm       MediumMotor  config.arm_port       (outC)
  colour    ColorSensor  config.color_port     (in3), read in RGB-RAW mode
  proximity InfraredSensor or UltrasonicSensor, found on config.proximity_port
            (in4) or, failing that, on any input port; optional
  buttons, screen, leds, sound, battery: optional (they fail on a fake sysfs
            and the app carries on without them; `Hardware.notes` says why)

ev3dev2 is imported only inside `make_hardware` (its import takes ~20 s on
the brick). A motor or the colour sensor that is not on its port raises
DeviceMissing naming the device and the port.
"""

from cubebot.robot.errors import DeviceMissing
from cubebot.robot.hw.interface import Hardware
from cubebot.robot.hw.ev3.devices import (
    Ev3Battery,
    Ev3Buttons,
    Ev3ColorSensor,
    Ev3InfraredProximity,
    Ev3Leds,
    Ev3Screen,
    Ev3Sound,
    Ev3UltrasonicProximity,
    RealClock,
)
from cubebot.robot.hw.ev3.motor import Ev3Motor

INPUT_PORTS = ("in1", "in2", "in3", "in4")
COLOR_MODE = "RGB-RAW"
MODE_SWITCH_S = 0.1     # a sensor's values follow a new mode only after a moment


def _is_not_found(exc):
    return type(exc).__name__ == "DeviceNotFound"


def quiet_library_log():
    """Keep python-ev3dev2's own log lines (such as 'Failed to import "evdev"', printed on
    every start where evdev is missing) off the user's screen: a device that is missing
    is reported by this backend's notes instead (diag shows them)."""
    import logging
    library = logging.getLogger("ev3dev2")
    if not any(isinstance(h, logging.NullHandler) for h in library.handlers):
        library.addHandler(logging.NullHandler())
    library.propagate = False


def _required(factory, what, port):
    """Construct a device or raise DeviceMissing naming it and its port."""
    try:
        return factory(port)
    except Exception as exc:  # noqa: BLE001 - ev3dev2 raises DeviceNotFound or OSError
        if _is_not_found(exc) or isinstance(exc, OSError):
            raise DeviceMissing("{} not found on port {}".format(what, port))
        raise


def _optional(factory, what, notes):
    """Construct an optional device; None (and a note saying why) if it fails."""
    try:
        return factory()
    except Exception as exc:  # noqa: BLE001 - evdev, /dev/fb0, espeak may all be missing
        notes.append("no {}: {}".format(what, str(exc).splitlines()[0] if str(exc) else type(exc).__name__))
        return None


def _find_proximity(port, notes):
    """The IR or ultrasonic sensor, on `port` first, then on any input port."""
    from ev3dev2.sensor.lego import InfraredSensor, UltrasonicSensor
    ports = [port] + [p for p in INPUT_PORTS if p != port]
    for candidate in ports:
        for cls, wrapper in ((InfraredSensor, Ev3InfraredProximity),
                             (UltrasonicSensor, Ev3UltrasonicProximity)):
            try:
                return wrapper(cls(candidate), candidate)
            except Exception as exc:  # noqa: BLE001
                if not (_is_not_found(exc) or isinstance(exc, OSError)):
                    raise
    notes.append("no proximity sensor (infrared or ultrasonic) on any input port")
    return None


def make_hardware(config, device_root=None, clock=None, screen=None, poll_s=None, missing_ok=False):
    """Open the robot's devices through python-ev3dev2.

    `device_root` replaces /sys/class (a virtual brick's fake sysfs; set
    FAKE_SYS=1 in the environment before the first ev3dev2 import);
    `clock` defaults to wall-clock time; `screen` replaces the LCD (PNG files
    on a virtual brick). Raises DeviceMissing for a missing motor or colour
    sensor; with `missing_ok` (for diag) such a device is None instead and
    `Hardware.missing` lists one message per missing device.
    """
    quiet_library_log()
    import ev3dev2
    if device_root is not None:
        ev3dev2.Device.DEVICE_ROOT_PATH = device_root
    from ev3dev2.motor import LargeMotor, MediumMotor
    from ev3dev2.sensor.lego import ColorSensor

    clock = clock or RealClock()
    notes = []
    missing = []
    extra = {} if poll_s is None else {"poll_s": poll_s}

    def required(cls, what, port):
        try:
            return _required(cls, what, port)
        except DeviceMissing as exc:
            if not missing_ok:
                raise
            missing.append(str(exc))
            return None

    motors = []
    for role, cls, port, kind in (("flipper", LargeMotor, config.flipper_port, "large"),
                                  ("table", LargeMotor, config.table_port, "large"),
                                  ("arm", MediumMotor, config.arm_port, "medium")):
        dev = required(cls, "{} motor ({} motor)".format(role, kind), port)
        motors.append(None if dev is None else Ev3Motor(dev, role, port, clock, **extra))
    color_dev = required(ColorSensor, "colour sensor", config.color_port)
    color = None
    if color_dev is not None:
        color = Ev3ColorSensor(color_dev, config.color_port)
        color_dev.mode = COLOR_MODE
        clock.sleep_s(MODE_SWITCH_S)
    proximity = _find_proximity(config.proximity_port, notes)
    if screen is None:
        screen = _optional(_display, "screen", notes)
    hw = Hardware(motors[0], motors[1], motors[2], color, clock, proximity=proximity,
                  buttons=_optional(_buttons, "buttons", notes), screen=screen,
                  leds=_optional(_leds, "LEDs", notes), sound=_optional(_sound, "sound", notes),
                  battery=_optional(_battery, "battery", notes))
    hw.notes = notes
    hw.missing = missing
    return hw


def _display():
    from ev3dev2.display import Display
    return Ev3Screen(Display())


def _buttons():
    from ev3dev2.button import Button
    return Ev3Buttons(Button())


def _leds():
    from ev3dev2.led import Leds
    return Ev3Leds(Leds())


def _sound():
    import shutil
    from ev3dev2.sound import Sound
    if shutil.which("espeak") is None:
        raise OSError("espeak is not installed")
    return Ev3Sound(Sound())


def _battery():
    from ev3dev2.power import PowerSupply
    battery = Ev3Battery(PowerSupply())
    battery.read_voltage_v()
    return battery
