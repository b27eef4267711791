"""`cubebot diag`: check the robot's health and print a readable report.

Checks (each one line: ok / WARN / FAIL, a name, what was seen):
  devices      every motor and the colour sensor on its port (a missing one
               is a FAIL naming device and port)
  battery      measured voltage against LOW_BATTERY_V
  motors       each motor turns a small move and back, read on its encoder
               (skipped with --quick)
  colour       live readings from the colour sensor
  proximity    the distance the IR / ultrasonic sensor sees
  tables       the solver's tables against their manifest (`tables verify`)
  kociemba     which kociemba solves the 3x3x3: its compiled part (ok), its slow
               pure-Python fallback (WARN; FAIL where it has no room) or none (FAIL)
  solver       solves of random cubes, each applied back and checked solved
  core         which path the solver's searches take: the compiled core or pure Python
  memory       MemAvailable from /proc/meminfo against MIN_FREE_MB

`run_checks(...)` returns a list of Check; `report(checks)` renders it;
any FAIL makes `cubebot diag` exit 1. WARNs (an optional device missing)
do not.
"""

import random

OK, WARN, FAIL = "ok", "WARN", "FAIL"
LOW_BATTERY_V = 7.0          # below this the motors lose torque and timings drift
MIN_FREE_MB = 24             # a 3x3x3 solve needs this much on top of the app
MOTOR_TEST_DEG = 30          # the small move each motor makes and undoes
MOTOR_TEST_SPEED_DPS = 200
MOTOR_TOLERANCE_DEG = 5
MOTOR_TEST_DIRECTION = {"flipper": 1, "table": 1, "arm": -1}   # away from each end stop
COLOUR_SAMPLES = 5
COLOUR_MAX_RAW = 1020        # RGB-RAW counts never exceed this
SELFTEST_CUBES = 3
SELFTEST_CUBES_QUICK = 1
SELFTEST_SCRAMBLE = 25
SELFTEST_SIZES = (3, 2)      # cube k is of size SELFTEST_SIZES[k % 2]
KB_PER_MB = 1024
MEMINFO = "/proc/meminfo"


class Check(object):
    """One line of the report: status (ok/WARN/FAIL), name, detail."""

    def __init__(self, status, name, detail):
        self.status = status
        self.name = name
        self.detail = detail

    def __repr__(self):
        return "Check({!r}, {!r}, {!r})".format(self.status, self.name, self.detail)


def _guard(name, func):
    """Run one check; an unexpected exception becomes its FAIL line."""
    try:
        return func()
    except Exception as exc:  # noqa: BLE001 - a diag reports, it does not crash
        return [Check(FAIL, name, "{}: {}".format(type(exc).__name__, exc))]


def check_battery(hw):
    if hw.battery is None:
        return [Check(WARN, "battery", "no battery reading on this brick")]
    volts = hw.battery.read_voltage_v()
    status = OK if volts >= LOW_BATTERY_V else FAIL
    return [Check(status, "battery", "{:.2f} V (threshold {:.2f} V)".format(volts, LOW_BATTERY_V))]


def check_motors(hw, timeout_s):
    checks = []
    for motor in hw.motors():
        if motor is None:
            continue
        name = "motor " + motor.name
        port = getattr(motor, "port", "")

        def one(motor=motor, name=name, port=port):
            start = motor.position_deg()
            goal = start + MOTOR_TEST_DIRECTION.get(motor.name, 1) * MOTOR_TEST_DEG
            motor.run_to_position(goal, MOTOR_TEST_SPEED_DPS, timeout_s)
            reached = motor.position_deg()
            motor.run_to_position(start, MOTOR_TEST_SPEED_DPS, timeout_s)
            back = motor.position_deg()
            motor.stop(hold=False)
            good = abs(reached - goal) <= MOTOR_TOLERANCE_DEG and abs(back - start) <= MOTOR_TOLERANCE_DEG
            detail = "{} moved {} -> {} -> {} deg (encoder)".format(port, start, reached, back)
            return [Check(OK if good else FAIL, name, detail)]
        checks.extend(_guard(name, one))
    return checks


