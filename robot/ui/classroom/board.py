"""The classroom board: the robot's events folded into one whole snapshot.

`Board.event(name, payload)` takes the events of docs/architecture.md
(state, scan_progress, solution, move_progress, finished, error, and any
other: an unknown event is kept under "extra", an unknown state is shown by
its name); `link(...)` and `status(...)` take what the source knows of the
link and the robot. `snapshot()` is a JSON-ready dict of everything a page
draws, so a tab that opens late or reconnects redraws at once; `wait(seq)`
blocks until there is a newer one. Timers are robot-independent wall time
of this laptop (a phase's seconds, the whole run's, and an estimate of the
time left from the run's own pace and the lesson's earlier runs).
"""

import threading
import time

from cubebot.solver.moves import apply

DEFAULT_THINK_S = 5.0             # time-left estimate before any run has been logged: thinking ...
DEFAULT_MOVE_S = 2.5              # ... one move turned
DEFAULT_SCAN_S = 60.0             # ... the whole scan of a 3x3x3
MAX_MESSAGE_CHARS = 200           # a fault shown on the banner is cut to this
RUNS_IN_SNAPSHOT = 20             # the newest logged runs a snapshot carries (the CSV has them all)
LINK_CONNECTING, LINK_UP, LINK_DOWN, LINK_QUIET = "connecting", "up", "down", "quiet"
ENDING_STATES = ("idle", "error")
STOPPED_PREFIX = "stopped on request"     # how a stopped run's error begins
HANDLED_EVENTS = ("hello", "state", "scan_progress", "solution", "move_progress", "finished", "error")

# Plain words for the banner, per robot state; states not listed show their own name.
STATE_WORDS = {
    "idle": "Ready",
    "solving": "Thinking",
    "checking": "Checking the cube",
    "error": "Fault",
}


def _words(state):
    return STATE_WORDS.get(state, str(state).replace("_", " ").capitalize())


def _cut(text, limit=MAX_MESSAGE_CHARS):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


