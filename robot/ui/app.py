"""The resident brick app behind `cubebot run`.

Started once (python3 and ev3dev2 are slow to start on the brick), it loops:
  1. ready (LEDs green): wait for a cube put on the table (the proximity
     sensor sees it arrive) or for ENTER; UP / DOWN choose the cube size
     (2 or 3), remembered in a settings file written atomically; when the
     app serves the link on TCP, the screen shows the brick's name, its
     addresses and port, and the pairing code a laptop needs;
  2. working (LEDs amber): the RobotService scans, resolves, solves and
     turns; the LCD shows the stage, a progress bar, the move count and the
     net of the scanned cube; BACKSPACE aborts (the robot is left safe);
  3. the result (spoken, shown); after a fault the LEDs turn red, the error
     is logged (stderr for the journal, and a rotating log file) and shown,
     and the app is ready again. A cube or motor fault never ends the app.

`App.step()` is one turn of the loop (tests drive it); `App.run()` loops.
Buttons, screen, LEDs, sound and proximity all may be None.
"""

import json
import logging
import os
import queue

from cubebot.robot.machine.config import SIZES
from cubebot.robot.ui import screens
from cubebot.robot.inputs import read_text

DEFAULT_SIZE = 3
POLL_S = 0.05                 # the loop's period (buttons, proximity, events)
ERROR_SHOW_S = 15.0           # red LEDs and the error screen this long, then ready
ADDRESSES_EVERY_S = 5.0       # while ready: how often the TCP link's addresses are looked up again
LOG_BYTES = 256 * 1024        # rotating log: size of one file ...
LOG_BACKUPS = 3               # ... and how many old ones are kept
READY, WORKING = "ready", "working"
LAST_LINE_CHARS = 60          # the ready screen's line about the last run

log = logging.getLogger("cubebot.app")


class Settings(object):
    """The app's remembered choices (the cube size), in a small JSON file."""

    def __init__(self, path):
        self.path = path
        self.size = DEFAULT_SIZE
        try:
            data = json.loads(read_text(path, "settings file"))
            if data.get("size") in SIZES:
                self.size = data["size"]
        except (ValueError, AttributeError, TypeError, RecursionError):
            pass                      # first start or a damaged file (BadValue too): defaults

    def save(self):
        """Write atomically: a temp file in the same folder, then os.replace."""
        from cubebot.solver.tables import write_text_atomic
        write_text_atomic(self.path, json.dumps({"size": self.size}, sort_keys=True) + "\n")


def setup_logging(log_file=None):
    """Log to stderr (the journal under systemd) and to a rotating file."""
    from logging.handlers import RotatingFileHandler
    root = logging.getLogger("cubebot")
    root.setLevel(logging.INFO)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not any(isinstance(h, logging.StreamHandler) for h in root.handlers):
        stream = logging.StreamHandler()
        stream.setFormatter(fmt)
        root.addHandler(stream)
    if log_file:
        directory = os.path.dirname(os.path.abspath(log_file))
        if not os.path.isdir(directory):
            os.makedirs(directory)
        handler = RotatingFileHandler(log_file, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS)
        handler.setFormatter(fmt)
        root.addHandler(handler)
    return root


def _chroma(rgb):
    total = float(sum(rgb)) or 1.0
    return [c / total for c in rgb]


def nearest_face(rgb):
    """The face letter (standard scheme) whose typical EV3 reading has the
    nearest chromaticity to `rgb` (r, g, b raw counts)."""
    from cubebot.robot.colour.scheme import EV3_TYPICAL_RAW, STANDARD_SCHEME
    mine = _chroma(rgb)
    best, best_d = "?", None
    for face in sorted(STANDARD_SCHEME):
        ref = _chroma(EV3_TYPICAL_RAW[STANDARD_SCHEME[face]])
        d = sum((a - b) ** 2 for a, b in zip(mine, ref))
        if best_d is None or d < best_d:
            best, best_d = face, d
    return best


