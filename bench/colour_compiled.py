"""The compiled joint colour search against the Python one, and its brick-time factor.

Here: the cost matrices that resolving SCANS synthetic 3x3x3 robot scans makes (seeds
0.., the moderate noise preset, the simulated MINDCUB3R's sensor model) are searched by
both paths; every answer must be the same (found, nodes, exhausted), and the CPU time of
each path is reported, with whole resolutions timed both ways.

--armel (root, with the chroot of bench/arm_memory.py): the same compiled search, built
for Debian armel (the EV3's ABI) inside the chroot, and kociemba's C solve of
KOCIEMBA_STATES fixed states, each timed under qemu emulating the ARM926 and natively.
How much more the emulation slows the colour search (soft-float calls) than kociemba's
integer search is the basis of cubebot.robot.job.brick_time.COMPILED_FLOAT_OVER_INT.
Writes the "colour-compiled" section of docs/benchmarks.md.

Usage: python bench/colour_compiled.py [--scans N] [--armel] [--no-record]
       python bench/colour_compiled.py --guest DATA MODULE   (inside the chroot: prints JSON)
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from bench.record import record  # noqa: E402

SCANS = 20
SIZE = 3
KOCIEMBA_SEED = 4848
KOCIEMBA_STATES = 8          # kociemba states timed both ways (each well below its slow tail)
KOCIEMBA_QUICK_S = 0.05      # states kociemba solves within this here are kept
REPEATS = 5                  # timings: the best of this many
GUEST_MODULE = "/tmp/cubebot-assign-armel.so"        # inside the chroot


def cost_matrices(count):
    """The cost matrices searched while resolving `count` synthetic robot scans, and the scans."""
    from cubebot.robot.colour import joint
    from cubebot.robot.colour.resolve import resolve
    from cubebot.robot.errors import ScanUnresolved
    from cubebot.robot.hw.sim.sensor_model import SensorModel
    from cubebot.robot.job.robots import scrambled
    seen = []
    real = joint.joint_search

    def keep(cost, n, module=None):
        seen.append([list(row) for row in cost])
        return real(cost, n, module)
    scans = []
    joint.joint_search = keep
    try:
        for seed in range(count):
            readings = SensorModel(random.Random(seed)).scan(scrambled(SIZE, seed), SIZE, 2)
            scans.append(readings)
            try:
                resolve(readings, SIZE)
            except ScanUnresolved:
                pass
    finally:
        joint.joint_search = real
    return seen, scans


def time_searches(costs, module):
    """CPU seconds of the compiled search over `costs` (the best of REPEATS)."""
    from cubebot.robot.colour import joint
    best = None
    for _ in range(REPEATS):
        began = time.process_time()
        for cost in costs:
            joint.joint_search(cost, SIZE, module)
        spent = time.process_time() - began
        best = spent if best is None else min(best, spent)
    return best


def time_kociemba(states):
    import kociemba
    kociemba.solve(states[0])                  # loads its tables
    best = None
    for _ in range(REPEATS):
        began = time.process_time()
        for state in states:
            kociemba.solve(state, max_depth=21)
        spent = time.process_time() - began
        best = spent if best is None else min(best, spent)
    return best


def quick_states():
    """KOCIEMBA_STATES random states that kociemba solves quickly here (its slow tail left out,
    so that the emulated run stays short; the ratio is what matters)."""
    import kociemba
    from cubebot.solver import scramble
    rng = random.Random(KOCIEMBA_SEED)
    kociemba.solve(scramble.random_state(SIZE, rng))
    kept = []
    while len(kept) < KOCIEMBA_STATES:
        state = scramble.random_state(SIZE, rng)
        began = time.process_time()
        kociemba.solve(state, max_depth=21)
        if time.process_time() - began < KOCIEMBA_QUICK_S:
            kept.append(state)
    return kept


def guest(data_path, module_path):
    """Inside the chroot: time the compiled search (loaded from module_path) and kociemba."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("cubebot.robot.colour._assign", module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with open(data_path) as fh:
        data = json.load(fh)
    print(json.dumps({"assign_s": time_searches(data["costs"], module),
                      "kociemba_s": time_kociemba(data["states"])}))


