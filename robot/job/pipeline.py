"""One job: scan -> resolve -> solve -> plan -> execute, emitting events.

`run_job(robot, size, emit=None, stop=None, budget=None, ...)` returns the
`cubebot demo --json` object:
  solved, size, moves (list of str), flips, actions ({kind: count}),
  scan_seconds (homing + scanning, robot clock), compute_seconds (resolve +
  solve + plan as the brick would take them: robot.brick_time, by default
  cubebot.robot.job.brick_time.estimate, maps the CPU time measured here to a range of
  brick seconds, colour resolution weighted as floating point (its joint search, where
  compiled, as compiled floating point), the compiled 3x3x3 candidate
  search as compiled code and the rest of solve + plan as integer work;
  compute_seconds is the range's central value and
  compute_range_seconds [low, high] the range; on the real brick the
  measured time itself. CPU time, of this process and of the solver's
  reaped child processes, so that other load on the machine does not
  inflate it, and a search spread over several cores counts as it would on
  the brick's one), total_range_seconds the total with that range,
  turn_seconds (executing, robot clock), total_seconds, state (the scanned
  facelets), rescans, planned_seconds and naive_seconds (the plan's and the
  naive planner's estimates in the same time model);
  on an unresolvable scan: solved false, doubtful (facelets), error.
Events (docs/architecture.md): state (scanning, solving, turning,
checking), scan_progress, solution, move_progress, check, retry, finished.
`solved` is what the check at the end read (cubebot.robot.job.check):
true only when every facelet it read agrees with a solved cube; `check`
{ok, read, wrong}, check_seconds (robot clock, in the total) and retries
(runs started again after a slip) report it; on a simulated robot
`truly_solved` is the world's own answer, for the benches.
"""

import time

from cubebot.robot.errors import RobotError, check_stop
from cubebot.robot.job import brick_time as bt
from cubebot.robot.job.executor import Executor
from cubebot.robot.machine.timing import AWAY, TimeModel


class Robot(object):
    """What the pipeline drives: a Mechanism, its Config, and for a simulated
    robot the World (checked after the run). last_scan: the de-facto JSON
    object of the last scan's raw readings. profile: a colour profile
    (cubebot.robot.colour.profile, from `cubebot calibrate`) or None for the defaults."""

    def __init__(self, mechanism, world=None, brick_time=bt.estimate, debug=False, profile=None):
        self.mechanism = mechanism
        self.profile = profile
        self.config = mechanism.config
        self.world = world
        self.brick_time = brick_time          # (int_s, float_s, compiled_float_s) -> BrickTime
        self.debug = debug
        self.last_scan = None
        self.last_readings = None


class Background(object):
    """fn(*args) in a thread (pure computation: it never touches the mechanism);
    join() -> (its result, its CPU seconds). Its exception, if any, is raised by join()."""

    def __init__(self, fn, *args):
        import threading
        self._box = {}

        def work():
            clock = getattr(time, "thread_time", time.process_time)
            t0 = clock()
            try:
                self._box["result"] = fn(*args)
            except BaseException as exc:       # handed to the joining thread
                self._box["error"] = exc
            self._box["cpu"] = clock() - t0

        self._thread = threading.Thread(target=work, name="cubebot-prepare")
        self._thread.daemon = True
        self._thread.start()

    def join(self):
        self._thread.join()
        if "error" in self._box:
            raise self._box["error"]
        return self._box["result"], self._box["cpu"]


def cpu_seconds():
    """CPU seconds (user + system) used so far by this process and its reaped children."""
    used = time.process_time()
    try:
        import resource
    except ImportError:         # not a Unix: no child processes are counted
        return used
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used + children.ru_utime + children.ru_stime


def _emit_fn(emit):
    return emit if emit is not None else (lambda name, payload: None)


def _scan(robot, size, emit, stop, resolve):
    from cubebot.robot.job.scan import Scanner
    if resolve is None:
        from cubebot.robot.colour.resolve import resolve
    from cubebot.robot.colour.scanfile import dump_defacto
    from cubebot.robot.colour.joint import COMPILED_SECONDS
    mech = robot.mechanism
    start = mech.now_s()
    used = []           # per resolution: CPU seconds (all of it, in compiled code)

    def timed_resolve(readings, n, profile=None):
        t0, c0 = cpu_seconds(), COMPILED_SECONDS[0]
        try:
            return resolve(readings, n) if profile is None else resolve(readings, n, profile)
        finally:
            spent = cpu_seconds() - t0
            used.append((spent, min(COMPILED_SECONDS[0] - c0, spent)))

    emit("state", {"state": "scanning"})
    try:
        if not mech.homed:
            mech.home()
        if not mech.cube_present():
            raise RobotError("no cube on the table: the proximity sensor sees nothing nearer than "
                             "{} cm".format(robot.config.cube_present_cm))
        result = Scanner(mech, size, emit=emit, stop=stop).scan(timed_resolve, profile=robot.profile)
        # The arm stays half-way, clear of the flipper: the moves need it no further out.
    except BaseException:
        mech.release()
        raise
    robot.last_readings = result.readings
    robot.last_scan = dump_defacto([list(s) for s in result.readings], size)
    return result, mech.now_s() - start, [(spent - compiled, compiled) for spent, compiled in used]


