"""A null-modem cable made of two ptys (what `socat pty,raw,echo=0 pty,raw,echo=0` does).

PtyBridge(folder) creates two pty pairs, links their slave ends as
folder/robot and folder/laptop, and copies bytes between the two masters
in two threads. `vanish()` pulls the cable (masters closed, links removed:
an open end gets EIO, reopening fails); `restore()` plugs a new one in
under the same names. For the tests, the benchmark and trying the link on
one machine without socat:

    python3 -m cubebot.robot.link.ptypair [FOLDER]      # FOLDER/robot <-> FOLDER/laptop until Ctrl-C
"""

import os
import select
import signal
import sys
import threading
import time
import tty

POLL_S = 0.05
CHUNK = 65536


class PtyBridge(object):
    """See the module docstring. `carried` counts the bytes carried each way."""

    def __init__(self, folder):
        self.robot = os.path.join(str(folder), "robot")
        self.laptop = os.path.join(str(folder), "laptop")
        self.carried = {"to_laptop": 0, "to_robot": 0}
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
        for slave, link in ((slave_a, self.robot), (slave_b, self.laptop)):
            if os.path.lexists(link):
                os.remove(link)      # left over by a bridge that was killed
            os.symlink(os.ttyname(slave), link)
        self._running.set()
        self._threads = [_daemon(self._copy, master_a, master_b, "to_laptop"),
                         _daemon(self._copy, master_b, master_a, "to_robot")]
        for t in self._threads:
            t.start()

    def _copy(self, src, dst, way):
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
                    self.carried[way] += n
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


def _daemon(target, *args):
    thread = threading.Thread(target=target, args=args)
    thread.daemon = True
    return thread


def main(argv=None):
    """Keep a pty pair up under FOLDER (default /tmp) until Ctrl-C."""
    argv = sys.argv[1:] if argv is None else argv
    bridge = PtyBridge(argv[0] if argv else "/tmp")
    sys.stdout.write("{} <-> {} (Ctrl-C to end)\n".format(bridge.robot, bridge.laptop))
    sys.stdout.flush()
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        bridge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
