"""LinkServer on pyserial's loop:// port: echo safety, reopening, surviving faults."""

import time

import serial

from cubebot.robot.link.server import LinkServer

from .fake_service import FakeService

WAIT_S = 10.0


def loop_port():
    port = serial.serial_for_url("loop://", baudrate=1000000, timeout=0.02, write_timeout=1.0, do_not_open=True)
    port.buffer_size = 256 * 1024
    port.open()
    return port


def wait_for(predicate):
    deadline = time.time() + WAIT_S
    while not predicate():
        assert time.time() < deadline, "timed out"
        time.sleep(0.01)


def test_its_own_output_echoed_back_is_ignored_no_loop():
    ports = []

    def opener(device, baud):
        ports.append(loop_port())
        return ports[-1]
    server = LinkServer(FakeService(), "loop://", opener=opener).start()
    try:
        wait_for(lambda: server.stats["ignored"] >= 1)          # the hello came back and was ignored
        ports[0].write(b'{"id": 1, "cmd": "ping"}\n')
        wait_for(lambda: server.stats["requests"] == 1 and server.stats["ignored"] >= 2)
        # a second ping marks the end: the port is read in order, so once its echoed reply is
        # ignored, everything before it has been read (a loop would have answered an echo)
        ports[0].write(b'{"id": 2, "cmd": "ping"}\n')
        wait_for(lambda: server.stats["requests"] == 2 and server.stats["ignored"] >= 3)
        assert server.stats["requests"] == 2 and server.stats["ignored"] == 3
    finally:
        server.close(WAIT_S)


class Broken(object):
    """A port whose reads fail with a bug-like error (not a SerialException)."""

    in_waiting = 0

    def read(self, size):
        raise TypeError("pyserial internals gone wrong")

    def write(self, data):
        return len(data)

    def close(self):
        pass


def test_waits_for_the_device_and_survives_a_broken_session():
    attempts = []

    def opener(device, baud):
        attempts.append(device)
        if len(attempts) <= 2:
            raise serial.SerialException(2, "could not open port {}: No such file".format(device))
        if len(attempts) == 3:
            return Broken()
        return loop_port()
    server = LinkServer(FakeService(), "/dev/rfcomm9", opener=opener, reconnect_max_s=0.05).start()
    try:
        wait_for(lambda: server.connected.is_set() and len(attempts) >= 4)
        assert server.stats["link_losses"] == 1 and server.stats["connections"] == 2
    finally:
        server.close(WAIT_S)
    assert not server._thread.is_alive()