def _resolve_overlap(robot, resolves, overlaps):
    """(float seconds, compiled float seconds) of the resolutions, and the brick seconds
    of them that ran while the mechanism moved (low, central, high): each resolution's
    brick time up to the robot time of the moves that ran meanwhile
    (ScanResult.overlap_seconds)."""
    floats = sum(f for f, _ in resolves)
    compiled = sum(c for _, c in resolves)
    hidden = [0.0, 0.0, 0.0]
    for (f, c), moving in zip(resolves, overlaps):
        brick = robot.brick_time(0.0, f, c)
        for k, seconds in enumerate((brick.low, brick.central, brick.high)):
            hidden[k] += min(seconds, moving)
    return floats, compiled, hidden


def scan_job(robot, size, emit=None, stop=None, resolve=None):
    """Scan only: {"size", "state" (or None), "doubtful", "rescans", "scan_seconds"}."""
    emit = _emit_fn(emit)
    result, seconds, _ = _scan(robot, size, emit, stop, resolve)
    t0 = robot.mechanism.now_s()
    robot.mechanism.move_arm_named("park")
    seconds += robot.mechanism.now_s() - t0
    out = {"size": size, "state": result.state, "doubtful": result.doubtful,
           "rescans": result.rescans, "scan_seconds": round(seconds, 3)}
    emit("finished", out)
    return out


def _solve_and_plan(robot, size, state, where, budget, solve):
    """(choice, move texts, (compute CPU seconds, compiled search seconds)): the candidate
    cheapest for the mechanism (cubebot.robot.plan.choose, `solution_views_NxN` views; for
    a 3x3x3 also the compiled two-phase search's solutions, `search_*_3x3` and
    `planned_candidates_3x3`). The compute excludes the compiled search's time, which the
    brick-time estimate scales as compiled code."""
    from cubebot.robot.plan import choose, search3
    from cubebot.solver.moves import format_move
    model = TimeModel.from_config(robot.config)
    config = robot.config
    views = getattr(config, "solution_views_{0}x{0}".format(size), 1)
    search = choose.Search(config.search_slack_3x3, config.search_nodes_3x3,
                           config.planned_candidates_3x3)
    t0, c0 = cpu_seconds(), search3.compiled_seconds()
    choice = choose.choose(state, size, where, model, views, solve, budget, search)
    compute = cpu_seconds() - t0
    compiled = min(compute, search3.compiled_seconds() - c0)
    return choice, [format_move(m) for m in choice.moves], (compute - compiled, compiled)


def _naive_plan(config, size, where, first):
    """The naive recipe on the solver's first solution of the cube as scanned (the
    baseline of the report)."""
    from cubebot.robot.plan import planner
    return planner.plan_naive(first, where, TimeModel.from_config(config), AWAY, size)


def _attempt(robot, size, emit, stop, budget, solve, resolve, result):
    """One scan -> solve -> turn -> check; adds its times to `result`. Returns
    (scan, plan or None, moves, check result or None)."""
    from cubebot.robot.job import check as checking
    scan, scan_s, resolve_s = _scan(robot, size, emit, stop, resolve)
    result["scan_seconds"] += scan_s
    result["rescans"] += scan.rescans
    result["state"] = scan.state
    if scan.state is None:
        return scan, None, [], None
    check_stop(stop)
    emit("state", {"state": "solving"})
    choice, moves, (compute, searched) = _solve_and_plan(robot, size, scan.state, scan.where, budget, solve)
    plan = choice.plan
    floats, compiled, hidden = _resolve_overlap(robot, resolve_s, scan.overlap_seconds)
    brick = robot.brick_time(compute, floats, compiled, searched)
    # Resolution that ran while the last face's moves did is not waited for.
    result["compute_seconds"] += brick.central - hidden[1]
    result["compute_low"] += brick.low - hidden[0]
    result["compute_high"] += brick.high - hidden[2]
    result["overlapped_seconds"] += hidden[1]
    emit("solution", {"moves": moves, "state": scan.state})
    check_stop(stop)
    emit("state", {"state": "turning"})
    mech = robot.mechanism
    t0 = mech.now_s()
    # The simulated world's own checks (debug) hold in the frame of the first scan only: a
    # rescan after a slip starts a new cube frame.
    world = robot.world if not result["retries"] else None
    executor = Executor(mech, stop=stop, emit=emit, world=world, debug=robot.debug)
    # While the cube turns: the check's preparation, and the naive baseline for the report.
    preparing = Background(checking.prepare, scan.state, scan.where, plan.actions, size, scan.readings)
    baseline = Background(_naive_plan, robot.config, size, scan.where, choice.first)
    try:
        executor.run(plan, start_state=scan.state if world is None else None,
                     start_where=scan.where, release=False)
    finally:
        prepared, prepare_cpu = preparing.join()
        naive, naive_cpu = baseline.join()
    turned = mech.now_s() - t0
    result["turn_seconds"] += turned
    # That ran while the cube turned: only what outlasts the turning counts.
    prepare_brick = robot.brick_time(prepare_cpu + naive_cpu, 0.0, 0.0)
    result["overlapped_seconds"] += min(prepare_brick.central, turned)
    excess = max(0.0, prepare_brick.central - turned)
    result["compute_seconds"] += excess
    result["compute_low"] += excess
    result["compute_high"] += excess
    check_stop(stop)
    emit("state", {"state": "checking"})
    try:
        found, _ = checking.check(mech, size, prepared, stop=stop)
    except BaseException:
        mech.release()
        raise
    mech.release()
    result["check_seconds"] += found.seconds
    emit("check", checking.payload(found, moves))
    return scan, (plan, naive), moves, found


