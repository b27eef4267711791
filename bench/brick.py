"""Benchmarks of the brick: the virtual brick's jobs, and memory on 32-bit ARM.

Default: for fixed seeds of each size, run the job on the virtual brick
(fake sysfs + motor physics, lockstep clock) and on the pure simulation with
the same seed. Reports the wall time of a virtual-brick run on this machine,
its robot time (the brick's clock) against the pure simulation's, and how
many solves ended solved. Writes the "brick" section of docs/benchmarks.md.

--memory: the memory table. Each case (a `cubebot solve` of each size,
single and --batch of held-out 4x4x4 states, `cubebot demo`, `demo
--virtual-brick`, and the resident app over --app-jobs jobs,
bench/app_jobs.py) runs here under bench/memory.py (peak Pss summed over the
process tree) and, when bench/arm_memory.py's chroot is there and we are
root, under `bench/arm_memory.py measure` (guest_peak_pss_all_mb: Debian
armel, the EV3's ABI, under qemu emulating an ARM926). Also prints
the emulated and the native wall time of each case (their ratio is one
input of the brick-time estimator, cubebot.robot.job.brick_time; only on a quiet
machine). Writes the "brick-memory" section.

Held-out states: seeds HELD_OUT_SEED (4x4x4), not used by any test.

--core-memory: a `cubebot solve` of each of --sizes (default 4 and 5) on the path that runs
(the compiled core where it is built) and with CUBEBOT_PURE_PYTHON=1, measured the same way.
Writes the "brick-memory-core" section, or "brick-memory-big" when every size is 6 or more
(the big cubes take long under emulation, so they are measured and recorded apart).

Usage: python bench/brick.py [--seeds N] [--no-record]
       python bench/brick.py --memory [--batch N] [--armel-batch N] [--app-jobs N] [--no-armel]
       python bench/brick.py --core-memory [--sizes N...] [--no-armel]
"""

import argparse
import datetime
import os
import platform
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.record import record  # noqa: E402
from cubebot.robot.job.pipeline import run_job  # noqa: E402
from cubebot.robot.job.robots import make_sim_robot  # noqa: E402
from cubebot.robot.job.robots import open_virtual_robot  # noqa: E402

SEEDS = 10
SIZES = (3, 2)
ARM_MEMORY = os.path.join(ROOT, "bench", "arm_memory.py")
BRICK_FREE_MB = 30.0          # what `free` shows available on the brick (docs/references.md: 30-36 MB)
HELD_OUT_SEED = 16016         # 4x4x4 states of the memory table's batches
SMALL_SEED = 1603             # the single states of each size
SOLVE_SIZES = (2, 3, 4, 5, 6, 7)  # sizes of the single `cubebot solve` rows
BATCH = 20                    # 4x4x4 states in the batch measured here
ARMEL_BATCH = 3               # ... and under emulation (slow: about a minute a state)
APP_JOBS = 20                 # resident-app jobs measured here
ARMEL_APP_JOBS = 3            # ... and under emulation
CORE_SIZES = (4, 5)           # --core-memory: sizes whose solve runs the compiled core
CORE_RECORDS = ("brick-memory-core", "brick-memory-big")   # --core-memory's records: up to 5, from 6
PURE_PYTHON = "CUBEBOT_PURE_PYTHON=1"   # cubebot.solver.search.PURE_PYTHON_ENV, set
PATH_PROBE = "from cubebot.solver.search import core_path; print(core_path())"


def one(size, seed):
    t0 = time.perf_counter()
    with open_virtual_robot(size, seed) as vr:
        result = run_job(vr.robot, size)
        steps = vr.brick.sim_time_s / vr.brick.step_s
    wall = time.perf_counter() - t0
    sim = run_job(make_sim_robot(size, seed), size)
    return wall, steps, result, sim


def armel_ready():
    """True when bench/arm_memory.py's chroot is set up and we may use it (root)."""
    from bench import arm_memory
    return (os.path.exists(os.path.join(arm_memory.ROOT, arm_memory.DONE_DIR, "project"))
            and hasattr(os, "geteuid") and os.geteuid() == 0)


