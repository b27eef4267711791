"""The classroom page in a real headless Chromium (Debian's `chromium`, driven by Playwright for
Python; tests/run.sh installs both): a simulated run from Run to solved, Stop mid-run, a second
tab, and a reconnect after the server restarts, without reloading the page.

Set CUBEBOT_CLASSROOM_SHOTS=FOLDER to save screenshots of the page (scanning, turning, solved).
"""

import os
import sys

import pytest

from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply

from tests.integration.classroom_support import sim_classroom, snapshot

if sys.version_info < (3, 7):
    pytest.skip("Playwright for Python has no release for CPython 3.6", allow_module_level=True)

CHROMIUM = os.environ.get("CUBEBOT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 720}      # a projector
MIN_BANNER_PX = 48
PACE = 5                                        # the simulated robot 5x faster than the real one
WAIT_MS = 60000                                 # generous: the run itself takes seconds
SHOTS = os.environ.get("CUBEBOT_CLASSROOM_SHOTS")


@pytest.fixture(scope="module")
def browser():
    sync_api = _playwright()
    if not os.path.exists(CHROMIUM):
        pytest.fail("no chromium at {} (tests/run.sh installs Debian's chromium package)".format(CHROMIUM))
    with sync_api.sync_playwright() as play:
        chromium = play.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


def _playwright():
    try:
        import playwright.sync_api as sync_api
    except ImportError:
        pytest.fail("Playwright for Python is missing: pip install -e '.[test]' installs it")
    return sync_api


def _banner_is(page, prefix):
    page.wait_for_function("p => document.getElementById('banner-text').textContent.startsWith(p)", arg=prefix,
                           timeout=WAIT_MS)


def _shot(page, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, "classroom-{}.png".format(name)))


def test_a_run_from_run_to_solved_stop_mid_run_and_a_restarted_server(browser, tmp_path):
    log = tmp_path / "runs.json"
    page = browser.new_page(viewport=VIEWPORT)
    room = None
    try:
        with sim_classroom(log, pace=PACE) as room:
            port = room.port
            page.goto(room.url)
            _banner_is(page, "Ready")
            box = page.locator("#banner").bounding_box()
            assert box["height"] >= MIN_BANNER_PX and box["width"] >= VIEWPORT["width"] - 1
            size_px = page.eval_on_selector("#banner-text", "e => parseFloat(getComputedStyle(e).fontSize)")
            assert size_px >= MIN_BANNER_PX
            page.evaluate("window.notReloaded = true")

            # Run (by its key) to solved
            page.keyboard.press("r")
            _banner_is(page, "Scanning face 3 of 6")
            raw = page.locator("#net polygon.raw").count()
            assert 0 < raw < 54
            _shot(page, "scanning")
            _banner_is(page, "Turning move 3 of")
            other = browser.new_page(viewport=VIEWPORT)       # a second tab, opened mid-run
            other.goto(room.url)
            other.wait_for_function("document.getElementById('banner-text').textContent.startsWith('Turning')",
                                    timeout=WAIT_MS)
            assert other.locator("#strip .mv").count() > 0
            other.close()
            assert page.locator("#strip .mv.now").count() == 1
            # the next move's layer is outlined: its 21 stickers, each in one of the two views
            outlined = page.evaluate("document.querySelectorAll("
                                     "'#cube3d polygon.turning, #cube3d-back polygon.turning').length")
            assert outlined == 21
            layers = page.evaluate("[CubeDraw.moveLayers(\"3Rw'\", 5), CubeDraw.moveLayers('2R', 4), "
                                   "CubeDraw.moveLayers('U2', 3), CubeDraw.moveLayers('x', 3)]")
            assert layers == [["R", 1, 3], ["R", 2, 2], ["U", 1, 1], None]
            assert page.locator("#next-move").inner_text() not in ("", "-")
            _shot(page, "turning")
            _banner_is(page, "Solved: ")
            _shot(page, "solved")
            assert page.locator("#net polygon.raw").count() == 54
            assert page.locator("#cube3d polygon").count() == 27
            assert page.locator("#runs tbody tr").count() == 1
            run = snapshot(port)["run"]
            assert is_solved(apply(run["scan"]["resolved"], " ".join(run["solution"]["moves"])))
            assert page.locator("#t-left").inner_text() == "0:00"

            # Stop mid-run, by its button
            page.click("#btn-run")
            _banner_is(page, "Scanning face 2")
            page.click("#btn-stop")
            _banner_is(page, "Stopped: the robot is safe")
            page.wait_for_function("document.querySelectorAll('#runs tbody tr').length === 2", timeout=WAIT_MS)
            assert "stopped" in page.locator("#runs tbody tr").first.inner_text()
        room = None

        # the server is gone: the page says so, then picks up the restarted one by itself
        _banner_is(page, "Page server lost")
        with sim_classroom(log, pace=PACE, port=port) as room:
            _banner_is(page, "Ready")
            page.wait_for_function("document.querySelectorAll('#runs tbody tr').length === 2", timeout=WAIT_MS)
            assert page.evaluate("window.notReloaded") is True
            page.keyboard.press("c")                          # a scan, from the same page
            _banner_is(page, "Scanned in")
    finally:
        page.close()



SHOWN = {"#f4f4f4": "white", "#ffd500": "yellow", "#ff7a00": "orange", "#d21f1f": "red", "#10a04a": "green",
         "#1560d0": "blue"}
OPPOSITE = {"white": "yellow", "yellow": "white", "red": "orange", "orange": "red", "green": "blue",
            "blue": "green"}


def test_the_page_colours_each_face_as_its_readings_say(browser, tmp_path):
    """The scheme's standard cube is drawn in its colours (3x3x3: letters are centres); on a
    2x2x2 (letters follow one corner) each face gets one colour, opposite faces opposite colours."""
    from cubebot.robot.colour.scheme import STANDARD_SCHEME
    from tests.integration.classroom_support import request, wait_for
    page = browser.new_page(viewport=VIEWPORT)
    try:
        with sim_classroom(tmp_path / "runs.json", pace=1000) as room:
            page.goto(room.url)
            _banner_is(page, "Ready")
            for k, (size, seed) in enumerate([(3, 0), (3, 1), (2, 0), (2, 1), (2, 2)]):
                request(room.port, "POST", "/api/scan", {"size": size, "seed": seed})
                scan = wait_for(room.port, lambda s, runs=k + 1: len(s["runs"]) == runs, "the scan")["run"]["scan"]
                shown = page.evaluate("([raw, res]) => CubeDraw.letterColours(raw, res)",
                                      [scan["raw"], scan["resolved"]])
                colours = dict((face, SHOWN[value]) for face, value in shown.items())
                assert sorted(colours.values()) == sorted(SHOWN.values())
                if size == 3:
                    assert colours == STANDARD_SCHEME
                for a, b in (("U", "D"), ("R", "L"), ("F", "B")):
                    assert OPPOSITE[colours[a]] == colours[b], (size, seed, colours)
    finally:
        page.close()