def run_job(robot, size, emit=None, stop=None, budget=None, solve=None, resolve=None):
    """The whole job; see the module docstring. Raises Stopped on a stop request.

    After the moves the cube is checked (cubebot.robot.job.check); a check that
    sees a slip starts again from a full scan, at most `max_retries` times
    (config), each announced by a "retry" event."""
    from cubebot.robot.machine.actions import counts
    emit = _emit_fn(emit)
    result = {"size": size, "scan_seconds": 0.0, "rescans": 0, "compute_seconds": 0.0,
              "compute_low": 0.0, "compute_high": 0.0, "turn_seconds": 0.0, "check_seconds": 0.0,
              "overlapped_seconds": 0.0,
              "retries": 0, "state": None}
    first = None
    tally = counts([])
    moves = []
    while True:
        truth = robot.world.state() if robot.world is not None else None
        scan, plans, moves, found = _attempt(robot, size, emit, stop, budget, solve, resolve, result)
        if plans is not None:
            if first is None:
                first = plans
            for kind, k in counts(plans[0].actions).items():
                tally[kind] += k
        if scan.state is None or found.ok or result["retries"] >= robot.config.max_retries:
            break
        result["retries"] += 1
        emit("retry", {"try": result["retries"] + 1, "of": robot.config.max_retries + 1,
                       "reason": "the check saw a slip: {}".format(
                           "; ".join(checking_text(found)))})
    low, high = result.pop("compute_low"), result.pop("compute_high")
    fixed = result["scan_seconds"] + result["turn_seconds"] + result["check_seconds"]
    total = fixed + result["compute_seconds"]
    for key in ("scan_seconds", "compute_seconds", "turn_seconds", "check_seconds",
                "overlapped_seconds"):
        result[key] = round(result[key], 3)
    result.update({"moves": moves, "flips": tally["flip"], "actions": tally,
                   "total_seconds": round(total, 3)})
    if scan.state is None:
        result.update({"solved": False, "doubtful": scan.doubtful,
                       "error": "the scan did not resolve after {} rescans: {} facelets in doubt".format(
                           scan.rescans, len(scan.doubtful))})
        emit("finished", result)
        return result
    plan, naive = first
    result.update({
        "solved": bool(found.ok),
        "check": {"ok": bool(found.ok), "read": found.read, "wrong": len(found.wrong)},
        "compute_range_seconds": [round(low, 3), round(high, 3)],
        "total_range_seconds": [round(fixed + low, 3), round(fixed + high, 3)],
        "planned_seconds": round(plan.seconds, 3), "naive_seconds": round(naive.seconds, 3),
        "naive_flips": counts(naive.actions)["flip"],
    })
    if robot.world is not None:
        result["truly_solved"] = bool(robot.world.is_solved())
    if not found.ok:
        result["error"] = "the check at the end saw a slip after {} tries: {}".format(
            result["retries"] + 1, "; ".join(checking_text(found)))
        if robot.world is not None and robot.world.faults:
            result["error"] += " (" + _why_not_solved(truth, scan.state, robot.world, size) + ")"
    emit("finished", result)
    return result


def checking_text(found):
    """What a failed check saw, as short phrases."""
    seen = ["facelet {} reads {} (solved: {})".format(i, s, e) for i, e, s in found.wrong[:3]]
    return seen or ["nothing"]


def _why_not_solved(truth, scanned, world, size):
    """One line on why a simulated run did not end solved."""
    if world is not None and world.faults:
        return "mechanism fault: " + world.faults[0]
    if truth is not None and size % 2 == 1 and truth != scanned:
        wrong = sum(1 for a, b in zip(truth, scanned) if a != b)
        return "the scan read {} facelets wrong: the solution was for another cube".format(wrong)
    return "the cube did not end solved"
