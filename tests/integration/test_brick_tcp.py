"""The brick app serving the link on TCP (`cubebot run --tcp`): its ready screen shows the
brick's name, address, port and pairing code; a laptop watches without the code, is refused a
run without it, and turns the cube to solved with it. As a process on the simulated robot, and
in this process on the virtual brick (the real python-ev3dev2 against its fake sysfs)."""

import configparser
import json
import os
import re
import subprocess
import sys
import threading
import time

import pytest

from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply

from cubebot.robot.link.client import LinkClient
from cubebot.robot.link.protocol import NOT_PAIRED
from cubebot.robot.link.tcp import open_tcp
from tests.integration.test_classroom_link import PROC_TIMEOUT_S, ROOT, Serve
from tests.robot.screen_support import shows

pytest.importorskip("PIL")

LISTENING = re.compile(r"listening on 127\.0\.0\.1:([0-9]+) as (.*), pairing code ([0-9]+)")
FINISHED_LOG = re.compile(r"run finished: solved, ([0-9]+) moves")
UNIT = os.path.join(ROOT, "systemd", "cubebot.service")
CLASSROOM_DOC = os.path.join(ROOT, "docs", "classroom.md")
WAIT_S = 120.0


def _grouped(code):
    from cubebot.robot.ui.screens import PAIRING_CODE_GROUP
    return " ".join(code[i:i + PAIRING_CODE_GROUP] for i in range(0, len(code), PAIRING_CODE_GROUP))


def _fits_one_line(text):
    from cubebot.robot.ui.screens import MARGIN_PX, WIDTH_PX, _font, text_width
    return text_width(_font(), text) <= WIDTH_PX - 2 * MARGIN_PX


def _until(predicate, what, timeout_s=WAIT_S):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def _events_until_finished(link):
    names = []
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        message = link.next_event(0.2)
        if message is not None:
            names.append(message["event"])
            if message["event"] == "finished":
                return names, message["data"]
    raise AssertionError("no finished event; got {}".format(names))


def _assert_shows_the_link(image, name, port, code):
    """The ready screen of a brick listening on 127.0.0.1:port with this name and code."""
    from cubebot.robot.ui.screens import PAIRING_CODE_SCALE
    assert image.info.get("screen", "ready") == "ready" and image.size == (178, 128)
    assert shows(image, _grouped(code), PAIRING_CODE_SCALE), "the pairing code is not on the screen"
    assert shows(image, "IP: 127.0.0.1:{}".format(port))
    if _fits_one_line("Name: " + name):                  # a long host name wraps: its lines differ
        assert shows(image, "Name: " + name)


