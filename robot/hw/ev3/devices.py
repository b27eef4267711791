"""Sensors and brick devices through python-ev3dev2 (wrappers; no ev3dev2 import here).

Each wrapper takes the ev3dev2 object it drives. Reading errors of a sensor
that vanished become DeviceMissing naming the sensor and its port.
Units: raw colour counts, centimetres, volts.
"""

import time

from cubebot.robot.errors import DeviceMissing
from cubebot.robot.hw.interface import Battery, Buttons, Clock, ColorSensor, Leds, ProximitySensor, Screen, Sound

IR_RANGE_CM = 70.0          # the IR sensor's 100 % proximity, in cm
PERCENT = 100.0
LED_GROUPS = ("LEFT", "RIGHT")


def _sensor_read(what, port, func):
    try:
        return func()
    except (OSError, ValueError) as exc:
        raise DeviceMissing("{} on {} stopped answering ({})".format(what, port, exc))
    except Exception as exc:  # ev3dev2.DeviceNotFound
        if type(exc).__name__ == "DeviceNotFound":
            raise DeviceMissing("{} on {} is not connected".format(what, port))
        raise


class Ev3ColorSensor(ColorSensor):
    """The EV3 colour sensor read in RGB-RAW mode."""

    def __init__(self, device, port):
        self._dev = device
        self.port = port

    def read_rgb_raw(self):
        r, g, b = _sensor_read("colour sensor", self.port, lambda: self._dev.raw)
        return (int(r), int(g), int(b))


class Ev3InfraredProximity(ProximitySensor):
    """The IR sensor's proximity (0..100 %, 100 % ~ 70 cm) as centimetres."""

    kind = "infrared"

    def __init__(self, device, port):
        self._dev = device
        self.port = port

    def read_distance_cm(self):
        pct = _sensor_read("infrared sensor", self.port, lambda: self._dev.proximity)
        return pct * IR_RANGE_CM / PERCENT


class Ev3UltrasonicProximity(ProximitySensor):
    """The ultrasonic sensor (Education set) in continuous centimetre mode."""

    kind = "ultrasonic"

    def __init__(self, device, port):
        self._dev = device
        self.port = port

    def read_distance_cm(self):
        return float(_sensor_read("ultrasonic sensor", self.port, lambda: self._dev.distance_centimeters))


class Ev3Buttons(Buttons):
    """The brick buttons (ev3dev2.button.Button; needs evdev)."""

    def __init__(self, device):
        self._dev = device

    def pressed(self):
        return set(self._dev.buttons_pressed)


class Ev3Screen(Screen):
    """The LCD (ev3dev2.display.Display on /dev/fb0)."""

    def __init__(self, device):
        self._dev = device

    def show(self, image):
        canvas = self._dev.image
        canvas.paste(0xFF if canvas.mode == "1" else "white", (0, 0) + canvas.size)
        canvas.paste(image.convert(canvas.mode), (0, 0))
        self._dev.update()


class Ev3Leds(Leds):
    """Both LEDs (ev3dev2.led.Leds; silently nothing on a platform without LEDs)."""

    def __init__(self, device):
        self._dev = device

    def set_color(self, color):
        for group in LED_GROUPS:
            self._dev.set_color(group, color)


class Ev3Sound(Sound):
    """The speaker (ev3dev2.sound.Sound: espeak and beep), never blocking for long."""

    def __init__(self, device):
        self._dev = device

    def speak(self, text):
        self._dev.speak(text, play_type=self._dev.PLAY_NO_WAIT_FOR_COMPLETE)

    def beep(self):
        self._dev.beep(play_type=self._dev.PLAY_NO_WAIT_FOR_COMPLETE)


class Ev3Battery(Battery):
    """The battery (ev3dev2.power.PowerSupply)."""

    def __init__(self, device):
        self._dev = device

    def read_voltage_v(self):
        return float(_sensor_read("battery", "power_supply", lambda: self._dev.measured_volts))


class RealClock(Clock):
    """Wall-clock time (monotonic) for the real brick."""

    def now_s(self):
        return time.monotonic()

    def sleep_s(self, seconds):
        if seconds > 0:
            time.sleep(seconds)
