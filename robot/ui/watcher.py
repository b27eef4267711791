"""The loop behind `cubebot remote watch`: events in, a live view out.

On a terminal the view is redrawn in place with ANSI codes (at most every
WATCH_REDRAW_S); otherwise each event is one line of text; with --json each
message is printed raw. Once connected, a lost link is shown and the device
reopened every WATCH_RECONNECT_S (a projector view survives a brick reboot);
failing to open it the first time is an error (exit 1). Ctrl-C ends it (0).

When no message has come for WATCH_QUIET_S the robot is pinged; if it does
not answer, the view says so ("NO ANSWER for N s") instead of showing its
last state, and keeps asking until it answers again (a stopped `serve`, a
robot switched off, a cable pulled without the device vanishing).

Keys (single keys on a terminal, else lines on stdin): r = run, c = scan,
s = stop, q = quit, so the teacher can drive the robot from the projector
view (one program per serial port: a second reader would steal its bytes).
"""

import os
import queue
import sys
import threading
import time

from cubebot.robot.errors import LinkError, RemoteError
from cubebot.robot.ui.watch import WatchView, describe, frame, run_exit_code

WATCH_POLL_S = 0.2            # how often the view wakes up without events
WATCH_REDRAW_S = 0.05         # at most one redraw per this many seconds
WATCH_RECONNECT_S = 1.0       # wait between attempts to reopen the device
WATCH_QUIET_S = 3.0           # after this long without a message, ping the robot ...
WATCH_PING_TIMEOUT_S = 2.0    # ... and call it quiet when the ping gets no reply in this long
KEY_COMMANDS = {"r": "run", "c": "scan", "s": "stop"}
QUIT_KEYS = ("q", "\x03")
HELP = "keys: r run, c scan, s stop, q quit"


def _ended(message):
    return message.get("event") in ("finished", "error")


class _Screen(object):
    """Draws the view: ANSI redraws on a terminal, nothing otherwise (lines are printed instead)."""

    def __init__(self, view, out, tty, redraw_s, color=True):
        self.view = view
        self.out = out
        self.tty = tty and not out.raw
        self.color = color
        self.redraw_s = redraw_s
        self.dirty = True
        self.drawn_at = 0.0

    def draw(self, force=False):
        if not self.tty or not (self.dirty or force):
            return
        now = time.time()
        if not force and now - self.drawn_at < self.redraw_s:
            return
        self.out.stream.write(frame(self.view.render(color=self.color)))
        self.out.stream.flush()
        self.dirty, self.drawn_at = False, now

    def event(self, message):
        self.out.message(message)
        changed = self.view.update(message)
        if self.tty:
            self.dirty = self.dirty or changed
        else:
            self.out.text(describe(message))

    def note(self, text):
        self.view.note = text
        self.dirty = True
        if not self.tty and text:
            self.out.text(text)
        self.draw(force=True)


class _Keys(object):
    """Keys from stdin in a daemon thread: cbreak mode on a terminal (restored by close())."""

    def __init__(self, stream):
        self.queue = queue.Queue()
        self.stream = stream
        self._saved = None
        try:
            self.tty = stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False
        if self.tty:
            import termios
            import tty
            fd = stream.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        thread = threading.Thread(target=self._read, name="watch-keys")
        thread.daemon = True
        thread.start()

    def _read(self):
        while True:
            try:
                text = self.stream.read(1) if self.tty else self.stream.readline()
            except (OSError, ValueError):
                return
            if not text:
                return
            key = text.strip()[:1].lower() if not self.tty else text.lower()
            if key:
                self.queue.put(key)

    def get(self):
        try:
            return self.queue.get_nowait()
        except queue.Empty:
            return None

    def close(self):
        if self._saved is not None:
            import termios
            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)


def _key_action(link, screen, key):
    """Do what a key asks; True to quit."""
    if key in QUIT_KEYS:
        return True
    cmd = KEY_COMMANDS.get(key)
    if cmd is None:
        return False
    try:
        link.request(cmd)
        screen.note(None)
    except RemoteError as exc:
        screen.note(str(exc))
    return False


class _Heard(object):
    """When the robot was last heard from; pings it after a silence and marks the view quiet."""

    def __init__(self, at):
        self.at = at
        self.asked = at

    def now(self, screen):
        self.at = self.asked = time.time()
        if screen.view.quiet_s is not None:
            screen.view.quiet_s = None
            screen.note("the robot answers again")

    def check(self, link, screen):
        if time.time() - self.asked < WATCH_QUIET_S:
            return
        self.asked = time.time()
        try:
            link.request("ping", WATCH_PING_TIMEOUT_S)
        except LinkError:
            if link.lost is not None:
                raise                                  # the device itself failed: reconnect
            first = screen.view.quiet_s is None
            screen.view.quiet_s = time.time() - self.at
            if first:
                screen.note("the robot does not answer (is `cubebot serve` running?)")
            else:
                screen.dirty = True
            return
        self.now(screen)


def watch(make_client, args, out, stream_is_tty=None, keys_stream=None):
    """Run the watch view until Ctrl-C (or, with args.once, the end of the next run); the exit code."""
    from cubebot.robot.ui.netview import color_wanted
    if stream_is_tty is None:
        # TERM=dumb: no cursor moves either, so one line per event
        stream_is_tty = out.stream.isatty() and os.environ.get("TERM") != "dumb"
    view = WatchView("cubebot on {}".format(args.port), scale=getattr(args, "scale", 1))
    screen = _Screen(view, out, stream_is_tty, WATCH_REDRAW_S,
                     color=color_wanted(out.stream, tty=stream_is_tty))
    connected_once = False
    keys = _Keys(keys_stream if keys_stream is not None else sys.stdin)
    screen.view.help = HELP
    try:
        while True:
            try:
                with make_client(args) as link:
                    status = link.request("status")
                    connected_once = True
                    screen.view.apply_status(status)
                    screen.note(None)
                    if not screen.tty:
                        screen.out.text("connected to {}: state {}; {}".format(args.port, status.get("state"), HELP))
                    heard = _Heard(time.time())
                    while True:
                        message = link.next_event(WATCH_POLL_S)
                        if message is not None:
                            heard.now(screen)
                            screen.event(message)
                            if args.once and _ended(message):
                                screen.draw(force=True)
                                return run_exit_code(message)
                        key = keys.get()
                        if key is not None and _key_action(link, screen, key):
                            return 0
                        heard.check(link, screen)
                        screen.draw()
            except LinkError as exc:
                if not connected_once or args.once:
                    raise
                screen.note("link lost ({}); reconnecting...".format(exc))
                time.sleep(WATCH_RECONNECT_S)
    except KeyboardInterrupt:
        return 0
    finally:
        keys.close()
        if screen.tty:
            out.stream.write("\n")
