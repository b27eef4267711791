"""The hardware interface: what every backend (simulated, ev3dev2) provides.

Units: motor positions in motor degrees, speeds in motor degrees per second,
times in seconds, distances in centimetres, voltages in volts, colour
readings as raw (r, g, b) counts of the EV3 colour sensor in RGB-RAW mode
(roughly 0..1020 each).

A backend knows motors and sensors, never cubes. The mechanism layer above
(cubebot.robot.machine.mechanism) turns "flip", "turn the bottom layer" into motor moves using
the numbers in cubebot.robot.machine.config.

Optional devices (buttons, screen, leds, sound, battery, proximity) may be
None on a backend that lacks them (a fake sysfs, a bare simulation); callers
check before use.
"""

BUTTON_NAMES = ("up", "down", "left", "right", "enter", "backspace")
LED_COLORS = ("GREEN", "AMBER", "RED", "BLACK")


class Motor(object):
    """One tacho motor. `name` is its role: "flipper", "table" or "arm"."""

    name = "motor"

    def position_deg(self):
        """The encoder position in motor degrees."""
        raise NotImplementedError

    def reset_position(self, position_deg=0):
        """Declare the current position to be `position_deg`."""
        raise NotImplementedError

    def start_to_position(self, position_deg, speed_dps):
        """Start moving to an absolute position; return at once."""
        raise NotImplementedError

    def wait_until_stopped(self, timeout_s):
        """Block until the move started last has ended.

        Raises MotorStalled (naming the motor and its target) if the motor
        stalls or the move takes longer than `timeout_s`.
        """
        raise NotImplementedError

    def run_to_position(self, position_deg, speed_dps, timeout_s):
        """Move to an absolute position and wait (start + wait)."""
        self.start_to_position(position_deg, speed_dps)
        self.wait_until_stopped(timeout_s)

    def run_until_stalled(self, speed_dps, timeout_s):
        """Run at `speed_dps` (signed) until the motor stalls; for homing.

        Returns the position where it stalled. Raises MotorStalled if it has
        not stalled within `timeout_s` (nothing stopped it: a broken stop).
        """
        raise NotImplementedError

    def is_moving(self):
        """True while a move is under way."""
        raise NotImplementedError

    def stop(self, hold=False):
        """Stop now; hold the position if `hold`, else let it coast."""
        raise NotImplementedError


class ColorSensor(object):
    """The colour sensor looking down at the cube."""

    def read_rgb_raw(self):
        """One reading: a tuple (r, g, b) of raw counts."""
        raise NotImplementedError


class ProximitySensor(object):
    """Infrared or ultrasonic sensor that sees a cube put on the table."""

    def read_distance_cm(self):
        """Distance to the nearest object in centimetres."""
        raise NotImplementedError


class Buttons(object):
    """The brick's six buttons."""

    def pressed(self):
        """The set of names (see BUTTON_NAMES) of the buttons held down now."""
        raise NotImplementedError


class Screen(object):
    """The 178 x 128 monochrome LCD."""

    width_px = 178
    height_px = 128

    def show(self, image):
        """Show a PIL image of width_px x height_px (mode "1")."""
        raise NotImplementedError


class Leds(object):
    """The two LEDs under the buttons."""

    def set_color(self, color):
        """Both LEDs to one of LED_COLORS."""
        raise NotImplementedError


class Sound(object):
    """The speaker."""

    def speak(self, text):
        """Say `text` without blocking the caller for long."""
        raise NotImplementedError

    def beep(self):
        """A short beep."""
        raise NotImplementedError


class Battery(object):
    """The battery."""

    def read_voltage_v(self):
        """The measured battery voltage in volts."""
        raise NotImplementedError


class Clock(object):
    """Time as the backend sees it: real on the brick, simulated in the sim."""

    def now_s(self):
        raise NotImplementedError

    def sleep_s(self, seconds):
        raise NotImplementedError


class Hardware(object):
    """The devices of one robot, as a backend provides them.

    Motors: flipper (tilt arm, outA), table (turntable, outB), arm (colour
    sensor arm, outC). Anything optional may be None.
    """

    def __init__(self, flipper, table, arm, color, clock, proximity=None,
                 buttons=None, screen=None, leds=None, sound=None, battery=None):
        self.flipper = flipper
        self.table = table
        self.arm = arm
        self.color = color
        self.clock = clock
        self.proximity = proximity
        self.buttons = buttons
        self.screen = screen
        self.leds = leds
        self.sound = sound
        self.battery = battery

    def motors(self):
        """The three motors, flipper first (it is released first on faults)."""
        return [self.flipper, self.table, self.arm]

    def close(self):
        """Leave the robot safe: every motor stopped and coasting."""
        for motor in self.motors():
            try:
                motor.stop(hold=False)
            except Exception:  # noqa: BLE001 - best effort on shutdown
                pass
