"""A `solve` request computed beside the link, so the link keeps answering.

A solve takes seconds here and minutes on the brick (4x4x4). The server
must still answer `ping`, `status` and `stop` meanwhile, and a stopped
solve must really end, not go on eating the brick's one core and its
memory. So the reply to a `solve` is computed in a forked child (its own
process group, so that the 3x3x3 engine's own children go with it): the
child runs `handle(request)` (the protocol's dispatcher: it turns every
error into a reply) and writes the reply as one JSON line into a pipe.

  job = SolveJob(handle, request, deliver)   fork, and a thread that waits
  job.abandon()                              kill the child's group; deliver is never called
  job.running                                until the child has ended

`deliver(reply)` is called from the waiting thread with the child's reply,
or with an `internal` error reply if the child died without one.
"""

import json
import os
import signal
import threading

READ_CHUNK = 65536


def _child(handle, request, fd):
    """In the forked child: one reply line into fd, then exit without cleanup."""
    status = 0
    try:
        os.setpgid(0, 0)
        data = (json.dumps(handle(request), sort_keys=True) + "\n").encode("utf-8")
        while data:
            data = data[os.write(fd, data):]
    except BaseException:  # noqa: BLE001 - the parent reports a child that ends without a reply
        status = 1
    finally:
        os._exit(status)


class SolveJob(object):
    """One solve request in a forked child; see the module docstring."""

    def __init__(self, handle, request, deliver, failed_reply):
        self.request = request
        self._deliver = deliver
        self._failed_reply = failed_reply
        self._lock = threading.Lock()
        self._abandoned = False
        self._finished = False
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            _child(handle, request, write_fd)
        os.close(write_fd)
        self.pid = pid
        try:
            os.setpgid(pid, pid)          # also here: no race with the child's own call
        except OSError:
            pass
        self._done = threading.Event()
        thread = threading.Thread(target=self._wait, args=(read_fd,), name="link-solve")
        thread.daemon = True
        thread.start()

    @property
    def running(self):
        return not self._done.is_set()

    def wait(self, timeout_s=None):
        """Block until the child has ended (and its reply was delivered); True if it has."""
        return self._done.wait(timeout_s)

    def abandon(self):
        """Kill the child and everything it started; its reply is dropped. True if it was running."""
        with self._lock:
            if self._abandoned or self._finished:
                return False
            self._abandoned = True
        for kill in (lambda: os.killpg(self.pid, signal.SIGKILL), lambda: os.kill(self.pid, signal.SIGKILL)):
            try:
                kill()
                break
            except OSError:
                continue
        return True

    def _wait(self, fd):
        data = b""
        try:
            while True:
                chunk = os.read(fd, READ_CHUNK)
                if not chunk:
                    break
                data += chunk
        finally:
            os.close(fd)
            os.waitpid(self.pid, 0)
        try:
            reply = json.loads(data.decode("utf-8")) if data.endswith(b"\n") else None
        except ValueError:
            reply = None
        with self._lock:
            abandoned = self._abandoned
            self._finished = True
        try:
            if not abandoned:
                self._deliver(reply if isinstance(reply, dict) else self._failed_reply)
        finally:
            self._done.set()
