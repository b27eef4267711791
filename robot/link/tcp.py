"""The link over TCP: the same JSON lines as on a serial port, behind a pairing code.

On a school's network any pupil could reach any brick, so the robot listens
on TCP only when asked (`cubebot run --tcp [HOST:]PORT`, the brick app, or
`cubebot serve --tcp [HOST:]PORT`) and shows its name, its addresses and a
short pairing code on its screen. Every connection may watch at
once (hello, ping, status, last_scan, the events); the commands that move
the robot (protocol.GATED_COMMANDS) need `{"cmd": "pair", "code": ...}` on
that connection first. A wrong code is refused, and the next try from the
same host is refused too until a wait has passed that doubles with every
wrong code (PAIR_BACKOFF_MIN_S .. PAIR_BACKOFF_MAX_S); the right code clears it.

The laptop side opens `tcp://HOST:PORT` with `open_tcp` and hands the port to
the usual LinkClient. Sockets and threads only: no POSIX-only call, so the
laptop side runs on Windows and macOS as well.
"""

import hmac
import logging
import random
import socket
import threading
import time

from cubebot.robot.link.framing import READ_POLL_S, WRITE_TIMEOUT_S
from cubebot.robot.link.protocol import ALL_SIZES, BAD_CODE, SLOW_DOWN, RequestError
from cubebot.robot.link.server import LinkServer

TCP_PREFIX = "tcp://"
DEFAULT_LISTEN_HOST = "0.0.0.0"       # the brick: every network (USB, Wi-Fi) when only a port is given
WILDCARD_HOSTS = ("0.0.0.0", "::", "")  # listening on every network: the screen lists each one's address
SIOCGIFADDR = 0x8915                   # Linux ioctl: the IPv4 address of a network interface (docs/references.md)
IFNAMSIZ = 16                          # Linux: the longest interface name, its NUL included
IFREQ_ADDR = slice(20, 24)             # the IPv4 address in the ioctl's struct ifreq (name, family, port)
CODE_DIGITS = 6                        # the pairing code shown on the brick's screen
PAIR_BACKOFF_MIN_S = 0.5               # wait after the first wrong code from a host ...
PAIR_BACKOFF_MAX_S = 30.0              # ... doubling per wrong code up to this bound
CONNECT_TIMEOUT_S = 5.0                # the laptop: connecting to the brick
ACCEPT_POLL_S = 0.2                    # how often the accept loop looks for close()
RECV_BYTES = 65536
LISTEN_BACKLOG = 8
MAX_PORT = 65535

LOG = logging.getLogger("cubebot.link")


def parse_address(text, default_host=DEFAULT_LISTEN_HOST):
    """(host, port) of "[HOST:]PORT" (a tcp:// prefix allowed); raises ValueError naming the fault."""
    rest = text[len(TCP_PREFIX):] if text.startswith(TCP_PREFIX) else text
    host, sep, port = rest.rpartition(":")
    if not sep:
        host = default_host
    host = host.strip("[]") or default_host
    if not port.isdigit() or not 0 <= int(port) <= MAX_PORT:
        raise ValueError("{!r} is not [HOST:]PORT with a port 0..{}".format(text[:60], MAX_PORT))
    return host, int(port)


def new_code(digits=CODE_DIGITS, rng=None):
    """A random pairing code of `digits` decimal digits (from the OS's random source)."""
    rng = rng or random.SystemRandom()
    return "".join(str(rng.randrange(10)) for _ in range(digits))


class SocketPort(object):
    """A connected socket with the few calls of a pyserial port that Channel and the link use.

    read() waits at most READ_POLL_S and returns b"" then; a closed connection
    raises OSError (as a vanished serial device does).
    """

    in_waiting = 0

    def __init__(self, sock, read_timeout_s=READ_POLL_S, write_timeout_s=WRITE_TIMEOUT_S):
        self.sock = sock
        self.read_timeout_s = read_timeout_s
        self.write_timeout_s = write_timeout_s
        self._write_lock = threading.Lock()
        sock.settimeout(read_timeout_s)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass

    def read(self, size=1):
        try:
            data = self.sock.recv(max(size, RECV_BYTES))
        except socket.timeout:
            return b""
        if not data:
            raise OSError("connection closed by the other end")
        return data

    def write(self, data):
        with self._write_lock:
            self.sock.settimeout(self.write_timeout_s)
            try:
                self.sock.sendall(data)
            finally:
                self.sock.settimeout(self.read_timeout_s)
        return len(data)

    def reset_input_buffer(self):
        """Nothing is stale on a fresh connection."""

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def open_tcp(address, baud=None, timeout_s=CONNECT_TIMEOUT_S):
    """The opener of a LinkClient for "tcp://HOST:PORT" (baud is ignored)."""
    host, port = parse_address(address, default_host="127.0.0.1")
    return SocketPort(socket.create_connection((host, port), timeout_s))


def reachable_addresses(listen_host):
    """The IPv4 addresses a laptop can reach a server listening on `listen_host` at: that host
    itself, or for a wildcard the address of each network interface but loopback (Linux, as on
    the brick; elsewhere the addresses of the host name). Cheap: no packet is sent."""
    if listen_host not in WILDCARD_HOSTS:
        return [listen_host]
    try:
        found = _interface_addresses()
    except (ImportError, AttributeError, OSError):
        found = _host_name_addresses()
    seen = []
    for address in found:
        if not address.startswith("127.") and address not in seen:
            seen.append(address)
    return seen


