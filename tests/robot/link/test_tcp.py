"""The link over TCP on loopback: the same protocol, watching open to all, moving behind the pairing code."""

import socket
import time

import pytest

from cubebot.robot.errors import LinkError, RemoteError
from cubebot.robot.link.client import LinkClient
from cubebot.robot.link.protocol import BAD_CODE, NOT_PAIRED, SLOW_DOWN
from cubebot.robot.link.tcp import (PAIR_BACKOFF_MAX_S, PAIR_BACKOFF_MIN_S, Pairing, TcpLinkServer, new_code,
                                    open_tcp, parse_address, reachable_addresses)
from tests.robot.link.fake_service import FakeService

WAIT_S = 10.0


class Clock(object):
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


@pytest.fixture
def served():
    service = FakeService()
    clock = Clock()
    server = TcpLinkServer(service, "127.0.0.1", 0, pairing=Pairing(code="482913", name="brick7", clock=clock))
    server.start()
    try:
        yield server, service, clock
    finally:
        server.close(WAIT_S)


def _client(server):
    return LinkClient("tcp://127.0.0.1:{}".format(server.address[1]), opener=open_tcp).open()


def _events_until(link, name):
    names = []
    deadline = time.time() + WAIT_S
    while time.time() < deadline:
        message = link.next_event(0.2)
        if message is not None:
            names.append(message["event"])
            if message["event"] == name:
                return names
    raise AssertionError("no {} event; got {}".format(name, names))


def test_watching_is_open_but_moving_needs_the_code(served):
    server, service, _ = served
    watcher, driver = _client(server), _client(server)
    try:
        hello = watcher.request("hello")
        assert hello["pairing"] == {"required": True, "paired": False} and "pair" in hello["commands"]
        assert watcher.request("ping") == {"pong": True}
        assert watcher.request("status")["state"] == "idle"
        for cmd in ("run", "scan", "stop"):
            reply = watcher.request_raw(cmd)
            assert reply["ok"] is False and reply["code"] == NOT_PAIRED, reply
        reply = watcher.request_raw("solve", state="U" * 54)
        assert reply["code"] == NOT_PAIRED
        assert service.status()["running"] is False
        assert driver.request("pair", code="482913") == {"paired": True}
        driver.request("run")
        # the unpaired watcher still sees every event of the run
        names = _events_until(watcher, "finished")
        assert names.count("scan_progress") == 54 and "solution" in names
        assert watcher.request_raw("run")["code"] == NOT_PAIRED         # pairing is per connection
    finally:
        watcher.close()
        driver.close()


def test_wrong_codes_are_refused_and_repeated_tries_slowed(served):
    server, service, clock = served
    link = _client(server)
    try:
        for wrong in range(1, 12):
            wait_s = min(PAIR_BACKOFF_MIN_S * 2 ** (wrong - 1), PAIR_BACKOFF_MAX_S)
            assert link.request_raw("pair", code="000000")["code"] == BAD_CODE
            reply = link.request_raw("pair", code="482913")       # even the right code, too soon: refused
            assert reply["code"] == SLOW_DOWN and "try again" in reply["error"]
            clock.t += wait_s - 0.1
            assert link.request_raw("pair", code="123123")["code"] == SLOW_DOWN
            clock.t += 0.2
        assert wait_s == PAIR_BACKOFF_MAX_S                       # bounded
        assert link.request_raw("run")["code"] == NOT_PAIRED
        assert service.status()["running"] is False
        assert link.request("pair", code="482913") == {"paired": True}
        link.request("run")
        _events_until(link, "finished")
        assert link.request_raw("pair", code="000000")["code"] == BAD_CODE   # counting starts again
        clock.t += PAIR_BACKOFF_MIN_S + 0.01
        assert link.request_raw("pair", code="000000")["code"] == BAD_CODE
    finally:
        link.close()


def test_bad_lines_get_replies_and_a_vanished_laptop_does_not_hurt_the_others(served):
    server, service, _ = served
    raw = socket.create_connection(server.address, timeout=WAIT_S)
    link = _client(server)
    try:
        raw.sendall(b"garbage\n{\"id\": 1, \"cmd\": \"pair\", \"code\": 5}\n")
        data = b""
        while data.count(b"\n") < 3:                     # hello, then two error replies
            data += raw.recv(65536)
        lines = data.decode().splitlines()
        assert '"bad_frame"' in lines[1] and '"bad_request"' in lines[2]
        raw.close()
        assert link.request("ping") == {"pong": True}
        deadline = time.time() + WAIT_S
        while server.connections() != 1 and time.time() < deadline:
            time.sleep(0.05)
        assert server.connections() == 1
    finally:
        link.close()


def test_a_closed_server_is_a_lost_link_for_the_laptop(served):
    server, _, _ = served
    link = _client(server)
    try:
        server.close(WAIT_S)
        with pytest.raises(LinkError):
            for _ in range(50):
                link.request("ping", timeout_s=0.5)
                time.sleep(0.1)
    finally:
        link.close()
    with pytest.raises(LinkError):
        LinkClient("tcp://127.0.0.1:{}".format(server.address[1]), opener=open_tcp).open()


