"""What `cubebot remote watch` shows: a view of the robot built from link events.

`WatchView.update(message)` takes each event (and `apply_status` a status
reply); `render(color)` returns the screen: the state, the cube's net (the
facelets read so far while scanning; then the scanned cube with the moves
done so far applied, so the projector shows the cube being solved), the
solution with the next move marked, a progress bar and the last result.
`describe(message)` is the one-line text of an event for plain output.
"""

from cubebot.solver.facelets import size_from_length
from cubebot.solver.moves import apply

from cubebot.robot.ui.netview import render_net

BAR_WIDTH = 40                    # characters of the progress bar
UNREAD, READ = ".", "#"           # net cells while scanning
CLEAR_HOME = "\x1b[H"             # cursor to the top left
CLEAR_LINE_END = "\x1b[K"
CLEAR_BELOW = "\x1b[J"
BOLD, DIM, RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"
ACTIVE_STATES = ("scanning", "solving", "turning", "checking")


def progress_bar(done, total, width=BAR_WIDTH):
    """`[#####-----] done/total` (an empty bar when total is 0)."""
    filled = int(round(width * float(done) / total)) if total else 0
    filled = max(0, min(width, filled))
    return "[{}{}] {}/{}".format("#" * filled, "-" * (width - filled), done, total)


def summary(result):
    """One line about a finished run (the `cubebot demo --json` object)."""
    if not result:
        return "no run yet"
    if result.get("error") and not result.get("solved"):
        return "failed: {}".format(result["error"])
    moves = result.get("moves") or []
    if "turn_seconds" not in result:
        return "scanned ({} rescans) in {:.1f} s".format(result.get("rescans", 0), result.get("scan_seconds", 0.0))
    line = "{} in {} moves, {} flips: scan {:.1f} s, compute {:.1f} s, turning {:.1f} s, total {:.1f} s".format(
        "SOLVED" if result.get("solved") else "NOT solved", len(moves), result.get("flips", 0),
        result.get("scan_seconds", 0.0), result.get("compute_seconds", 0.0),
        result.get("turn_seconds", 0.0), result.get("total_seconds", 0.0))
    if result.get("retries"):
        line += "; {} slip(s) caught by the check, run again".format(result["retries"])
    return line