def check_colour(hw):
    samples = [hw.color.read_rgb_raw() for _ in range(COLOUR_SAMPLES)]
    port = getattr(hw.color, "port", "")
    means = [sum(s[k] for s in samples) / float(len(samples)) for k in range(3)]
    flat = all(max(s) == 0 for s in samples)
    wild = any(v < 0 or v > COLOUR_MAX_RAW for s in samples for v in s)
    detail = "{} RGB-RAW mean ({:.0f}, {:.0f}, {:.0f}) over {} readings".format(
        port, means[0], means[1], means[2], len(samples))
    if wild:
        return [Check(FAIL, "colour", detail + ": values outside 0..{}".format(COLOUR_MAX_RAW))]
    if flat:
        return [Check(WARN, "colour", detail + ": all zero (nothing under the sensor?)")]
    return [Check(OK, "colour", detail)]


def check_proximity(hw, present_cm):
    if hw.proximity is None:
        return [Check(WARN, "proximity", "no IR or ultrasonic sensor: start runs with ENTER")]
    distance = hw.proximity.read_distance_cm()
    seen = "a cube" if distance <= present_cm else "no cube"
    return [Check(OK, "proximity", "{} sensor on {}: {:.1f} cm ({})".format(
        getattr(hw.proximity, "kind", "proximity"), getattr(hw.proximity, "port", "?"), distance, seen))]


def check_tables(verify=None):
    names = None
    detail = "match the manifest"
    if verify is None:
        from cubebot.solver import store
        verify = store.verify
        unchecked = store.manifest_problem()
        if unchecked is not None and store.table_files():
            return [Check(WARN, "tables", unchecked)]       # there, usable, just not verifiable
        names = store.built_names()                        # sizes not built are not faults
        detail = "{} built tables match the manifest (other sizes: `cubebot tables build --size N`)".format(
            len(names))
    problems = verify() if names is None else verify(names=names)
    if problems:
        return [Check(FAIL, "tables", "; ".join(problems))]
    return [Check(OK, "tables", detail)]


def check_kociemba():
    from cubebot.solver import kociemba_load
    from cubebot.solver.errors import SolverFailed
    kind, detail = kociemba_load.probe()
    if kind == kociemba_load.COMPILED:
        return [Check(OK, "kociemba", "compiled (its C extension loaded)")]
    if kind == kociemba_load.MISSING:
        return [Check(FAIL, "kociemba", detail)]
    try:
        kociemba_load.solver()
    except SolverFailed as exc:
        return [Check(FAIL, "kociemba", "pure-Python fallback: {}".format(exc))]
    return [Check(WARN, "kociemba", "pure-Python fallback, slow (the C extension did not load: {})".format(
        detail))]


def check_solver(cubes, seed, solve=None):
    from cubebot.solver.facelets import is_solved, solved
    from cubebot.solver.moves import apply, face_turns
    if solve is None:
        from cubebot.solver.api import solve
    rng = random.Random(seed)
    checks = []
    for k in range(cubes):
        n = SELFTEST_SIZES[k % len(SELFTEST_SIZES)]
        turns = list(face_turns(n, wide=False))
        scramble = [rng.choice(turns) for _ in range(SELFTEST_SCRAMBLE)]
        state = apply(solved(n), scramble, n)
        solution = solve(state)
        good = is_solved(apply(state, solution.moves, n), n)
        checks.append(Check(OK if good else FAIL, "solver",
                            "{0}x{0}x{0} cube {1}: {2} moves in {3:.2f} s{4}".format(
                                n, k + 1, len(solution.moves), solution.seconds,
                                "" if good else ": the solution does NOT solve it")))
    return checks