class View(object):
    """What the screen shows, updated from the service's events."""

    def __init__(self):
        self.stage = "scanning"
        self.done = 0
        self.total = 0
        self.moves = None
        self.facelets = None
        self.last = None          # one line about the last run, for the ready screen

    def reset(self):
        self.stage, self.done, self.total, self.moves, self.facelets = "scanning", 0, 0, None, None

    def _preview(self, readings):
        """Fill the net while scanning: each reading's nearest typical colour
        (a preview only; the resolved cube replaces it at the end)."""
        if not self.total:
            return
        live = list(self.facelets or "?" * self.total)
        if len(live) != self.total:
            live = ["?"] * self.total
        for key in sorted(readings):
            index = int(key)
            if 0 <= index < self.total:
                live[index] = nearest_face(readings[key])
        self.facelets = "".join(live)

    def on_event(self, name, payload):
        if name == "state" and payload.get("state") in ("scanning", "solving", "turning", "checking"):
            self.stage = payload["state"]
            if self.stage != "scanning":
                self.done = self.total = 0
        elif name == "scan_progress":
            self.done, self.total = payload.get("done", 0), payload.get("total", 0)
            self._preview(payload.get("readings") or {})
        elif name == "solution":
            self.moves = len(payload.get("moves", []))
        elif name == "move_progress":
            self.done, self.total = payload.get("done", 0), payload.get("total", 0)
        elif name == "finished" and payload.get("state"):
            self.facelets = payload["state"]


def last_run_line(result):
    """One line about a recorded last run (None: no record); "solved" only for a run that ended solved."""
    if not result:
        return None
    if result.get("interrupted"):
        return "last run did not end ({}): {} of {} moves turned".format(
            result.get("stage"), result.get("moves_done"), result.get("moves_total") or "?")
    if result.get("solved"):
        return "solved, {} moves".format(len(result.get("moves", [])))
    return "last run: " + str(result.get("error") or "not solved")[:LAST_LINE_CHARS]