def _interface_addresses():
    """The IPv4 address of each interface that has one, in the kernel's order (Linux only)."""
    import fcntl
    import struct
    addresses = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode("utf-8")[:IFNAMSIZ - 1])
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:              # an interface without an IPv4 address (yet)
                continue
            addresses.append(socket.inet_ntoa(answer[IFREQ_ADDR]))
    finally:
        probe.close()
    return addresses


def _host_name_addresses():
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return sorted(set(info[4][0] for info in infos))


def is_tcp(device):
    return str(device).startswith(TCP_PREFIX)


class Pairing(object):
    """The robot's pairing code and the wrong tries per host (shared by all connections)."""

    def __init__(self, code=None, name=None, clock=time.monotonic):
        self.code = code or new_code()
        self.name = name or socket.gethostname()
        self.clock = clock
        self._lock = threading.Lock()
        self._failures = {}          # host -> (wrong tries, refused until)

    def gate(self, host):
        """The gate of one connection from `host`."""
        return Gate(self, host)

    def check(self, host, code):
        """Accept the right code (clears the host's wrong tries) or raise RequestError."""
        now = self.clock()
        with self._lock:
            fails, until = self._failures.get(host, (0, 0.0))
            if now < until:
                raise RequestError("too many wrong pairing codes: try again in {:.0f} s".format(
                    max(1.0, until - now)), SLOW_DOWN)
            if hmac.compare_digest(code.encode("utf-8"), self.code.encode("utf-8")):
                self._failures.pop(host, None)
                return
            fails += 1
            wait_s = min(PAIR_BACKOFF_MIN_S * 2 ** (fails - 1), PAIR_BACKOFF_MAX_S)
            self._failures[host] = (fails, now + wait_s)
        LOG.warning("wrong pairing code from %s (%d in a row)", host, fails)
        raise RequestError("wrong pairing code: use the code on the robot's screen", BAD_CODE)


class Gate(object):
    """One connection's pairing state (see protocol.Dispatcher)."""

    def __init__(self, pairing, host):
        self.pairing = pairing
        self.host = host
        self.paired = False

    def try_code(self, code):
        self.pairing.check(self.host, code)
        self.paired = True


class TcpLinkServer(object):
    """Serves the link on a TCP port: one LinkServer session per connection, all at once.

    Binds in the constructor (port 0 picks a free port: see `address`);
    serve_forever() until close(); start() runs it in a thread.
    """

    def __init__(self, service, host, port, sizes=ALL_SIZES, pairing=None, **options):
        self.service = service
        self.pairing = pairing or Pairing()
        self.sizes = sizes
        self.options = options
        self._closing = threading.Event()
        self._lock = threading.Lock()
        self._sessions = []
        self._thread = None
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._sock.bind((host, port))
            self._sock.listen(LISTEN_BACKLOG)
        except BaseException:
            self._sock.close()
            raise
        self._sock.settimeout(ACCEPT_POLL_S)
        self.address = self._sock.getsockname()[:2]       # (host, port) listened on

    def start(self):
        self._thread = threading.Thread(target=self.serve_forever, name="tcp-link")
        self._thread.daemon = True
        self._thread.start()
        return self

    def serve_forever(self):
        try:
            while not self._closing.is_set():
                try:
                    conn, peer = self._sock.accept()
                except socket.timeout:
                    continue
                except OSError:
                    if self._closing.is_set():
                        return
                    raise
                self._open_session(conn, peer)
        finally:
            self._sock.close()

    def _open_session(self, conn, peer):
        session = LinkServer(self.service, "tcp peer {}:{}".format(peer[0], peer[1]), sizes=self.sizes,
                             gate=self.pairing.gate(peer[0]), **self.options)
        with self._lock:
            self._sessions.append(session)
        LOG.info("link up with %s:%s", peer[0], peer[1])
        thread = threading.Thread(target=self._talk, args=(session, SocketPort(conn), peer),
                                  name="tcp-link-session")
        thread.daemon = True
        thread.start()

    def _talk(self, session, port, peer):
        try:
            why = session.serve_port(port)
        except Exception as exc:  # noqa: BLE001 - one connection's bug must not end the others
            why = "internal error: {}".format(exc)
        with self._lock:
            if session in self._sessions:
                self._sessions.remove(session)
        LOG.info("link closed with %s:%s%s", peer[0], peer[1], ": " + why if why else "")

    def addresses(self):
        """The IPv4 addresses laptops can reach this server at (looked up now: networks come and go)."""
        return reachable_addresses(self.address[0])

    def advert(self):
        """What the brick's screen shows: (name, addresses, port, pairing code)."""
        return (self.pairing.name, tuple(self.addresses()), self.address[1], self.pairing.code)

    def connections(self):
        with self._lock:
            return len(self._sessions)

    def close(self, timeout_s=None):
        """Stop accepting and end every connection (within one read poll)."""
        self._closing.set()
        with self._lock:
            sessions = list(self._sessions)
        for session in sessions:
            session.close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout_s)
