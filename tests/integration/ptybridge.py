"""A null-modem cable made of two ptys (what `socat pty,raw,echo=0 pty,raw,echo=0` does).

PtyBridge(folder) creates two pty pairs, links their slave ends as
folder/robot and folder/laptop, and copies bytes between the two masters
in two threads. `vanish()` pulls the cable (masters closed, links removed:
an open end gets EIO, reopening fails); `restore()` plugs a new one in
under the same names.
"""

import os
import select
import threading
import tty

POLL_S = 0.05
CHUNK = 65536


class PtyBridge(object):
    def __init__(self, folder):
        self.robot = os.path.join(str(folder), "robot")
        self.laptop = os.path.join(str(folder), "laptop")
        self.bytes_copied = 0
        self._fds = []
        self._threads = []
        self._running = threading.Event()
        self.restore()

    def restore(self):
        master_a, slave_a = os.openpty()
        master_b, slave_b = os.openpty()
        for fd in (slave_a, slave_b):
            tty.setraw(fd)           # no echo, no line editing before pyserial opens it
        self._fds = [master_a, master_b, slave_a, slave_b]   # keep the slaves open: no EIO on the masters
        os.symlink(os.ttyname(slave_a), self.robot)
        os.symlink(os.ttyname(slave_b), self.laptop)
        self._running.set()
        self._threads = [threading.Thread(target=self._copy, args=(master_a, master_b), daemon=True),
                         threading.Thread(target=self._copy, args=(master_b, master_a), daemon=True)]
        for t in self._threads:
            t.start()

    def _copy(self, src, dst):
        while self._running.is_set():
            ready, _, _ = select.select([src], [], [], POLL_S)
            if not ready:
                continue
            try:
                data = os.read(src, CHUNK)
            except OSError:
                return
            view = memoryview(data)
            while view and self._running.is_set():
                _, writable, _ = select.select([], [dst], [], POLL_S)
                if writable:
                    try:
                        n = os.write(dst, view)
                    except OSError:
                        return
                    self.bytes_copied += n
                    view = view[n:]

    def vanish(self):
        self._running.clear()
        for t in self._threads:
            t.join(2)
        for path in (self.robot, self.laptop):
            if os.path.lexists(path):
                os.remove(path)
        for fd in self._fds:
            os.close(fd)
        self._fds = []

    def close(self):
        if self._fds:
            self.vanish()