class Board(object):
    """See the module docstring. `clock` gives wall seconds; `history()` the logged runs."""

    def __init__(self, target, clock=time.time, history=None, on_run_end=None):
        self.clock = clock
        self.history = history or (lambda: [])
        self.on_run_end = on_run_end          # called with each ended run's log entry
        self._cond = threading.Condition()
        self._seq = 0
        self._link = {"state": LINK_CONNECTING, "target": target, "detail": "",
                      "pairing": {"required": False, "paired": False}}
        self._robot = {"state": None, "running": False, "size": None, "battery_v": None,
                       "sizes": [], "software": None}
        self._run = None
        self._last = None                 # the last ended run (its log entry)
        self._note = ""
        self._ever_up = False

    # -- in ------------------------------------------------------------------
    def link(self, state, detail="", pairing=None):
        """The link's state; a link that was never up stays "connecting" (its detail says why)."""
        with self._cond:
            self._ever_up = self._ever_up or state == LINK_UP
            if state == LINK_DOWN and not self._ever_up:
                state = LINK_CONNECTING
            self._link["state"] = state
            self._link["detail"] = _cut(detail)
            if pairing is not None:
                self._link["pairing"] = dict(pairing)
            self._changed()

    def hello(self, data):
        """The hello of a link (or the in-process equivalent): sizes, software, status."""
        with self._cond:
            self._robot["sizes"] = list(data.get("sizes") or [])
            self._robot["software"] = data.get("software")
            if isinstance(data.get("pairing"), dict):
                self._link["pairing"] = dict(data["pairing"])
            self._status(data.get("status") or {})
            self._changed()

    def status(self, status):
        """The robot's status (polled): a new snapshot only when something changed."""
        with self._cond:
            before = (dict(self._robot), self._run is not None and self._run["ended"])
            self._status(status)
            if (self._robot, self._run is not None and self._run["ended"]) != before:
                self._changed()

    def _status(self, status):
        for key in ("state", "running", "size", "battery_v"):
            if key in status:
                self._robot[key] = status[key]
        if self._run is not None and not status.get("running", True) and \
                status.get("state") in ENDING_STATES and self._run["phase"] not in ENDING_STATES:
            self._end_run(None, "the link missed the end of the run")

    def note(self, text):
        """One line under the banner (a refused command, pairing), or "" to clear it."""
        with self._cond:
            self._note = _cut(text)
            self._changed()

    def event(self, name, payload):
        payload = payload if isinstance(payload, dict) else {}
        with self._cond:
            handler = getattr(self, "_on_" + name) if name in HANDLED_EVENTS else None
            try:
                if handler is None:
                    self._on_other(name, payload)
                else:
                    handler(payload)
            except (TypeError, ValueError, KeyError, AttributeError, IndexError):
                self._note = _cut("an event the page cannot read was skipped: {}".format(name))
            self._changed()

    # -- the events ------------------------------------------------------------
    def _new_run(self, size):
        now = self.clock()
        size = size or self._robot["size"] or 3
        self._run = {
            "started": now, "ended": None, "phase": None, "phase_started": now, "phases": {},
            "kind": "run", "size": size, "scan": _empty_scan(size), "solution": None,
            "cube": None, "result": None, "error": None, "extra": {},
        }

    def _on_state(self, payload):
        state = payload.get("state")
        self._robot["state"] = state
        now = self.clock()
        if self._run is None or self._run["ended"] is not None:
            if state in ENDING_STATES:
                return
            self._new_run(self._robot["size"])
        run = self._run
        if run["phase"] is not None:
            run["phases"][run["phase"]] = run["phases"].get(run["phase"], 0.0) + now - run["phase_started"]
        run["phase"], run["phase_started"] = state, now
        self._robot["running"] = state not in ENDING_STATES
        if state in ENDING_STATES:
            self._end_run(now, None)

    def _active(self):
        if self._run is None or self._run["ended"] is not None:
            self._new_run(self._robot["size"])
            self._run["phase"] = self._robot["state"]
        return self._run

    def _on_scan_progress(self, payload):
        run = self._active()
        total = payload.get("total")
        scan = run["scan"]
        if isinstance(total, int) and total != scan["total"] and total > 0:
            size = int(round((total // 6) ** 0.5))
            run["size"] = size
            run["scan"] = scan = _empty_scan(size)
        readings = payload.get("readings") or {}
        for key in sorted(readings):
            scan["raw"][str(key)] = readings[key]
            if payload.get("rescan"):
                if str(key) not in scan["rescanned"]:
                    scan["rescanned"].append(str(key))
        for field in ("done", "face", "faces", "rescan"):
            if field in payload:
                scan[field] = payload[field]
        if "doubtful" in payload:
            scan["doubtful"] = [int(i) for i in payload["doubtful"]]

    def _on_solution(self, payload):
        run = self._active()
        moves = list(payload.get("moves") or [])
        state = payload.get("state")
        run["scan"]["resolved"] = state
        run["scan"]["doubtful"] = []
        run["solution"] = {"moves": moves, "done": 0, "total": len(moves)}
        run["cube"] = state

    def _on_move_progress(self, payload):
        run = self._active()
        solution = run["solution"]
        if solution is None:
            return
        done = int(payload.get("done", 0))
        before = solution["done"]
        solution["done"] = done
        if "total" in payload:
            solution["total"] = payload["total"]
        scanned = run["scan"]["resolved"]
        if scanned is None:
            return
        try:
            if done == before + 1 and run["cube"] is not None:
                run["cube"] = apply(run["cube"], " ".join(solution["moves"][before:done]))
            else:                       # progress events were dropped: from the scanned cube
                run["cube"] = apply(scanned, " ".join(solution["moves"][:done]))
        except Exception:  # noqa: BLE001 - a move the model cannot turn: keep the last picture
            pass

    def _on_finished(self, payload):
        run = self._active()
        run["result"] = payload
        if payload.get("state"):
            run["scan"]["resolved"] = payload["state"]
            if run["cube"] is None:
                run["cube"] = payload["state"]
        if "doubtful" in payload:
            run["scan"]["doubtful"] = list(payload.get("doubtful") or [])
        if "moves" not in payload:
            run["kind"] = "scan"

    def _on_error(self, payload):
        if self._run is None:
            self._new_run(self._robot["size"])
        self._run["error"] = _cut(payload.get("message", "the robot reported an error"))
        if self._run["ended"] is not None:
            self._last["error"] = self._run["error"]

    def _on_hello(self, payload):
        self._robot["sizes"] = list(payload.get("sizes") or [])
        self._robot["software"] = payload.get("software")
        self._status(payload.get("status") or {})

    def _on_other(self, name, payload):
        if self._run is not None:
            self._run["extra"][str(name)[:40]] = payload

    def _end_run(self, now, error):
        run = self._run
        now = self.clock() if now is None else now
        run["ended"] = now
        if error and not run["error"]:
            run["error"] = error
        entry = self._entry(run)
        self._last = entry
        if self.on_run_end is not None:
            try:
                self.on_run_end(entry)
            except Exception as exc:  # noqa: BLE001 - a full disk must not stop the board
                self._note = _cut("the run log could not be saved: {}".format(exc))

    def _entry(self, run):
        result = run["result"] or {}
        moves = result.get("moves")
        entry = {
            "started": round(run["started"], 3), "kind": run["kind"], "size": run["size"],
            "solved": bool(result.get("solved")), "stopped": _stopped(run["error"]),
            "moves": len(moves) if isinstance(moves, list) else None,
            "wall_seconds": round(run["ended"] - run["started"], 3),
            "phase_seconds": dict((k, round(v, 3)) for k, v in run["phases"].items()),
            "error": run["error"] or result.get("error") or "",
        }
        for key in ("scan_seconds", "compute_seconds", "turn_seconds", "total_seconds", "rescans"):
            if key in result:
                entry[key] = result[key]
        return entry

    def _changed(self):
        self._seq += 1
        self._cond.notify_all()

    # -- out -----------------------------------------------------------------
    def wait(self, seq, timeout_s):
        """Block until the board is newer than `seq` (or timeout); the current seq."""
        with self._cond:
            if self._seq <= seq:
                self._cond.wait(timeout_s)
            return self._seq

    @property
    def seq(self):
        with self._cond:
            return self._seq

    def snapshot(self):
        """Everything a page draws (JSON-ready), with `seq` and the server's `now`."""
        with self._cond:
            now = self.clock()
            run = None
            if self._run is not None:
                run = dict(self._run)
                run["scan"] = dict(run["scan"], raw=dict(run["scan"]["raw"]),
                                   rescanned=list(run["scan"]["rescanned"]))
                run["phases"] = dict(run["phases"])
                if run["ended"] is None and run["phase"] is not None:
                    run["phases"][run["phase"]] = run["phases"].get(run["phase"], 0.0) + now - run["phase_started"]
                run["elapsed"] = (run["ended"] or now) - run["started"]
                run["left_s"] = self._left(run, now)
            snap = {"seq": self._seq, "now": now, "link": dict(self._link), "robot": dict(self._robot),
                    "run": run, "note": self._note, "banner": self._banner(run)}
        runs = list(self.history())
        snap["runs"], snap["runs_total"] = runs[-RUNS_IN_SNAPSHOT:], len(runs)
        return snap

    def _banner(self, run):
        link = self._link
        if link["state"] == LINK_CONNECTING:
            return {"text": "Connecting to the robot", "tone": "wait", "detail": link["detail"]}
        if link["state"] == LINK_DOWN:
            return {"text": "Link lost: reconnecting", "tone": "fault", "detail": link["detail"]}
        if link["state"] == LINK_QUIET:
            return {"text": "The robot does not answer", "tone": "fault", "detail": link["detail"]}
        state = self._robot["state"]
        if run is None or run["ended"] is not None:
            if run is not None and run["error"]:
                if _stopped(run["error"]):
                    return {"text": "Stopped: the robot is safe", "tone": "wait", "detail": run["error"]}
                return {"text": "Fault: " + run["error"], "tone": "fault", "detail": ""}
            if run is not None and run["result"] is not None:
                return _result_banner(run)
            if state not in (None, "idle"):
                return {"text": _words(state), "tone": "busy", "detail": ""}
            return {"text": "Ready", "tone": "ok", "detail": "press Run"}
        phase = run["phase"]
        if phase == "scanning":
            scan = run["scan"]
            if scan["rescan"]:
                text = "Rescanning doubtful facelets: face {} of {}".format(scan["face"] or 1, scan["faces"] or 1)
            else:
                text = "Scanning face {} of {}".format(scan["face"] or 1, scan["faces"] or 6)
            return {"text": text, "tone": "busy", "detail": ""}
        if phase == "turning" and run["solution"] is not None:
            solution = run["solution"]
            return {"text": "Turning move {} of {}".format(min(solution["done"] + 1, solution["total"]),
                                                           solution["total"]), "tone": "busy", "detail": ""}
        return {"text": _words(phase), "tone": "busy", "detail": ""}

    def _left(self, run, now):
        """Seconds left in the run (None when not known): the run's own pace, else the lesson's."""
        if run["ended"] is not None:
            return 0.0
        think, per_move = _history_paces(self.history())
        phase = run["phase"]
        scan = run["scan"]
        phase_s = now - run["phase_started"]
        if phase == "scanning":
            total = scan["total"] or 54
            done = min(scan["done"] or 0, total)
            scan_left = DEFAULT_SCAN_S * total / 54.0 if done == 0 else phase_s / done * (total - done)
            return scan_left + think + per_move * _expected_moves(run["size"])
        if phase == "solving":
            return max(think - phase_s, 0.0) + per_move * _expected_moves(run["size"])
        if phase == "turning" and run["solution"] is not None:
            solution = run["solution"]
            if solution["done"]:
                return phase_s / solution["done"] * (solution["total"] - solution["done"])
            return per_move * solution["total"]
        return None


def _result_banner(run):
    result = run["result"]
    minutes, seconds = divmod(int(round(run["elapsed"])), 60)
    took = "{}:{:02d}".format(minutes, seconds)
    if run["kind"] == "scan":
        if result.get("state"):
            return {"text": "Scanned in " + took, "tone": "ok", "detail": ""}
        return {"text": "Scan not resolved", "tone": "fault", "detail": "{} facelets in doubt".format(
            len(result.get("doubtful") or []))}
    if result.get("solved"):
        return {"text": "Solved: {} moves in {}".format(len(result.get("moves") or []), took),
                "tone": "ok", "detail": ""}
    return {"text": "Not solved", "tone": "fault", "detail": _cut(result.get("error") or "")}


def _stopped(error):
    """True for the error of a run stopped on request (cubebot.robot.errors.Stopped)."""
    return (error or "").startswith(STOPPED_PREFIX)


def _empty_scan(size):
    return {"size": size, "total": 6 * size * size, "done": 0, "face": 0, "faces": 0, "rescan": 0,
            "raw": {}, "resolved": None, "doubtful": [], "rescanned": []}


def _expected_moves(size):
    """Moves a solution of this size typically has, for the estimate before it is known."""
    return {2: 10, 3: 20}.get(size, 20 * size)


def _history_paces(runs):
    """(thinking seconds, seconds per move) averaged over the logged solved runs, or the defaults."""
    thinks, per_move = [], []
    for entry in runs:
        phases = entry.get("phase_seconds") or {}
        if entry.get("solved") and entry.get("moves"):
            if "solving" in phases:
                thinks.append(phases["solving"])
            if "turning" in phases:
                per_move.append(phases["turning"] / entry["moves"])
    think = sum(thinks) / len(thinks) if thinks else DEFAULT_THINK_S
    move = sum(per_move) / len(per_move) if per_move else DEFAULT_MOVE_S
    return think, move
