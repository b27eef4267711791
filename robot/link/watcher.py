"""The loop behind `cubebot remote watch`: events in, a live view out.

On a terminal the view is redrawn in place with ANSI codes (at most every
WATCH_REDRAW_S); otherwise each event is one line of text; with --json each
message is printed raw. Once connected, a lost link is shown and the device
reopened every WATCH_RECONNECT_S (a projector view survives a brick reboot);
failing to open it the first time is an error (exit 1). Ctrl-C ends it (0).
"""

import sys
import time

from ..errors import LinkError
from .watch import WatchView, describe, frame


def _ended(message):
    return message.get("event") in ("finished", "error")


class _Screen(object):
    """Draws the view: ANSI redraws on a terminal, nothing otherwise (lines are printed instead)."""

    def __init__(self, view, out, tty, redraw_s):
        self.view = view
        self.out = out
        self.tty = tty and not out.raw
        self.redraw_s = redraw_s
        self.dirty = True
        self.drawn_at = 0.0

    def draw(self, force=False):
        if not self.tty or not (self.dirty or force):
            return
        now = time.time()
        if not force and now - self.drawn_at < self.redraw_s:
            return
        self.out.stream.write(frame(self.view.render(color=True)))
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


def watch(make_client, args, out, stream_is_tty=None):
    """Run the watch view until Ctrl-C (or, with args.once, the end of the next run); the exit code."""
    from ..commands.remote import WATCH_POLL_S, WATCH_RECONNECT_S, WATCH_REDRAW_S, run_exit_code
    tty = out.stream.isatty() if stream_is_tty is None else stream_is_tty
    screen = _Screen(WatchView("cubebot on {}".format(args.port)), out, tty, WATCH_REDRAW_S)
    connected_once = False
    try:
        while True:
            try:
                with make_client(args) as link:
                    status = link.request("status")
                    connected_once = True
                    screen.view.apply_status(status)
                    screen.note(None)
                    while True:
                        message = link.next_event(WATCH_POLL_S)
                        if message is not None:
                            screen.event(message)
                            if args.once and _ended(message):
                                screen.draw(force=True)
                                return run_exit_code(message)
                        screen.draw()
            except LinkError as exc:
                if not connected_once or args.once:
                    raise
                screen.note("link lost ({}); reconnecting...".format(exc))
                time.sleep(WATCH_RECONNECT_S)
    except KeyboardInterrupt:
        if screen.tty:
            sys.stdout.write("\n")
        return 0
