"""The fake sysfs tree of a virtual brick: directories and attribute files.

python-ev3dev2 reads and writes one file per device attribute under
`Device.DEVICE_ROOT_PATH` (normally /sys/class). Its habits shape this module:
  * it opens a file read-write only if the group write bit is set, so every
    file is created with mode 0666;
  * it keeps each file handle open for good and rewrites it with seek(0) +
    write, never truncating: writing "hold" over "coast" leaves "holdt";
  * it never re-opens a file, so files must be rewritten in place (a file
    replaced by rename would never be seen).
So the simulator writes its values in place as fixed-width, space-padded text
(ev3dev2 strips whitespace), reads the values ev3dev2 writes by matching
known words as prefixes, and truncates written numbers and commands once it
has consumed them so that the next write leaves no stale tail.
"""

import os

FILE_MODE = 0o666
DIR_MODE = 0o777
FIELD_WIDTH = 40  # characters of every value the simulator writes
READ_BYTES = 4096


class AttrFile(object):
    """One attribute file, held open by the simulator for in-place rewrites."""

    def __init__(self, path, value=""):
        self.path = path
        fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
        os.chmod(path, FILE_MODE)  # the umask must not clear the group bits
        self._fd = fd
        self._last = None
        self.write(value)

    def write(self, value):
        """Rewrite the value in place, space-padded; skipped when unchanged."""
        text = str(value)
        if text == self._last:
            return
        data = text.ljust(FIELD_WIDTH).encode("ascii")
        os.pwrite(self._fd, data, 0)
        size = os.fstat(self._fd).st_size
        if size > len(data):
            os.ftruncate(self._fd, len(data))
        self._last = text

    def rewrite(self, value):
        """Rewrite the value even if the simulator wrote the same text last."""
        self._last = None
        self.write(value)

    def read(self):
        """The current content, stripped ('' when empty)."""
        return os.pread(self._fd, READ_BYTES, 0).decode("ascii", "replace").strip()

    def consume(self):
        """Read what ev3dev2 wrote and empty the file; None if it was empty."""
        text = self.read()
        if not text:
            return None
        os.ftruncate(self._fd, 0)
        self._last = None
        return text

    def clear(self):
        """Empty the file (a device that stopped answering)."""
        os.ftruncate(self._fd, 0)
        self._last = None

    def close(self):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def match_word(text, words):
    """The longest of `words` that `text` starts with, or None.

    Tolerates a stale tail left by a longer earlier write ("holdt" -> "hold").
    """
    best = None
    for word in words:
        if text.startswith(word) and (best is None or len(word) > len(best)):
            best = word
    return best


def parse_int(text, default):
    """An integer written by ev3dev2 (str(int)), or `default` if unreadable."""
    try:
        return int(text.strip())
    except (AttributeError, ValueError):
        return default


class DeviceDir(object):
    """A device directory (e.g. tacho-motor/motor0) and its attribute files."""

    def __init__(self, root, class_name, name, attributes):
        self.path = os.path.join(root, class_name, name)
        os.makedirs(self.path, DIR_MODE)
        self.files = {}
        for attr in sorted(attributes):
            sub = os.path.join(self.path, attr)
            parent = os.path.dirname(sub)
            if not os.path.isdir(parent):
                os.makedirs(parent, DIR_MODE)
            self.files[attr] = AttrFile(sub, attributes[attr])

    def __getitem__(self, attr):
        return self.files[attr]

    def close(self):
        for attr in sorted(self.files):
            self.files[attr].close()


def make_class_dirs(root, class_names):
    """Create the sysfs class folders (empty ones are what 'nothing plugged' looks like)."""
    for name in class_names:
        path = os.path.join(root, name)
        if not os.path.isdir(path):
            os.makedirs(path, DIR_MODE)