def test_the_brick_app_serves_tcp_behind_the_code_on_its_screen(tmp_path):
    from PIL import Image
    shots = tmp_path / "shots"

    def ready_screens():
        return sorted(p for p in shots.iterdir() if p.name.endswith("-ready.png")) if shots.exists() else []

    app = Serve("--tcp", "127.0.0.1:0", "--screenshots", str(shots), "--settings", str(tmp_path / "app.json"),
                "--log-file", str(tmp_path / "app.log"), command="run")
    watcher = None
    try:
        port, name, code = app.wait_line(LISTENING).groups()
        first = _until(ready_screens, "the ready screen")[0]
        _assert_shows_the_link(Image.open(str(first)), name, port, code)
        wrong = "1" + code[1:] if code[0] != "1" else "2" + code[1:]
        from cubebot.robot.ui.screens import PAIRING_CODE_SCALE
        assert not shows(Image.open(str(first)), _grouped(wrong), PAIRING_CODE_SCALE)

        address = "tcp://127.0.0.1:" + port
        watcher = LinkClient(address, opener=open_tcp).open()       # never pairs: watches only
        assert watcher.request("hello")["pairing"] == {"required": True, "paired": False}
        assert watcher.request_raw("run")["code"] == NOT_PAIRED
        remote = [sys.executable, "-m", "cubebot", "remote", "--port", address]
        out = subprocess.run(remote + ["run", "--seed", "5"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, universal_newlines=True, timeout=PROC_TIMEOUT_S)
        assert out.returncode == 1 and out.stderr.count("\n") == 1 and "pairing code" in out.stderr
        assert watcher.request("status")["state"] == "idle"              # nothing moved

        out = subprocess.run(remote + ["--code", code, "--json", "run", "--seed", "5"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                             timeout=PROC_TIMEOUT_S)
        assert out.returncode == 0, out.stderr
        result = json.loads(out.stdout.splitlines()[-1])["data"]
        assert result["solved"] is True                      # the simulated cube on the table is solved
        assert is_solved(apply(result["state"], " ".join(result["moves"])))
        names, seen = _events_until_finished(watcher)       # the unpaired watcher saw the whole run
        assert names.count("scan_progress") == 54 and seen["moves"] == result["moves"]

        moves = app.wait_line(FINISHED_LOG).group(1)        # the app followed the run ...
        assert int(moves) == len(result["moves"])

        def ready_again():
            later = [p for p in ready_screens() if p != first]
            return later and Image.open(str(later[-1]))
        image = _until(ready_again, "the ready screen after the run")
        _assert_shows_the_link(image, name, port, code)     # ... and shows the code again, and the run
        assert shows(image, "Last: solved, {} moves,".format(moves))
    finally:
        if watcher is not None:
            watcher.close()
        app.stop()                                          # SIGTERM, as systemd stops it: exit 0


def test_the_app_on_the_virtual_brick_turns_the_cube_for_a_paired_laptop_only(tmp_path):
    pytest.importorskip("ev3dev2")
    from cubebot.robot.cli.serve import tcp_server
    from cubebot.robot.hw.ev3.devices import RealClock
    from cubebot.robot.job.pipeline import Robot
    from cubebot.robot.job.robots import open_backend, scrambled
    from cubebot.robot.job.service import RobotService
    from cubebot.robot.machine.config import Config
    from cubebot.robot.machine.mechanism import Mechanism
    from cubebot.robot.ui.app import App, Settings

    class Screen(object):
        def __init__(self):
            self.shown = []

        def show(self, image):
            self.shown.append(image)

    config = Config()
    with open_backend("virtual-brick", config) as opened:
        hw = opened.hw
        hw.screen = Screen()

        def make_robot(size, seed):
            opened.world.place_cube(scrambled(size, 11))
            return Robot(Mechanism(hw, config), world=opened.world)
        service = RobotService(make_robot)
        tcp = tcp_server(service, ("127.0.0.1", 0)).start()
        settings = Settings(str(tmp_path / "app.json"))
        settings.size = 2
        app = App(service, hw, settings, RealClock(), config.cube_present_cm, poll_s=0.01, link=tcp)
        done = threading.Event()
        loop = threading.Thread(target=app.run, args=(done.is_set,))
        loop.start()
        name, _, port, code = tcp.advert()
        links = []
        try:
            _assert_shows_the_link(hw.screen.shown[-1], name, port, code)
            address = "tcp://127.0.0.1:{}".format(port)
            watcher, driver = [LinkClient(address, opener=open_tcp).open() for _ in range(2)]
            links.extend([watcher, driver])
            assert driver.request_raw("run", size=2)["code"] == NOT_PAIRED
            assert service.status()["running"] is False and app.mode == "ready"
            assert driver.request("pair", code=code) == {"paired": True}
            driver.request("run", size=2)
            _, result = _events_until_finished(watcher)
            assert result["solved"] is True and opened.world.is_solved()
            assert is_solved(apply(result["state"], " ".join(result["moves"]), 2), 2)
            _until(lambda: app.mode == "ready" and app.finished_runs == 1, "the app ready again")
            assert app.view.last.startswith("solved, {} moves".format(len(result["moves"])))
            last = _until(lambda: hw.screen.shown[-1].info["screen"] == "ready" and hw.screen.shown[-1],
                          "the ready screen after the run")
            _assert_shows_the_link(last, name, port, code)
            assert any(image.info["screen"] == "working" for image in hw.screen.shown)  # it showed the run
        finally:
            for link in links:
                link.close()
            done.set()
            loop.join(WAIT_S)
            tcp.close(WAIT_S)
            service.stop()
            service.wait(WAIT_S)


def test_a_bad_address_is_a_usage_error_and_a_taken_port_a_fault_each_in_one_line(tmp_path):
    import socket
    app = [sys.executable, "-m", "cubebot", "run", "--sim", "--settings", str(tmp_path / "app.json"),
           "--log-file", str(tmp_path / "app.log"), "--tcp"]
    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        for address, code, needle in (("host:99999", 2, "port 0..65535"),
                                      ("127.0.0.1:{}".format(taken.getsockname()[1]), 1, "cannot listen on")):
            out = subprocess.run(app + [address], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 universal_newlines=True, timeout=PROC_TIMEOUT_S)
            assert out.returncode == code and out.stderr.count("\n") == 1 and needle in out.stderr, out.stderr
    finally:
        taken.close()


def _unit_service():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(UNIT)
    return parser["Service"]


def _documented_drop_in():
    """The drop-in docs/classroom.md gives for turning TCP on under systemd."""
    text = open(CLASSROOM_DOC).read()
    found = re.search(r'\[Service\]\\nEnvironment="CUBEBOT_RUN_ARGS=([^"]*)"', text)
    assert found, "docs/classroom.md gives no drop-in with CUBEBOT_RUN_ARGS"
    return found.group(1)


def test_the_service_keeps_tcp_off_and_the_documented_drop_in_turns_it_on(tmp_path):
    from cubebot.robot.cli.main import build_parser
    exec_start = _unit_service()["ExecStart"].split()
    assert exec_start[-4:] == ["-m", "cubebot", "run", "$CUBEBOT_RUN_ARGS"]
    assert re.search(r"(?m)^Environment=CUBEBOT_RUN_ARGS=$", open(UNIT).read())     # empty: TCP off
    parser = build_parser()
    assert parser.parse_args(["run"]).tcp is None
    # systemd splits an unquoted $VAR at whitespace into separate arguments
    args = parser.parse_args(exec_start[exec_start.index("run"):-1] + _documented_drop_in().split())
    assert args.tcp == ("0.0.0.0", 7000)


def test_systemd_accepts_the_unit_with_the_documented_drop_in(tmp_path):
    from tests.integration.test_deploy import SYSTEMD_ANALYZE, systemd_analyze_verify
    if not os.path.exists(SYSTEMD_ANALYZE):
        pytest.skip("systemd-analyze not installed")
    drop_in = tmp_path / "verify" / "cubebot.service.d" / "tcp.conf"
    drop_in.parent.mkdir(parents=True)
    drop_in.write_text('[Service]\nEnvironment="CUBEBOT_RUN_ARGS={}"\n'.format(_documented_drop_in()))
    assert systemd_analyze_verify(open(UNIT).read(), tmp_path) == (0, "")
    drop_in.write_text('[Service]\nEnviron="CUBEBOT_RUN_ARGS=--tcp 7000"\n')       # the check can fail
    assert systemd_analyze_verify(open(UNIT).read(), tmp_path)[1] != ""