def armel_measure(argv):
    """(guest_peak_pss_all_mb, wall_s, exit code) of argv under `bench/arm_memory.py measure`."""
    import re
    import subprocess
    done = subprocess.run([sys.executable, ARM_MEMORY, "measure", "--"] + argv, cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    found = re.search(r"exit=(\d+) wall_s=([\d.]+) .*guest_peak_pss_all_mb=([\d.]+)", done.stdout)
    if not found:
        raise RuntimeError("arm_memory.py measure gave no figures: " + done.stderr.strip()[-300:])
    return float(found.group(3)), float(found.group(2)), int(found.group(1))


def held_out_file(name, size, seed, count):
    """A file bench/out/NAME of `count` random states (fixed seed); its path from ROOT."""
    import random
    from cubebot.solver.scramble import random_state
    rng = random.Random(seed)
    rel = os.path.join("bench", "out", name)
    os.makedirs(os.path.join(ROOT, "bench", "out"), exist_ok=True)
    with open(os.path.join(ROOT, rel), "w") as fh:
        fh.write("".join(random_state(size, rng) + "\n" for _ in range(count)))
    return rel


def memory_cases(args):
    """(label, argv here, argv under emulation) of each case of the memory table."""
    import random
    from cubebot.solver.scramble import random_state
    here = os.path.join(os.path.dirname(sys.executable), "cubebot")
    one = dict((n, random_state(n, random.Random(SMALL_SEED))) for n in SOLVE_SIZES)
    big = held_out_file("held4-{}.txt".format(args.batch), 4, HELD_OUT_SEED, args.batch)
    small = held_out_file("held4-{}.txt".format(args.armel_batch), 4, HELD_OUT_SEED, args.armel_batch)
    cases = [("`cubebot solve`, {0}x{0}x{0}".format(n), ["solve", one[n]], ["solve", one[n]])
             for n in SOLVE_SIZES]
    cases.append(("`cubebot solve --batch`, held-out 4x4x4 states (here {}, emulated {})".format(
        args.batch, args.armel_batch), ["solve", "--batch", big], ["solve", "--batch", small]))
    cases.append(("`cubebot demo --seed 1`", ["demo", "--seed", "1"], ["demo", "--seed", "1"]))
    cases.append(("`cubebot demo --virtual-brick --seed 1`", ["demo", "--virtual-brick", "--seed", "1"],
                  ["demo", "--virtual-brick", "--seed", "1"]))
    # in the chroot `python -m cubebot` (its installed console script may predate the checkout)
    rows = [(label, [here] + a, ["python", "-m", "cubebot"] + b) for label, a, b in cases]
    app = os.path.join("bench", "app_jobs.py")
    rows.append(("resident app (virtual brick), 3x3x3 jobs in one process (here {}, emulated {})".format(
        args.app_jobs, args.armel_app_jobs), [sys.executable, app, "--jobs", str(args.app_jobs)],
        ["python", app, "--jobs", str(args.armel_app_jobs)]))
    return rows


def tables_folder():
    """The tables folder the measured commands read (as bench/arm_memory.py binds it)."""
    return os.environ.get("CUBEBOT_TABLES") or os.path.join(ROOT, "tables")


def measure_rows(cases, use_armel):
    """One table row a case (label, argv here, argv under emulation): peaks and walls, ARM then
    here, and the MB of table files the emulated run read into the page cache (evicted first)."""
    from bench.memory import cached_mb, evict_cache, peak_pss, table_files
    files = table_files(tables_folder())
    lines = []
    for label, native, emulated in cases:
        peak = peak_pss(native, env=dict(os.environ, PYTHONPATH=ROOT))
        cells = ["{:.1f}".format(peak.pss_all_mb), "{:.1f} s".format(peak.wall_s)]
        if use_armel:
            evict_cache(files)
            pss, wall, code = armel_measure(emulated)
            cached = cached_mb(files)
            cells = ["{:.1f}{}".format(pss, "" if code == 0 else " (exit {})".format(code)),
                     "-" if cached is None else "{:.1f}".format(cached),
                     "{:.0f} s".format(wall)] + cells
        else:
            cells = ["-", "-", "-"] + cells
        lines.append("| {} | {} |".format(label, " | ".join(cells)))
        print(lines[-1], flush=True)
    return lines


def solver_paths(use_armel):
    """(path here, path on 32-bit ARM or "-"): what cubebot.solver.search.core_path() names."""
    import subprocess
    here = subprocess.check_output([sys.executable, "-c", PATH_PROBE], universal_newlines=True,
                                   env=dict(os.environ, PYTHONPATH=ROOT)).strip()
    if not use_armel:
        return here, "-"
    done = subprocess.run([sys.executable, ARM_MEMORY, "run", "--", "python", "-c", PATH_PROBE], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
    return here, (done.stdout.strip().splitlines() or ["unknown"])[-1]


def core_memory_table(args):
    """The "brick-memory-core" section: a `cubebot solve` of each size on the path that runs and
    on the pure-Python one (CUBEBOT_PURE_PYTHON=1), on 32-bit ARM and here."""
    import random
    from cubebot.solver.scramble import random_state
    load_start = os.getloadavg()[0]
    use_armel = not args.no_armel and armel_ready()
    path_here, path_arm = solver_paths(use_armel)
    here = os.path.join(os.path.dirname(sys.executable), "cubebot")
    cases = []
    for n in args.sizes:
        state = random_state(n, random.Random(SMALL_SEED))
        label = "`cubebot solve`, {0}x{0}x{0}".format(n)
        cases.append((label + ", default path", [here, "solve", state],
                      ["python", "-m", "cubebot", "solve", state]))
        cases.append((label + ", `{}`".format(PURE_PYTHON), ["env", PURE_PYTHON, here, "solve", state],
                      ["env", PURE_PYTHON, "python", "-m", "cubebot", "solve", state]))
    lines = measure_rows(cases, use_armel)
    head = [
        "## The compiled core's memory on 32-bit ARM and here (`python bench/brick.py --core-memory{}`)",
        "",
        "{}, Python {} on {} ({} CPUs){}. Measured as in \"brick-memory\" (peak Pss summed over the",
        "process tree; 32-bit ARM under `bench/arm_memory.py measure`). The default path is what",
        "`cubebot.solver.search.core_path()` names: {} on 32-bit ARM, {} here; `{}` forces the",
        "pure-Python path. The brick has {:.0f}-36 MB free: every emulated figure must stay within {:.0f} MB.",
        "\"Table pages it read\": the MB of table files in the page cache after the emulated run, evicted",
        "before it (bench/memory.py cached_mb): tables read with pread are not in the peak but take",
        "free memory as cache, and mapped ones are counted in both.",
        "",
        "| case | 32-bit ARM peak (MB) | table pages it read (MB) | emulated wall | x86-64 peak (MB) | wall here |",
        "|---|---|---|---|---|---|",
    ]
    head[0] = head[0].format("" if tuple(args.sizes) == CORE_SIZES else
                             " --sizes " + " ".join(str(n) for n in args.sizes))
    head[2] = head[2].format(datetime.date.today().isoformat(), platform.python_version(),
                             platform.machine(), os.cpu_count(),
                             "" if use_armel else "; no armel chroot (bench/arm_memory.py setup): no 32-bit figures")
    head[4] = head[4].format(path_arm, path_here, PURE_PYTHON)
    head[5] = head[5].format(BRICK_FREE_MB, BRICK_FREE_MB)
    tail = ["", "Load average (1 min) {:.1f} at the start, {:.1f} at the end, on {} CPUs shared with other "
            "jobs; the states are seed {} (cubebot.solver.scramble.random_state).".format(
                load_start, os.getloadavg()[0], os.cpu_count(), SMALL_SEED)]
    text = "\n".join(head + lines + tail)
    if not args.no_record:
        record(CORE_RECORDS[min(args.sizes) >= 6], text)
    print(text)


def memory_table(args):
    load_start = os.getloadavg()[0]
    use_armel = not args.no_armel and armel_ready()
    lines = measure_rows(memory_cases(args), use_armel)
    head = [
        "## Memory on 32-bit ARM and here (`python bench/brick.py --memory{}`)",
        "",
        "{}, Python {} on {} ({} CPUs){}. Peak Pss summed over the process tree (forked children",
        "share pages; Pss counts each once): under `bench/arm_memory.py measure` (guest_peak_pss_all_mb; Debian",
        "armel, the EV3's ABI, qemu emulating an ARM926, Python 3.11) and here (bench/memory.py).",
        "The brick has {:.0f}-36 MB free: every emulated figure must stay within {:.0f} MB. Wall",
        "times are noisy (a shared machine); emulation is not brick time (docs/brick.md).",
        "",
        "| case | 32-bit ARM peak (MB) | table pages it read (MB) | emulated wall | x86-64 peak (MB) | wall here |",
        "|---|---|---|---|---|---|",
    ]
    defaults = (("batch", BATCH), ("armel_batch", ARMEL_BATCH), ("app_jobs", APP_JOBS),
                ("armel_app_jobs", ARMEL_APP_JOBS))
    head[0] = head[0].format("".join(" --{} {}".format(name.replace("_", "-"), getattr(args, name))
                                     for name, default in defaults if getattr(args, name) != default)
                             + (" --no-armel" if args.no_armel else ""))
    head[2] = head[2].format(datetime.date.today().isoformat(), platform.python_version(),
                             platform.machine(), os.cpu_count(),
                             "" if use_armel else "; no armel chroot (bench/arm_memory.py setup): no 32-bit figures")
    head[5] = head[5].format(BRICK_FREE_MB, BRICK_FREE_MB)
    tail = ["", "Load average (1 min) {:.1f} at the start, {:.1f} at the end, on {} CPUs shared with other "
            "jobs; the batch states are seed {} (cubebot.solver.scramble.random_state), the single "
            "states seed {}.".format(load_start, os.getloadavg()[0], os.cpu_count(), HELD_OUT_SEED,
                                     SMALL_SEED),
            "", "\"Table pages it read\": the MB of table files in the page cache after the emulated run, "
            "evicted before it (bench/memory.py cached_mb); tables read with pread are not in the peak."]
    text = "\n".join(head + lines + tail)
    if not args.no_record:
        record("brick-memory", text)
    print(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=SEEDS)
    parser.add_argument("--no-record", action="store_true")
    parser.add_argument("--memory", action="store_true", help="the memory table (see the docstring)")
    parser.add_argument("--batch", type=int, default=BATCH)
    parser.add_argument("--armel-batch", type=int, default=ARMEL_BATCH)
    parser.add_argument("--app-jobs", type=int, default=APP_JOBS)
    parser.add_argument("--armel-app-jobs", type=int, default=ARMEL_APP_JOBS)
    parser.add_argument("--no-armel", action="store_true", help="measure here only")
    parser.add_argument("--core-memory", action="store_true",
                        help="the compiled core's memory table (see the docstring)")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(CORE_SIZES),
                        help="--core-memory: the sizes (default %(default)s)")
    args = parser.parse_args()
    if args.memory:
        memory_table(args)
        return
    if args.core_memory:
        core_memory_table(args)
        return
    rows, load_start = [], os.getloadavg()[0]
    for size in SIZES:
        walls, robot, simulated, steps, solved = [], [], [], [], 0
        for seed in range(args.seeds):
            wall, n_steps, result, sim = one(size, seed)
            walls.append(wall)
            steps.append(n_steps)
            robot.append(result["total_seconds"])
            simulated.append(sim["total_seconds"])
            solved += bool(result["solved"])
        rows.append("| {0}x{0}x{0} | {1} | {2}/{1} | {3:.2f} s | {4:.2f} s | {5:.1f} s | {6:.1f} s | {7:.0f} |".format(
            size, args.seeds, solved, statistics.mean(walls), max(walls), statistics.mean(robot),
            statistics.mean(simulated), statistics.mean(walls) * 1e6 / statistics.mean(steps)))
        print(rows[-1], flush=True)
    text = "\n".join([
        "## Virtual brick (python-ev3dev2 on a fake sysfs)",
        "",
        "{}, {} seeds per size, Python {} on {} ({} CPUs). `python bench/brick.py{}`.".format(
            datetime.date.today().isoformat(), args.seeds, platform.python_version(), platform.machine(),
            os.cpu_count(), "" if args.seeds == SEEDS else " --seeds {}".format(args.seeds)),
        "Each run scans, resolves, solves, plans and turns through the real python-ev3dev2 against the",
        "virtual brick; the robot time is the brick's clock (physics steps of 10 ms, lockstep), the",
        "simulated time that of the pure simulation with the same seed (the same cube and sensor).",
        "",
        "| size | runs | solved | wall time per run (mean) | (max) | robot time, virtual brick | "
        "robot time, pure sim | wall us per physics step |",
        "|---|---|---|---|---|---|---|---|",
    ] + rows + ["", "Load average (1 min) {:.1f} at the start, {:.1f} at the end, on {} CPUs shared with "
                 "other jobs.".format(load_start, os.getloadavg()[0], os.cpu_count())])
    if not args.no_record:
        record("brick", text)
    print(text)


if __name__ == "__main__":
    main()
