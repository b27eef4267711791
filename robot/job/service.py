"""RobotService: one robot shared by the button app and the serial link.

One run at a time, in a thread; events go to every subscriber as
`callback(name, payload)` from the run thread (names and payloads in
docs/architecture.md). `make_robot(size, seed)` returns the robot the
pipeline drives (cubebot.robot.job.pipeline.Robot); it is called at the start of each
run, so a simulated robot gets a fresh scrambled cube per seed.
"""

import logging
import threading

from cubebot.robot.errors import RobotError, Stopped

IDLE, SCANNING, SOLVING, TURNING, ERROR = "idle", "scanning", "solving", "turning", "error"
DEFAULT_SIZE = 3
LOG = logging.getLogger(__name__)


class RobotService(object):
    """See the module docstring and docs/architecture.md ("The robot service")."""

    def __init__(self, make_robot, default_size=DEFAULT_SIZE, budget=None, jobs=None, battery=None,
                 record_path=None):
        """jobs: optional (run_job, scan_job) replacing cubebot.robot.job.pipeline's (for tests);
        battery: optional () -> volts (the backend's Battery.read_voltage_v), shown in status();
        record_path: where the run's state is recorded as it goes (cubebot.robot.job.runrecord);
        the last result starts as what it says about the last run (an interrupted run too)."""
        self._battery = battery
        self._make_robot = make_robot
        self._jobs = jobs
        self._default_size = default_size
        self._budget = budget
        self._lock = threading.Lock()
        self._subscribers = []
        self._state = IDLE
        self._size = default_size
        self._thread = None
        self._stop_event = None
        self._last_result = None
        self._last_scan = None
        self._record = None
        if record_path is not None:
            from cubebot.robot.job.runrecord import RunRecord
            self._record = RunRecord(record_path)
            self._last_result = self._record.last_result()

    # -- subscribers ------------------------------------------------------
    def subscribe(self, callback):
        with self._lock:
            if callback not in self._subscribers:
                self._subscribers.append(callback)

    def unsubscribe(self, callback):
        with self._lock:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

    def _emit(self, name, payload):
        if self._record is not None:
            self._record.update(name, payload)
        with self._lock:
            if name == "state":
                self._state = payload["state"]
            subscribers = list(self._subscribers)
        for callback in subscribers:
            try:
                callback(name, payload)
            except Exception:  # noqa: BLE001 - a broken listener must not stop the robot
                LOG.exception("listener %r failed on event %r; the run goes on", callback, name)

    # -- queries ----------------------------------------------------------
    def status(self):
        """state, running, size, last_result; battery_v too when the robot has a battery."""
        with self._lock:
            status = {"state": self._state, "running": self._running(), "size": self._size,
                      "last_result": self._last_result}
        if self._battery is not None:
            status["battery_v"] = self._read_battery()
        return status

    def _read_battery(self):
        try:
            return round(float(self._battery()), 2)
        except Exception:  # noqa: BLE001 - a battery that cannot be read is shown as unknown
            return None

    def _running(self):
        return self._thread is not None and self._thread.is_alive()

    def last_scan(self):
        """The raw readings of the last scan (de-facto JSON object), or None."""
        with self._lock:
            return self._last_scan

    # -- runs -------------------------------------------------------------
    def start_run(self, size=None, seed=None):
        """Scan, solve and turn in a thread; return at once."""
        self._start("run", size, seed)

    def start_scan(self, size=None, seed=None):
        """Scan only (no solve, no turns) in a thread; return at once."""
        self._start("scan", size, seed)

    def _start(self, job, size, seed):
        size = self._default_size if size is None else size
        with self._lock:
            if self._running():
                raise RobotError("a run is already under way: stop it or wait for it first")
            self._size = size
            self._stop_event = threading.Event()
            if self._record is not None:
                self._record.begin(job, size, seed)
            self._thread = threading.Thread(target=self._run, args=(job, size, seed, self._stop_event),
                                            name="robot-run")
            self._thread.daemon = True
            self._thread.start()

    def _run(self, job, size, seed, stop_event):
        if self._jobs is None:
            from cubebot.robot.job.pipeline import run_job, scan_job
        else:
            run_job, scan_job = self._jobs
        result = None
        robot = None
        try:
            robot = self._make_robot(size, seed)
            if job == "scan":
                result = scan_job(robot, size, emit=self._emit, stop=stop_event)
            else:
                result = run_job(robot, size, emit=self._emit, stop=stop_event, budget=self._budget)
            self._emit("state", {"state": IDLE})
        except Stopped as exc:
            result = {"solved": False, "stopped": True, "size": size, "error": str(exc)}
            self._emit("error", {"message": str(exc)})
            self._emit("state", {"state": IDLE})
        except Exception as exc:  # noqa: BLE001 - reported to listeners, never lost in a thread
            result = {"solved": False, "size": size, "error": str(exc) or type(exc).__name__}
            self._emit("error", {"message": result["error"]})
            self._emit("state", {"state": ERROR})
        finally:
            if self._record is not None:
                self._record.end(result)
            scan = getattr(robot, "last_scan", None)
            with self._lock:
                self._last_result = result
                if scan is not None:
                    self._last_scan = scan

    def stop(self):
        """Ask the current run to stop; False if nothing is running."""
        with self._lock:
            if not self._running():
                return False
            self._stop_event.set()
            return True

    def wait(self, timeout_s=None):
        """Block until the current run ends (or timeout); the last result."""
        with self._lock:
            thread = self._thread
        if thread is not None:
            thread.join(timeout_s)
        with self._lock:
            return self._last_result

    # -- no motion --------------------------------------------------------
    def solve(self, state):
        """Solve a facelet string without moving: moves, length, metric, seconds."""
        from cubebot.solver.api import solve
        from cubebot.solver.moves import format_move
        solution = solve(state)
        return {"moves": [format_move(m) for m in solution.moves], "length": solution.length,
                "metric": solution.metric, "seconds": solution.seconds}
