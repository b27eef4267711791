"""Which kociemba runs here, loaded without its silent pure-Python fallback.

kociemba solves the 3x3x3 in C through a compiled extension (`kociemba.ckociembawrapper`).
When that extension cannot load (a missing library, an address-space limit), `import
kociemba` prints the error on stdout and falls back to its pure-Python solver, whose tables
take about PY_FALLBACK_NEED_MB of memory as soon as it is imported: more than the brick has
free. So the extension is loaded here first, from its file, before the package:

  probe() -> (kind, detail)   COMPILED, PURE_PYTHON (detail: why the extension did not
                              load) or MISSING; the result is kept for the process
  solver() -> an object with solve(cubestring, max_depth=...) as kociemba's:
      COMPILED     the kociemba package itself
      PURE_PYTHON  a BoundedFallback where fallback_room() has room for it (a warning on
                   stderr says it is slow); else SolverFailed, one line naming why
      MISSING      SolverFailed naming `pip install kociemba`

BoundedFallback runs each solve in a forked child under an address-space limit
(RLIMIT_AS, PY_FALLBACK_NEED_MB above the parent's size) and a CPU-time limit (RLIMIT_CPU,
also for a child orphaned by a killed parent), waits at most PY_FALLBACK_TIMEOUT_S, and
keeps the fallback's import message off stdout. The parent never imports the fallback.
"""

import importlib.machinery
import importlib.util
import io
import logging
import os
import resource
import select
import signal
import sys
import time
import warnings

from cubebot.solver.errors import SolverFailed

COMPILED, PURE_PYTHON, MISSING = "compiled", "pure-Python", "missing"
PACKAGE = "kociemba"
EXTENSION = "ckociembawrapper"            # kociemba's compiled part (cffi)
BYTES_PER_MB = 1024 * 1024
KB = 1024
# `import kociemba` in its pure-Python form adds about 68 MB to the process here (its
# pruning tables, unpickled); the limit keeps a margin for the solve itself.
PY_FALLBACK_NEED_MB = 96
PY_FALLBACK_TIMEOUT_S = 120.0             # the longest one pure-Python solve may take
MEMINFO = "/proc/meminfo"
PROC_STATUS = "/proc/self/status"
READ_CHUNK = 4096
MAX_ERROR_CHARS = 200
INSTALL_HINT = "the 3x3x3 solver needs the kociemba package: run `pip install kociemba`"
LOG = logging.getLogger(__name__)

_probed = {}                              # "result" -> (kind, detail), once per process


def _one_line(text):
    return " ".join(str(text).split())[:MAX_ERROR_CHARS]


