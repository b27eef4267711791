"""The lesson's run log: one entry per ended run, kept in a JSON file, exportable as CSV.

The file is rewritten whole and atomically after each run
(cubebot.solver.tables.write_atomic), so a crash or a full disk never
leaves half a log; it holds at most MAX_RUNS entries (the oldest go).
A file that is not a run log is refused (ValueError naming it), never
overwritten.
"""

import csv
import io
import json
import os
import threading
import time

from cubebot.solver.tables import write_atomic

MAX_RUNS = 1000
MAX_LOG_BYTES = 4 * 1024 * 1024
FORMAT = "cubebot-classroom-runs"
VERSION = 1
CSV_COLUMNS = ("started", "kind", "size", "solved", "stopped", "moves", "wall_seconds", "scanning_s",
               "thinking_s", "turning_s", "scan_seconds", "compute_seconds", "turn_seconds",
               "total_seconds", "rescans", "error")


class RunLog(object):
    """See the module docstring. `path` None keeps the log in memory only."""

    def __init__(self, path):
        self.path = path
        self._lock = threading.Lock()
        self._runs = self._load()

    def _load(self):
        if self.path is None or not os.path.exists(self.path):
            return []
        try:
            if os.path.getsize(self.path) > MAX_LOG_BYTES:
                raise ValueError("larger than {} bytes".format(MAX_LOG_BYTES))
            with open(self.path, "rb") as fh:
                data = json.loads(fh.read().decode("utf-8"))
            if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("runs"), list):
                raise ValueError("not a {} file".format(FORMAT))
        except (OSError, ValueError) as exc:
            raise ValueError("run log {} cannot be used: {}".format(self.path, exc))
        return [r for r in data["runs"] if isinstance(r, dict)][-MAX_RUNS:]

    def runs(self):
        with self._lock:
            return list(self._runs)

    def add(self, entry):
        """Append one run and save the log."""
        with self._lock:
            self._runs = (self._runs + [dict(entry)])[-MAX_RUNS:]
            runs = list(self._runs)
        if self.path is not None:
            text = json.dumps({"format": FORMAT, "version": VERSION, "runs": runs}, indent=1, sort_keys=True)
            write_atomic(self.path, [text.encode("utf-8")])

    def csv_text(self):
        """The log as CSV (a header line, one line per run; times in local ISO form)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(CSV_COLUMNS)
        for run in self.runs():
            phases = run.get("phase_seconds") or {}
            row = dict(run, scanning_s=phases.get("scanning"), thinking_s=phases.get("solving"),
                       turning_s=phases.get("turning"))
            started = run.get("started")
            if isinstance(started, (int, float)):
                row["started"] = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(started))
            writer.writerow(["" if row.get(c) is None else _cell(row.get(c)) for c in CSV_COLUMNS])
        return out.getvalue()


def _cell(value):
    """A CSV cell; text that a spreadsheet would run as a formula is quoted with a leading '."""
    text = str(value)
    if text[:1] in ("=", "+", "-", "@") and not _is_number(text):
        return "'" + text
    return text


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True