def armel(costs, states):
    """(emulated assign s, emulated kociemba s) under the chroot, or raise SystemExit."""
    sys.path.insert(0, os.path.join(TOP, "bench"))
    import arm_memory
    run = arm_memory.Runner(arm_memory.ROOT, TOP, dry=False)
    why = arm_memory.ready(run)
    if why:
        raise SystemExit("colour_compiled: " + why)
    with tempfile.NamedTemporaryFile("w", suffix=".json", dir=os.path.join(arm_memory.ROOT, "tmp"),
                                     delete=False) as fh:
        json.dump({"costs": costs, "states": states}, fh)
        host_data = fh.name
    guest_data = "/tmp/" + os.path.basename(host_data)
    try:
        build = ["sh", "-c", 'gcc -O2 -shared -fPIC -I"$(python3 -c "import sysconfig; print('
                 'sysconfig.get_paths()[\'include\'])")" -o {} robot/colour/_assign.c'.format(GUEST_MODULE)]
        if run.inside(build) != 0:
            raise SystemExit("colour_compiled: the compiled search did not build inside the chroot")
        out = subprocess.check_output(run.inside_argv(
            ["python3", "bench/colour_compiled.py", "--guest", guest_data, GUEST_MODULE]),
            universal_newlines=True)
    finally:
        os.unlink(host_data)
    found = json.loads(out.strip().splitlines()[-1])
    return found["assign_s"], found["kociemba_s"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scans", type=int, default=SCANS)
    parser.add_argument("--armel", action="store_true")
    parser.add_argument("--no-record", action="store_true")
    parser.add_argument("--guest", nargs=2, metavar=("DATA", "MODULE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.guest:
        guest(*args.guest)
        return
    from cubebot.robot.colour import joint
    from cubebot.robot.colour.assign import PieceSearch
    from cubebot.robot.colour.pieces import orbits
    from cubebot.robot.colour.resolve import resolve
    from cubebot.robot.errors import ScanUnresolved
    module = joint.compiled()
    if module is None:
        raise SystemExit("colour_compiled: the compiled colour search is not built "
                         "(pip install -e . builds it)")
    costs, scans = cost_matrices(args.scans)
    python_s = compiled_s = 0.0
    for cost in costs:
        began = time.process_time()
        python = PieceSearch(joint.SEARCH_MARGIN, joint.MAX_NODES, check_parity=True)
        joint._python_search(python, cost, SIZE, orbits(SIZE))
        python_s += time.process_time() - began
        began = time.process_time()
        compiled = joint.joint_search(cost, SIZE, module)
        compiled_s += time.process_time() - began
        if (python.found, python.nodes, python.exhausted) != \
                (compiled.found, compiled.nodes, compiled.exhausted):
            raise SystemExit("colour_compiled: the two searches differ on a cost matrix")
    resolve_s = {}
    for path, env in (("compiled", "0"), ("Python", "1")):
        os.environ["CUBEBOT_PURE_PYTHON"] = env
        began = time.process_time()
        for readings in scans:
            try:
                resolve(readings, SIZE)
            except ScanUnresolved:
                pass
        resolve_s[path] = (time.process_time() - began) / len(scans)
    os.environ.pop("CUBEBOT_PURE_PYTHON")
    lines = ["## Compiled colour search (`python bench/colour_compiled.py{}`)".format(
        " --armel" if args.armel else ""), "",
        "{} synthetic 3x3x3 robot scans (moderate noise) make {} joint searches; the compiled "
        "search gives the Python search's answer on every one (found, nodes, exhausted).".format(
            len(scans), len(costs)), "",
        "| here (CPU) | Python | compiled |", "|---|---|---|",
        "| joint search, per search | {:.2f} ms | {:.2f} ms |".format(
            1000 * python_s / len(costs), 1000 * compiled_s / len(costs)),
        "| whole resolution, per scan | {:.1f} ms | {:.1f} ms |".format(
            1000 * resolve_s["Python"], 1000 * resolve_s["compiled"]), ""]
    if args.armel:
        states = quick_states()
        native_assign = time_searches(costs, module)
        native_kociemba = time_kociemba(states)
        emulated_assign, emulated_kociemba = armel(costs, states)
        slow_assign, slow_kociemba = emulated_assign / native_assign, emulated_kociemba / native_kociemba
        lines += ["Under qemu (ARM926, Debian armel, bench/arm_memory.py's chroot) against native, "
                  "best of {} each:".format(REPEATS), "",
                  "| compiled code | native | emulated | slowdown |", "|---|---|---|---|",
                  "| joint colour search ({} searches) | {:.3f} s | {:.3f} s | x{:.1f} |".format(
                      len(costs), native_assign, emulated_assign, slow_assign),
                  "| kociemba's C solve ({} states) | {:.3f} s | {:.3f} s | x{:.1f} |".format(
                      len(states), native_kociemba, emulated_kociemba, slow_kociemba), "",
                  "The colour search slows down {:.1f} times as much as kociemba's integer search "
                  "(its soft-float calls): the basis of COMPILED_FLOAT_OVER_INT "
                  "(cubebot.robot.job.brick_time).".format(slow_assign / slow_kociemba)]
    text = "\n".join(lines)
    print(text)
    if not args.no_record:
        record("colour-compiled", text)


if __name__ == "__main__":
    main()