class App(object):
    """The button app around a RobotService; see the module docstring.

    io: anything with the optional devices of cubebot.robot.hw.interface.Hardware
    (buttons, screen, leds, sound, proximity). clock: wall-clock time for
    the loop (never a simulated clock: the run thread owns that).
    link: the TCP link server (cubebot.robot.link.tcp.TcpLinkServer) whose
    advert() the ready screen shows, or None.
    """

    def __init__(self, service, io, settings, clock, cube_present_cm, poll_s=POLL_S, link=None):
        self.service = service
        self.io = io
        self.settings = settings
        self.clock = clock
        self.cube_present_cm = cube_present_cm
        self.poll_s = poll_s
        self.link = link
        self._advert = None
        self._advert_at = None
        self.mode = READY
        self.view = View()
        self.events = queue.Queue()
        self._held = set()
        self._cube_was_there = self._cube_there()
        self._error_until = None
        self._error = None
        self._stopping = False
        self._shown = None
        self.finished_runs = 0
        self.view.last = last_run_line(service.status().get("last_result"))
        service.subscribe(self._on_event)
        self._set_leds("GREEN")
        self._redraw()

    # -- devices (each optional, each failure logged, never fatal) -----------
    def _device(self, what, func):
        try:
            return func()
        except Exception as exc:  # noqa: BLE001 - a flaky LCD must not stop the robot
            log.warning("%s failed: %s", what, exc)
            return None

    def _set_leds(self, colour):
        if self.io.leds is not None:
            self._device("LEDs", lambda: self.io.leds.set_color(colour))

    def _say(self, text):
        if self.io.sound is not None:
            self._device("sound", lambda: self.io.sound.speak(text))

    def _cube_there(self):
        if self.io.proximity is None:
            return False
        distance = self._device("proximity", self.io.proximity.read_distance_cm)
        return distance is not None and distance <= self.cube_present_cm

    def _pressed(self):
        """Buttons newly pressed since the last look (edges, not levels)."""
        if self.io.buttons is None:
            return set()
        now = self._device("buttons", self.io.buttons.pressed) or set()
        new = set(now) - self._held
        self._held = set(now)
        return new

    def _redraw(self):
        size = self.settings.size
        if self.mode == WORKING:
            stage = "stopping" if self._stopping else self.view.stage
            image_args = ("working", size, stage, self.view.done, self.view.total, self.view.moves,
                          self.view.facelets)
        elif self._error is not None:
            image_args = ("error", size, self._error)
        else:
            image_args = ("ready", size, self.view.last, self.io.proximity is not None, self._link_advert())
        if image_args == self._shown or self.io.screen is None:
            self._shown = image_args
            return
        self._shown = image_args
        draw = {"working": screens.working_screen, "error": screens.error_screen,
                "ready": screens.ready_screen}[image_args[0]]
        image = self._device("drawing", lambda: draw(*image_args[1:]))
        if image is not None:
            self._device("screen", lambda: self.io.screen.show(image))

    def _link_advert(self):
        """(name, addresses, port, code) of the TCP link, looked up at most every ADDRESSES_EVERY_S
        (a USB cable plugged in or Wi-Fi coming up adds an address); None without one."""
        if self.link is None:
            return None
        now = self.clock.now_s()
        if self._advert_at is None or now - self._advert_at >= ADDRESSES_EVERY_S:
            self._advert_at = now
            self._advert = self._device("network addresses", self.link.advert) or self._advert
        return self._advert

    # -- events from the run thread ----------------------------------------
    def _on_event(self, name, payload):
        self.events.put((name, payload))

    def _drain_events(self):
        while True:
            try:
                name, payload = self.events.get_nowait()
            except queue.Empty:
                return
            self.view.on_event(name, payload)

    # -- the loop -----------------------------------------------------------
    def start_run(self, why):
        log.info("run started (%s), cube size %d", why, self.settings.size)
        self.view.reset()
        self.service.start_run(size=self.settings.size)
        self._working()

    def _follow_run(self, why):
        """A run someone else started (over the link): show it; BACKSPACE stops it."""
        log.info("run %s", why)
        self._working()

    def _working(self):
        self._error = None
        self._stopping = False
        self.mode = WORKING
        self._set_leds("AMBER")

    def _change_size(self, step):
        index = SIZES.index(self.settings.size) if self.settings.size in SIZES else 0
        new = SIZES[max(0, min(len(SIZES) - 1, index + step))]
        if new != self.settings.size:
            self.settings.size = new
            self._device("saving settings", self.settings.save)
            log.info("cube size set to %d", new)

    def _finish(self):
        result = self.service.wait(0) or {}
        self.mode = READY
        self.finished_runs += 1
        self._stopping = False
        self.view.facelets = result.get("state") or self.view.facelets
        if result.get("solved"):
            moves = len(result.get("moves", []))
            seconds = result.get("total_seconds")
            self.view.last = "solved, {} moves{}".format(
                moves, "" if seconds is None else ", {:.0f} s".format(seconds))
            log.info("run finished: %s", self.view.last)
            self._set_leds("GREEN")
            self._say("Solved in {} moves".format(moves))
            return
        message = result.get("error") or "the cube is not solved"
        if result.get("stopped"):
            self.view.last = "stopped"
            log.info("run stopped: %s", message)
            self._set_leds("GREEN")
            self._say("Stopped")
            return
        self.view.last = "error"
        log.error("run failed: %s", message)
        self._error = message
        self._error_until = self.clock.now_s() + ERROR_SHOW_S
        self._set_leds("RED")
        self._say("Error. " + message)

    def step(self):
        """One turn of the loop: events, buttons, proximity, the screen."""
        self._drain_events()
        pressed = self._pressed()
        if self.mode == WORKING:
            if "backspace" in pressed and not self._stopping:
                log.info("abort requested (BACKSPACE)")
                self._stopping = self.service.stop()
            if not self.service.status().get("running"):
                self._drain_events()
                self._finish()
                self._cube_was_there = self._cube_there()   # the cube still there is no new cube
        elif self.service.status().get("running"):
            self._follow_run("started over the link")
        else:
            # The proximity sensor is read only while ready: during a run the
            # brick's CPU belongs to the run.
            cube = self._cube_there()
            arrived = cube and not self._cube_was_there
            self._cube_was_there = cube
            if self._error is not None and self.clock.now_s() >= self._error_until:
                self._error = None
                self._set_leds("GREEN")
            if "up" in pressed:
                self._change_size(+1)
            if "down" in pressed:
                self._change_size(-1)
            if "enter" in pressed:
                self.start_run("ENTER")
            elif arrived:
                self.start_run("a cube on the table")
        self._redraw()

    def run(self, should_exit=lambda: False):
        """Loop until should_exit(); faults are logged and the loop goes on."""
        log.info("ready; cube size %d", self.settings.size)
        while not should_exit():
            try:
                self.step()
            except Exception:  # noqa: BLE001 - the app must outlive any fault
                log.exception("unexpected error in the app loop")
                self.mode = READY if not self.service.status().get("running") else self.mode
            self.clock.sleep_s(self.poll_s)
