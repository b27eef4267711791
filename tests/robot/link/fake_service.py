"""A small stand-in for cubebot.robot.job.service.RobotService that follows its contract.

Used by the unit tests of the protocol layer (fast, no robot). The integration
tests use the real service with the simulated robot.
"""

import threading

from cubebot.robot.errors import RobotError, Stopped
from cubebot.solver import moves as cube_moves
from cubebot.solver.facelets import solved


class FakeService(object):
    """Emits state/scan_progress/solution/move_progress/finished for a canned solve."""

    SCRAMBLE = "R U F' D2 L B'"

    def __init__(self, step_s=0.0):
        self.step_s = step_s
        self._subscribers = []
        self._lock = threading.Lock()
        self._thread = None
        self._stop = threading.Event()
        self._release = threading.Event()
        self._release.set()
        self._result = None
        self._state = "idle"
        self._scan = None
        self.size = 3

    def subscribe(self, callback):
        with self._lock:
            self._subscribers.append(callback)

    def unsubscribe(self, callback):
        with self._lock:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

    def _emit(self, name, payload):
        with self._lock:
            subscribers = list(self._subscribers)
        for callback in subscribers:
            callback(name, payload)

    def status(self):
        return {"state": self._state, "running": self._running(), "size": self.size,
                "last_result": self._result}

    def _running(self):
        return self._thread is not None and self._thread.is_alive()

    def hold(self):
        """Make runs pause before turning until release() (for stop/busy tests)."""
        self._release.clear()

    def release(self):
        self._release.set()

    def start_run(self, size=None, seed=None):
        self._start(size, turn=True)

    def start_scan(self, size=None, seed=None):
        self._start(size, turn=False)

    def _start(self, size, turn):
        if size not in (None, 3):
            raise RobotError("the fake robot has only a 3x3x3, not {}".format(size))
        if self._running():
            raise RobotError("a run is already under way")
        self._stop.clear()
        self._thread = threading.Thread(target=self._job, args=(turn,), daemon=True)
        self._thread.start()

    def _set_state(self, state):
        self._state = state
        self._emit("state", {"state": state})

    def _job(self, turn):
        state = cube_moves.apply(solved(3), self.SCRAMBLE)
        solution = cube_moves.format_moves(cube_moves.invert(cube_moves.parse(self.SCRAMBLE))).split()
        try:
            self._set_state("scanning")
            readings = {}
            for i in range(54):
                readings[str(i)] = [i, i, i]
                self._emit("scan_progress", {"done": i + 1, "total": 54, "readings": dict(readings)})
            self._scan = dict((str(int(k) + 1), v) for k, v in readings.items())   # de-facto: "1".."54"
            self._set_state("solving")
            self._emit("solution", {"moves": solution, "state": state})
            if turn:
                self._set_state("turning")
                self._release.wait(5)
                for k in range(len(solution)):
                    if self._stop.is_set():
                        raise Stopped("stopped after {} of {} moves".format(k, len(solution)))
                    self._emit("move_progress", {"done": k + 1, "total": len(solution)})
            if turn:     # the shapes of pipeline.run_job / scan_job results
                self._result = {"solved": True, "state": state, "moves": solution, "size": 3, "flips": 0,
                                "scan_seconds": 1.0, "compute_seconds": 0.5, "turn_seconds": 2.0,
                                "total_seconds": 3.5}
            else:
                self._result = {"size": 3, "state": state, "doubtful": [], "rescans": 0, "scan_seconds": 1.0}
            self._set_state("idle")
            self._emit("finished", self._result)
        except RobotError as exc:
            self._result = {"solved": False, "error": str(exc)}
            self._emit("error", {"message": str(exc)})
            self._set_state("idle")

    def solve(self, state):
        from cubebot.solver.errors import InvalidCube
        if len(state) != 54:
            raise InvalidCube("state has {} facelets, a 3x3x3 has 54".format(len(state)))
        return {"moves": ["U"], "length": 1, "metric": "htm", "seconds": 0.0}

    def stop(self):
        if not self._running():
            return False
        self._stop.set()
        self._release.set()
        return True

    def last_scan(self):
        return self._scan

    def wait(self, timeout_s=None):
        if self._thread is not None:
            self._thread.join(timeout_s)
        return self._result