def _load_extension():
    """Load kociemba's compiled part by its file (the package is not imported); None if it
    loaded, else the reason in one line. MISSING if the package is not installed."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return MISSING
    full = PACKAGE + "." + EXTENSION
    if full in sys.modules:
        return None if sys.modules[full] is not None else "import of {} halted".format(full)
    for folder in spec.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, EXTENSION + suffix)
            if not os.path.exists(path):
                continue
            try:
                ext_spec = importlib.util.spec_from_file_location(full, path)
                module = importlib.util.module_from_spec(ext_spec)
                ext_spec.loader.exec_module(module)
            except (ImportError, OSError, MemoryError) as exc:
                return _one_line("{}: {}".format(type(exc).__name__, exc))
            sys.modules[full] = module
            return None
    return "no {} extension file in {}".format(EXTENSION, ", ".join(spec.submodule_search_locations))


def probe():
    """(kind, detail) of the kociemba in use; see the module docstring."""
    if "result" not in _probed:
        loaded = sys.modules.get(PACKAGE)
        if loaded is not None:
            if getattr(loaded, "lib", None) is not None:
                _probed["result"] = (COMPILED, "")
            else:
                _probed["result"] = (PURE_PYTHON, "kociemba was imported in its pure-Python form")
        else:
            failed = _load_extension()
            if failed == MISSING:
                _probed["result"] = (MISSING, INSTALL_HINT)
            elif failed is None:
                _probed["result"] = (COMPILED, "")
            else:
                _probed["result"] = (PURE_PYTHON, failed)
    return _probed["result"]


def _status_kb(field, status=PROC_STATUS):
    with open(status) as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise SolverFailed("{} has no {} line".format(status, field))


def fallback_room(meminfo=MEMINFO):
    """(bytes, what limits them): the memory a pure-Python solve could use here, the smaller
    of the address-space limit's headroom (RLIMIT_AS) and MemAvailable."""
    rooms = []
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        headroom = soft - _status_kb("VmSize") * KB
        rooms.append((max(headroom, 0), "the address-space limit (RLIMIT_AS {} MB)".format(
            soft // BYTES_PER_MB)))
    try:
        with open(meminfo) as fh:
            fields = dict((line.split(":")[0], line.split(":")[1].split()[0]) for line in fh if ":" in line)
        key = "MemAvailable" if "MemAvailable" in fields else "MemFree"
        rooms.append((int(fields[key]) * KB, "the memory available ({})".format(key)))
    except (IOError, OSError, KeyError, ValueError, IndexError):
        pass
    if not rooms:
        return None, "no limit known"
    return min(rooms)


def _refusal(detail, room, what):
    return ("kociemba's compiled part did not load ({}); its pure-Python fallback needs about {} MB, "
            "more than {} allows ({} MB): refused".format(
                detail, PY_FALLBACK_NEED_MB, what, room // BYTES_PER_MB))


def solver(meminfo=MEMINFO):
    """kociemba, or its bounded pure-Python fallback, or SolverFailed; see the module docstring."""
    kind, detail = probe()
    if kind == MISSING:
        raise SolverFailed(INSTALL_HINT)
    if kind == COMPILED:
        import kociemba
        return kociemba
    room, what = fallback_room(meminfo)
    if room is not None and room < PY_FALLBACK_NEED_MB * BYTES_PER_MB:
        raise SolverFailed(_refusal(detail, room, what))
    LOG.warning("warning: kociemba's compiled part did not load (%s): its pure-Python solver is slow "
                "(each solve in a child, at most %g s and %d MB)", detail, PY_FALLBACK_TIMEOUT_S,
                PY_FALLBACK_NEED_MB)
    return BoundedFallback()


def _import_quietly():
    """`import kociemba` with its printed import error and its warning kept off stdout."""
    saved = sys.stdout
    sys.stdout = io.StringIO()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import kociemba
    finally:
        sys.stdout = saved
    return kociemba


class BoundedFallback(object):
    """kociemba's pure-Python solver, one solve per forked child, bounded in memory and time."""

    def __init__(self, timeout_s=PY_FALLBACK_TIMEOUT_S, need_mb=PY_FALLBACK_NEED_MB):
        self.timeout_s = timeout_s
        self.need_mb = need_mb

    def solve(self, cubestring, patternstring=None, max_depth=24):
        read_fd, write_fd = os.pipe()
        limit = _status_kb("VmSize") * KB + self.need_mb * BYTES_PER_MB
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            self._child(cubestring, max_depth, limit, self.timeout_s, write_fd)
        os.close(write_fd)
        data, cause = b"", None
        deadline = time.monotonic() + self.timeout_s
        try:
            while True:
                left = deadline - time.monotonic()
                ready = select.select([read_fd], [], [], max(left, 0))[0] if left > 0 else []
                if not ready:
                    cause = "found no answer within {:g} s".format(self.timeout_s)
                    break
                chunk = os.read(read_fd, READ_CHUNK)
                if not chunk:
                    break
                data += chunk
        finally:
            os.close(read_fd)
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            _, status = os.waitpid(pid, 0)
        text = data.decode("ascii", "replace")
        if cause is None and text.startswith("ok "):
            return text[3:].strip()
        if cause is None and text.startswith("none "):
            raise ValueError(text[5:].strip())
        if cause is None:
            cause = text[6:].strip() if text.startswith("error ") else _exit_words(status)
        raise SolverFailed("kociemba's pure-Python solver {}".format(cause))

    @staticmethod
    def _child(cubestring, max_depth, limit, timeout_s, fd):
        status = 0
        try:
            _, hard = resource.getrlimit(resource.RLIMIT_AS)
            if hard == resource.RLIM_INFINITY or limit < hard:
                resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
            cpu_s = int(timeout_s) + 1
            _, cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)
            if cpu_hard == resource.RLIM_INFINITY or cpu_s < cpu_hard:
                resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_hard))
            try:
                line = "ok " + _import_quietly().solve(cubestring, max_depth=max_depth)
            except ValueError as exc:
                line = "none " + _one_line(exc)
            os.write(fd, (line + "\n").encode("ascii", "replace"))
        except BaseException as exc:  # noqa: BLE001 - named to the parent, which reports it
            status = 1
            try:
                os.write(fd, "error failed: {}: {}\n".format(
                    type(exc).__name__, _one_line(exc)).encode("ascii", "replace"))
            except BaseException:  # noqa: BLE001 - the exit status still tells the parent
                pass
        finally:
            os._exit(status)


def _exit_words(status):
    if os.WIFSIGNALED(status):
        return "was killed by signal {}".format(os.WTERMSIG(status))
    return "ended without an answer (exit status {})".format(os.WEXITSTATUS(status))
