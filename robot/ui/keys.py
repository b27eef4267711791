"""Brick buttons from a terminal: lines typed on stdin act as button presses.

For `cubebot run --keys` (over SSH, or with a virtual brick, which has no
buttons): an empty line is ENTER, "u"/"d" are UP/DOWN, "b" is BACKSPACE,
"q" asks the app to quit. A reader thread turns each line into one press
that `pressed()` reports once.
"""

import sys
import threading

from cubebot.robot.hw.interface import Buttons

KEYS = {"": "enter", "u": "up", "d": "down", "b": "backspace", "l": "left", "r": "right"}
QUIT = "q"


class StdinButtons(Buttons):
    """hardware.Buttons fed by lines on a text stream (stdin by default)."""

    def __init__(self, stream=None):
        self._stream = stream if stream is not None else sys.stdin
        self._lock = threading.Lock()
        self._pending = []
        self._quit = False
        thread = threading.Thread(target=self._read, name="stdin-buttons")
        thread.daemon = True
        thread.start()

    def _read(self):
        for line in self._stream:
            key = line.strip().lower()
            if key == QUIT:
                self._quit = True
                return
            with self._lock:
                if key in KEYS:
                    self._pending.append(KEYS[key])
        self._quit = True

    @property
    def quit(self):
        """True once "q" or the end of input was read and every press before it taken."""
        with self._lock:
            return self._quit and not self._pending

    def pressed(self):
        with self._lock:
            if self._pending:
                return {self._pending.pop(0)}
        return set()
