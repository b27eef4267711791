"""The record of the current or last run, kept in a small JSON file, written atomically.

The brick can lose power, and the link can drop, in the middle of a run. The record lets the
app, once restarted, say what it knows about that run and never claim a cube solved when the
run did not end. RobotService keeps it (record_path):

  begin(job, size, seed)   {"run": UNDER_WAY, "job", "size", "seed", "stage", "moves_done",
                           "moves_total"}: written at the start
  update(name, payload)    the stage ("state" events) and the moves turned ("move_progress")
  end(result)              {"run": ENDED, "result": the run's result}
  last_result()            what the file says about the last run, as a run result: an
                           interrupted run is {"solved": False, "interrupted": True, ...};
                           a missing file is None; an unreadable one claims nothing

A record that cannot be written (a full disk) is logged and the run goes on.
"""

import json
import logging

UNDER_WAY, ENDED = "under way", "ended"
STAGES = ("scanning", "solving", "turning")
MAX_RECORD_BYTES = 64 * 1024
LOG = logging.getLogger(__name__)


class RunRecord(object):
    """See the module docstring."""

    def __init__(self, path):
        self.path = path
        self._current = None

    def _write(self, data):
        from cubebot.solver.tables import write_text_atomic
        try:
            write_text_atomic(self.path, json.dumps(data, sort_keys=True) + "\n")
        except (IOError, OSError) as exc:
            LOG.error("cannot record the run in %s: %s; the run goes on", self.path, exc)

    def begin(self, job, size, seed):
        self._current = {"run": UNDER_WAY, "job": job, "size": size, "seed": seed,
                         "stage": "starting", "moves_done": 0, "moves_total": None}
        self._write(self._current)

    def update(self, name, payload):
        if self._current is None:
            return
        if name == "state" and payload.get("state") in STAGES:
            self._current["stage"] = payload["state"]
        elif name == "move_progress":
            self._current["moves_done"] = payload.get("done", 0)
            self._current["moves_total"] = payload.get("total")
        else:
            return
        self._write(self._current)

    def end(self, result):
        self._current = None
        self._write({"run": ENDED, "result": result})

    def last_result(self):
        import os
        from cubebot.robot.inputs import BadValue, read_text
        if not os.path.exists(self.path):
            return None
        try:
            data = json.loads(read_text(self.path, "run record", MAX_RECORD_BYTES))
        except BadValue as exc:
            return _unknown("the record of the last run is unreadable ({})".format(exc))
        except ValueError:
            return _unknown("the record of the last run {} is unreadable (not JSON)".format(self.path))
        if not isinstance(data, dict):
            return _unknown("the record of the last run {} is unreadable".format(self.path))
        if data.get("run") == ENDED and isinstance(data.get("result"), dict):
            return data["result"]
        if data.get("run") == UNDER_WAY:
            return interrupted(data)
        return _unknown("the record of the last run {} is unreadable".format(self.path))


def _unknown(message):
    return {"solved": False, "interrupted": None, "error": message}


def interrupted(data):
    """The result of a run the record shows under way: it did not end (power or link lost)."""
    stage, done, total = data.get("stage"), data.get("moves_done") or 0, data.get("moves_total")
    if stage == "turning":
        where = "while turning, after {} of {} moves: the cube is part-turned, rescan it".format(
            done, total if total is not None else "?")
    else:
        where = "while {}: the cube was not turned".format(stage)
    return {"solved": False, "interrupted": True, "size": data.get("size"), "seed": data.get("seed"),
            "stage": stage, "moves_done": done, "moves_total": total,
            "error": "the last run did not end (power or link lost {})".format(where)}