def test_addresses_and_codes():
    assert parse_address("7000") == ("0.0.0.0", 7000)
    assert parse_address("tcp://10.0.0.2:7000") == ("10.0.0.2", 7000)
    assert parse_address("[::1]:80") == ("::1", 80)
    for bad in ("", "x", "host:", "host:99999", "host:-1", "1.2.3.4:7e3"):
        with pytest.raises(ValueError):
            parse_address(bad)
    codes = set(new_code() for _ in range(50))
    assert all(len(c) == 6 and c.isdigit() for c in codes) and len(codes) > 40


def test_the_serial_link_has_no_pairing():
    from cubebot.robot.link.protocol import Dispatcher
    dispatcher = Dispatcher(FakeService(), "0")
    assert "pairing" not in dispatcher.hello()["data"] and "pair" not in dispatcher.commands
    reply = dispatcher.handle({"id": 1, "cmd": "pair", "code": "1"})
    assert reply["code"] == "unknown_command"


def test_remote_error_text_of_a_refusal(served):
    server, _, _ = served
    link = _client(server)
    try:
        with pytest.raises(RemoteError) as info:
            link.request("run")
        assert "pairing code" in str(info.value)
    finally:
        link.close()


def test_the_brick_shows_its_name_port_and_code():
    pytest.importorskip("PIL")
    from cubebot.robot.ui.screens import HEIGHT_PX, WIDTH_PX, pairing_screen
    one, other = pairing_screen("brick7", "482913", 7000), pairing_screen("brick7", "105577", 7000)
    assert one.info["screen"] == "pairing" and one.size == (WIDTH_PX, HEIGHT_PX)
    assert one.tobytes() != other.tobytes()          # the code is drawn


def test_the_screens_show_name_addresses_and_the_code_large():
    pytest.importorskip("PIL")
    from cubebot.robot.ui.screens import MAX_ADDRESSES_SHOWN, PAIRING_CODE_SCALE, pairing_screen, ready_screen
    from tests.robot.screen_support import shows
    advert = ("brick7", ("192.168.1.23", "10.42.0.3", "172.16.0.9"), 7000, "482913")
    ready = ready_screen(3, "solved, 21 moves, 51 s", True, advert)
    pairing = pairing_screen("brick7", "482913", 7000, advert[1])
    for image in (ready, pairing):
        assert shows(image, "Name: brick7") and shows(image, "482 913", PAIRING_CODE_SCALE)
        assert shows(image, "IP: 192.168.1.23:7000") and shows(image, "IP: 10.42.0.3:7000")
        assert not shows(image, "172.16.0.9") and MAX_ADDRESSES_SHOWN == 2       # two lines at most
        assert not shows(image, "482 914", PAIRING_CODE_SCALE)                  # the search tells codes apart
    assert shows(ready, "Last: solved, 21 moves, 51 s") and shows(ready, "Cube on the table or ENTER.")
    offline = ready_screen(2, None, False, ("brick7", (), 7000, "000111"))
    assert shows(offline, "TCP port 7000 (no network)") and shows(offline, "000 111", PAIRING_CODE_SCALE)
    assert not shows(ready_screen(3), "Pairing code:")                           # no TCP, no code


def test_a_long_name_and_a_long_last_line_stay_above_the_footer():
    pytest.importorskip("PIL")
    from cubebot.robot.ui.screens import FOOTER_Y_PX, WIDTH_PX, ready_screen
    advert = ("b" * 64, ("192.168.100.200", "10.42.0.3"), 65535, "123456")
    image = ready_screen(3, "solved, 121 moves, 1234 s " + "x" * 60, True, advert)
    band = image.crop((0, FOOTER_Y_PX - 2, WIDTH_PX, FOOTER_Y_PX - 1))
    assert band.getextrema() == (0, 0)               # the footer's line is whole: nothing ran into it
    blank = image.crop((0, FOOTER_Y_PX - 4, WIDTH_PX, FOOTER_Y_PX - 2)).convert("L")
    assert blank.getextrema() == (255, 255)          # and the rows just above it are empty


def test_the_addresses_a_laptop_can_reach():
    assert reachable_addresses("192.168.1.23") == ["192.168.1.23"]     # bound to one: that one
    found = reachable_addresses("0.0.0.0")
    assert all(not a.startswith("127.") for a in found) and len(set(found)) == len(found)
    for address in found:                       # each one is this machine's: a socket binds to it
        probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            probe.bind((address, 0))
        finally:
            probe.close()
    server = TcpLinkServer(FakeService(), "127.0.0.1", 0, pairing=Pairing(code="482913", name="brick7"))
    try:
        assert server.advert() == ("brick7", ("127.0.0.1",), server.address[1], "482913")
    finally:
        server.close(WAIT_S)