def describe(message):
    """One line for an event in plain output, or None for a progress step not worth a line."""
    name, data = message.get("event"), message.get("data") or {}
    if name == "hello":
        return "hello: protocol {}, cubebot {}, robot {}".format(
            data.get("protocol"), data.get("software"), data.get("state"))
    if name == "state":
        return "state: {}".format(data.get("state"))
    if name in ("scan_progress", "move_progress"):
        done, total = data.get("done", 0), data.get("total", 0)
        step = max(1, total // 6) if name == "scan_progress" else max(1, total // 4)
        if done == total or done % step == 0:
            what = "facelets read" if name == "scan_progress" else "moves done"
            return "{} {}".format(progress_bar(done, total, BAR_WIDTH // 2), what)
        return None
    if name == "solution":
        moves = data.get("moves") or []
        return "solution ({} moves): {}".format(len(moves), " ".join(moves))
    if name == "check":
        if data.get("ok"):
            return "check: {} facelets read, all as solved".format(data.get("read"))
        return "check: a slip seen ({}): {}".format(
            ", ".join("facelet {facelet} reads {seen}, solved {expected}".format(**w)
                      for w in data.get("wrong") or []),
            "; ".join(data.get("slips") or []) or "no single slip fits")
    if name == "retry":
        return "retry {} of {}: {}".format(data.get("try"), data.get("of"), data.get("reason"))
    if name == "finished":
        return "finished: " + summary(data)
    if name == "error":
        return "error: {}".format(data.get("message"))
    return "{}: {}".format(name, data)


class WatchView(object):
    """The robot as seen through its events; see the module docstring."""

    def __init__(self, title="cubebot", scale=1):
        self.title = title
        self.scale = scale            # net cell size (cubebot.robot.ui.netview.render_net)
        self.state = "unknown"
        self.size = None
        self.read = set()             # facelet indices read in this scan
        self.scan_total = 0
        self.scanned = None           # the scanned facelets, once known
        self.moves = None
        self.moves_done = 0
        self.result = None
        self.error = None
        self.note = None              # e.g. "link lost, reconnecting"
        self.quiet_s = None           # seconds since the robot last answered, while it does not
        self.help = None              # a line about the keys, drawn last

    def apply_status(self, status):
        self.state = status.get("state", self.state)
        self.size = status.get("size", self.size)
        last = status.get("last_result")
        if last:
            self._finished(last)

    def update(self, message):
        """Take one event message; True if the screen changed."""
        name, data = message.get("event"), message.get("data") or {}
        if name == "hello":
            self.apply_status(data.get("status") or {})
        elif name == "state":
            self._state(data.get("state", "unknown"))
        elif name == "scan_progress":
            self.scan_total = data.get("total", 0)
            self.read.update(int(k) for k in (data.get("readings") or {}) if str(k).isdigit())
        elif name == "solution":
            self.moves = list(data.get("moves") or [])
            self.moves_done = 0
            self.scanned = data.get("state") or self.scanned
        elif name == "move_progress":
            self.moves_done = data.get("done", 0)
        elif name == "finished":
            self._finished(data)
        elif name == "error":
            self.error = data.get("message")
        else:
            return False
        return True

    def _state(self, state):
        if state == "scanning" and self.state != "scanning":
            self.read, self.scanned, self.moves, self.moves_done = set(), None, None, 0
            self.error, self.scan_total = None, 0
        self.state = state

    def _finished(self, result):
        self.result = result
        if result.get("state"):
            self.scanned = result["state"]
        if result.get("moves") and "turn_seconds" in result:
            self.moves = list(result["moves"])
            self.moves_done = len(self.moves) if result.get("solved") else self.moves_done

    # -- drawing ----------------------------------------------------------------
    def cube(self):
        """The facelets to draw now: the scanned cube with the moves done applied, or a scan map."""
        if self.scanned:
            try:
                return apply(self.scanned, " ".join((self.moves or [])[:self.moves_done]))
            except ValueError:
                return self.scanned
        total = self.scan_total or (6 * self.size * self.size if self.size else 0)
        if not total:
            return None
        try:
            size_from_length(total)
        except ValueError:
            return None
        return "".join(READ if i in self.read else UNREAD for i in range(total))

    def render(self, color=False):
        """The whole screen as text (ANSI colours when color)."""
        head = "{}  state: {}".format(self.title, self.state.upper())
        if self.quiet_s is not None:
            head = "{}  state: NO ANSWER for {:.0f} s (was {})".format(self.title, self.quiet_s, self.state.upper())
        lines = [BOLD + head + RESET if color else head, ""]
        cube = self.cube()
        if cube:
            lines.extend(render_net(cube, color=color, scale=self.scale if color else 1).split("\n"))
            lines.append("")
        lines.append(self._solution_line(color))
        if self.state == "scanning":
            lines.append("scan    " + progress_bar(len(self.read), self.scan_total))
        elif self.moves is not None:
            lines.append("moves   " + progress_bar(self.moves_done, len(self.moves)))
        else:
            lines.append("")
        lines.append("last    " + summary(self.result))
        if self.error:
            lines.append("error   " + self.error)
        if self.note:
            lines.append(self.note)
        if self.help:
            lines.extend(["", self.help])
        return "\n".join(lines)

    def _solution_line(self, color):
        if self.moves is None:
            return "solution: " + ("computing..." if self.state == "solving" else "-")
        cells = []
        for i, move in enumerate(self.moves):
            if i < self.moves_done and color:
                cells.append(DIM + move + RESET)
            elif i == self.moves_done and self.state == "turning":
                cells.append(BOLD + "[" + move + "]" + RESET if color else "[" + move + "]")
            else:
                cells.append(move)
        return "solution ({} moves): {}".format(len(self.moves), " ".join(cells))


def frame(text):
    """An ANSI redraw of the whole screen with `text`, clearing leftovers."""
    return CLEAR_HOME + "".join(line + CLEAR_LINE_END + "\n" for line in text.split("\n")) + CLEAR_BELOW


def run_exit_code(message):
    """0 for a solved run or a resolved scan, 1 for anything else that ends a run."""
    data = message.get("data") or {}
    if message.get("event") != "finished":
        return 1
    if "turn_seconds" in data or "moves" in data:
        return 0 if data.get("solved") else 1
    return 0 if data.get("state") else 1