def check_core():
    """Which path the solver's searches take: the compiled core or pure Python, the
    5x5x5's phase-2 loops compiled or in Python, and the reduced cubes' 3x3x3 finish by
    the compiled two-phase search or by kociemba (each a WARN when not compiled: it
    works, only slower; `pip install` builds them where a C compiler exists)."""
    from cubebot.solver import solve3
    from cubebot.solver.search import COMPILED, PURE_PYTHON_ENV, core_path
    from cubebot.solver.solve5.midges import native
    why = "(not built, or {} is set)".format(PURE_PYTHON_ENV)
    checks = []
    if core_path() == COMPILED:
        checks.append(Check(OK, "core", "the compiled search core runs"))
    else:
        checks.append(Check(WARN, "core", "the pure-Python searches run (the compiled core is not built, "
                            "or {} is set): solves are slower".format(PURE_PYTHON_ENV)))
    if native() is not None:
        checks.append(Check(OK, "solve5", "the 5x5x5's compiled phase-2 loops (_solve5) run"))
    else:
        checks.append(Check(WARN, "solve5", "the 5x5x5's phase-2 loops run in Python {}: its "
                            "solves are slower".format(why)))
    if solve3.finish_path() == solve3.JOINT:
        checks.append(Check(OK, "finish", "the reduced cubes finish with the compiled two-phase "
                            "search (_finish3)"))
    else:
        checks.append(Check(WARN, "finish", "the reduced cubes finish with kociemba, one view at a "
                            "time (the two-phase module {}): 4x4x4 and bigger solves are slower and "
                            "longer".format(why)))
    return checks


def check_memory(meminfo=MEMINFO):
    with open(meminfo) as fh:
        fields = dict((line.split(":")[0], line.split(":")[1].split()[0]) for line in fh if ":" in line)
    key = "MemAvailable" if "MemAvailable" in fields else "MemFree"
    free_mb = int(fields[key]) / float(KB_PER_MB)
    status = OK if free_mb >= MIN_FREE_MB else FAIL
    return [Check(status, "memory", "{:.0f} MB available (need {} MB)".format(free_mb, MIN_FREE_MB))]


def run_checks(hw, config, quick=False, seed=0, solve=None, verify=None):
    """Every check in order. Devices listed in `hw.missing` (opened with
    missing_ok) are FAIL lines and are None in `hw`: their checks are skipped."""
    missing = list(getattr(hw, "missing", []))
    checks = [Check(FAIL, "devices", message) for message in missing]
    if not missing:
        checks.append(Check(OK, "devices", "motors on {}, {}, {}; colour sensor on {}".format(
            config.flipper_port, config.table_port, config.arm_port, config.color_port)))
    for note in getattr(hw, "notes", []):
        checks.append(Check(WARN, "devices", note))
    checks.extend(_guard("battery", lambda: check_battery(hw)))
    if not quick:
        checks.extend(check_motors(hw, config.move_timeout_s))
    if hw.color is not None:
        checks.extend(_guard("colour", lambda: check_colour(hw)))
    checks.extend(_guard("proximity", lambda: check_proximity(hw, config.cube_present_cm)))
    checks.extend(_guard("tables", lambda: check_tables(verify)))
    checks.extend(_guard("kociemba", check_kociemba))
    cubes = SELFTEST_CUBES_QUICK if quick else SELFTEST_CUBES
    checks.extend(_guard("solver", lambda: check_solver(cubes, seed, solve)))
    checks.extend(_guard("core", check_core))
    checks.extend(_guard("memory", check_memory))
    return checks


def report(checks):
    """The readable report, one line per check and a verdict line."""
    width = max([len(c.name) for c in checks] + [4])
    lines = ["cubebot diag"]
    for c in checks:
        lines.append("  {:<4}  {:<{w}}  {}".format(c.status, c.name, c.detail, w=width))
    faults = sum(1 for c in checks if c.status == FAIL)
    warnings = sum(1 for c in checks if c.status == WARN)
    lines.append("result: {} ({} fault{}, {} warning{})".format(
        "FAULT" if faults else "ok", faults, "" if faults == 1 else "s",
        warnings, "" if warnings == 1 else "s"))
    return "\n".join(lines) + "\n"


def has_fault(checks):
    return any(c.status == FAIL for c in checks)
