"""The brick-time estimator: compute measured here -> seconds on the EV3 (a range).

The EV3 is a 300 MHz ARM926EJ-S without a floating-point unit running
CPython 3.5; this machine is a modern x86-64 core. A single factor ("x50")
hides two things: how uncertain the ratio is, and that floating point is
emulated in software on the brick. So the estimate is a range, and the
work is split in two kinds with their own factors:

  integer Python (the solvers' searches, the planner, the C kociemba
  search)              INT_FACTOR   = (50, 150)
  floating point (colour resolution: Lab conversion, distances, fits)
                       FLOAT_FACTOR = (150, 450)

Basis (docs/brick.md, docs/references.md):
- pure Python on the brick is reported 50-150x slower than a modern x86
  core (start-up ~2 s against ~20 ms; a colour resolution 7 s on the EV3
  against 50 ms on a Raspberry Pi 2, itself several times slower than a PC);
- under qemu emulating the same ARM926 (bench/arm_memory.py) integer Python runs
  about 10x slower than native and floating-point Python about 30x: the
  soft-float library costs three times the integer work per operation, on
  the emulator as on the real core (both run the same libgcc soft-float
  routines). So the float factor is the integer factor x FLOAT_OVER_INT (3);
- bench/brick.py measures the emulated/native ratios of a solve and of a
  colour resolution again and records them next to this estimate.

Compiled floating point (the joint colour search in C, robot/colour/_assign.c)
counts COMPILED_FLOAT_FACTOR: compiled integer code is within INT_FACTOR
(kociemba's C solve, 1 s on the brick, runs 10-30 ms here: x35-x100), and
under the same emulation the compiled colour search slows down 3 to 4.3
times as much as kociemba's C solve does (repeated runs of
bench/colour_compiled.py --armel), for its soft-float calls;
COMPILED_FLOAT_OVER_INT rounds that up.

Compiled code (the solver's compiled core, kociemba's C search) has its own
factor, taken from a fact and a measurement of the same run: kociemba's C
solve of a 3x3x3 takes about KOCIEMBA_BRICK_S (1 s) on the brick
(docs/references.md), so compiled_factor(t) = KOCIEMBA_BRICK_S / t for its
time t here.

Compiled integer code that the job times itself (the 3x3x3 two-phase
candidate search, cubebot.solver.search.CORE_SECONDS) counts COMPILED_FACTOR,
the same fact as a range: 1 s on the brick over kociemba's time here,
KOCIEMBA_HERE_S (10-30 ms on an idle core, median 51.6 ms under the
benches' load in record "brick-estimate" of docs/benchmarks.md).

estimate(int_s, float_s, compiled_float_s, compiled_s) -> BrickTime(low, high, central)
in seconds; central is the geometric mean of the bounds (the factors are ratios).
estimate_solve(total_s, compiled_s, kociemba_here_s) splits a solve's time
into its compiled part and the Python rest.
"""

import math
from collections import namedtuple

INT_FACTOR = (50.0, 150.0)        # brick seconds per second here, integer Python
FLOAT_OVER_INT = 3.0              # soft-float work costs this much more per operation
FLOAT_FACTOR = (INT_FACTOR[0] * FLOAT_OVER_INT, INT_FACTOR[1] * FLOAT_OVER_INT)

COMPILED_FLOAT_OVER_INT = 5.0     # compiled soft-float code over compiled integer code (emulated)
COMPILED_FLOAT_FACTOR = (INT_FACTOR[0] * COMPILED_FLOAT_OVER_INT, INT_FACTOR[1] * COMPILED_FLOAT_OVER_INT)

KOCIEMBA_BRICK_S = 1.0            # kociemba's C solve of a 3x3x3 on the brick (docs/references.md)

KOCIEMBA_HERE_S = (0.010, 0.052)  # kociemba's C solve of a 3x3x3 here: idle core .. benches' median
COMPILED_FACTOR = (KOCIEMBA_BRICK_S / KOCIEMBA_HERE_S[1], KOCIEMBA_BRICK_S / KOCIEMBA_HERE_S[0])

BrickTime = namedtuple("BrickTime", ["low", "high", "central"])


def estimate(int_s, float_s=0.0, compiled_float_s=0.0, compiled_s=0.0, int_factor=INT_FACTOR,
             float_factor=FLOAT_FACTOR, compiled_float_factor=COMPILED_FLOAT_FACTOR,
             compiled_int_factor=COMPILED_FACTOR):
    """Brick seconds for int_s s of integer Python, float_s s of floating-point Python,
    compiled_float_s s of compiled floating-point work and compiled_s s of compiled
    integer work here."""
    low = (int_s * int_factor[0] + float_s * float_factor[0] + compiled_float_s * compiled_float_factor[0]
           + compiled_s * compiled_int_factor[0])
    high = (int_s * int_factor[1] + float_s * float_factor[1] + compiled_float_s * compiled_float_factor[1]
            + compiled_s * compiled_int_factor[1])
    return BrickTime(low, high, math.sqrt(low * high))


def compiled_factor(kociemba_here_s, kociemba_brick_s=KOCIEMBA_BRICK_S):
    """Brick seconds per second here for compiled code: kociemba's C solve on the brick
    over its time here (kociemba_here_s, measured in the same run)."""
    if kociemba_here_s <= 0:
        raise ValueError("kociemba's time here must be positive, not {}".format(kociemba_here_s))
    return kociemba_brick_s / kociemba_here_s


def estimate_solve(total_s, compiled_s, kociemba_here_s):
    """Brick seconds of a solve that took total_s here, compiled_s of them in compiled
    code: the Python rest at INT_FACTOR, the compiled part at compiled_factor."""
    python = estimate(max(total_s - compiled_s, 0.0))
    extra = compiled_s * compiled_factor(kociemba_here_s)
    low, high = python.low + extra, python.high + extra
    return BrickTime(low, high, math.sqrt(low * high))


def on_the_brick(int_s, float_s=0.0, compiled_float_s=0.0, compiled_s=0.0):
    """Measured on the brick: the time itself (a range of width 0)."""
    total = int_s + float_s + compiled_float_s + compiled_s
    return BrickTime(total, total, total)


def describe(t):
    """'12-37 s' (or '12 s' when the range has no width)."""
    if abs(t.high - t.low) < 0.05:
        return "{:.1f} s".format(t.low)
    return "{:.1f}-{:.1f} s".format(t.low, t.high)
