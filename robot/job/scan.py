"""Scanning: bring every face up under the sensor and read every facelet.

Geometry (the same as cubebot.robot.hw.sim.world assumes of the real robot): the
sensor's spot lies on the robot's +x side (towards robot R) of the table
axis. For the face that is up, the centre is read at `arm_centre_deg` (odd
N); the ring is read while the table turns in 45-degree steps: with the
table turned theta cube degrees clockwise from above, the spot at radius r
(in facelets) lies over the point (r cos theta, -r sin theta) of the face as
it was when the ring began (x towards R, z towards F). On a 3x3x3 the edges
pass at theta = 0, 90, ... (arm at the edge radius) and the corners at 45,
135, ... (corner radius); on a 2x2x2 only corners, at the 2x2x2 radius.
The table turns through the ring in one move at `scan_table_speed_dps`;
each facelet is sampled as the encoder passes its angle, and the arm moves
between radii on the way.

Faces come up by flips (x: the face at the front comes up) after a table
turn; `face_route` picks, for the faces still needed, the fewest flips and
then the least table turning: 5 flips for all six faces. Readings are kept
per facelet in the cube frame (cubebot.robot.machine.frames maps robot positions back
through the orientation), `samples_per_facelet` samples each.

`Scanner.scan(resolve)` reads everything, resolves colours, rescans only the
facelets resolution reports as doubtful (ScanUnresolved.doubtful) and those
whose own samples disagree, at most `max_rescans` times, and returns a
ScanResult. A rescan reads each such facelet cubebot.robot.colour.rescan.RESCAN_SAMPLES more
times, each from a slightly displaced table angle and arm position, and adds
the samples to the earlier ones (cubebot.robot.colour.rescan).
"""

import math
from collections import namedtuple

from cubebot.robot.machine import orientation
from cubebot.robot.colour import rescan
from cubebot.robot.errors import MotorStalled, ScanUnresolved, check_stop
from cubebot.robot.machine.frames import robot_to_cube

RING_STEP_DEG = 45
EDGE_RADIUS_FACELETS = 1.0                 # a 3x3x3 edge facelet's centre
CORNER_RADIUS_FACELETS = math.sqrt(2.0)    # a 3x3x3 corner facelet's centre
CORNER_2X2_RADIUS_FACELETS = math.sqrt(0.5)
MAX_FLIPS_SEARCHED = 6
POLL_S = 0.005             # how often the encoder is looked at while the ring turns
SAMPLE_LEAD_DEG = 1.5      # start sampling this many cube degrees early, per sample

# One place to read: table angle (cube degrees, from the ring's start), the
# named arm position, and the robot-frame U facelet index under the spot.
Spot = namedtuple("Spot", ["theta_deg", "arm", "robot_index"])
# One reading to take: table angle (cube degrees, from the ring's start), arm
# motor degrees, the cube-frame facelet index and how many samples.
Target = namedtuple("Target", ["theta_deg", "arm_deg", "index", "samples"])

ScanResult = namedtuple("ScanResult", ["readings", "state", "resolution", "where", "rescans",
                                       "doubtful", "seconds", "overlap_seconds"])
ScanResult.__doc__ = """readings: 6N^2 lists of (r, g, b) samples (cube frame, URFDLB);
state: the resolved facelets (None if unresolved); resolution: colours' Resolution
(or None); where: the orientation after scanning; rescans: how many rescans ran;
doubtful: facelets still in doubt (empty when resolved); seconds: robot time;
overlap_seconds: per resolution, the robot time of the moves that ran while it computed
(the last face's table squaring and the arm going clear of the flipper)."""


def ring_spots(n):
    """The spots of one face in table order (theta ascending), centre first (odd N)."""
    spots = []
    if n % 2 == 1:
        spots.append(Spot(0, "centre", (n * n) // 2))
    for k in range(360 // RING_STEP_DEG):
        theta = k * RING_STEP_DEG
        if n == 2:
            if k % 2 == 0:
                continue
            radius, arm = CORNER_2X2_RADIUS_FACELETS, "corner_2x2"
        elif k % 2 == 0:
            radius, arm = EDGE_RADIUS_FACELETS, "edge"
        else:
            radius, arm = CORNER_RADIUS_FACELETS, "corner"
        x = radius * math.cos(math.radians(theta))
        z = -radius * math.sin(math.radians(theta))
        col = int(math.floor(x + n / 2.0))
        row = int(math.floor(z + n / 2.0))
        spots.append(Spot(theta, arm, row * n + col))
    return spots


def _shortest(q):
    q %= 4
    return q - 4 if q == 3 else q


def face_route(where, faces):
    """Table quarter turns before each flip so that every face in `faces` comes up.

    Returns a list of q (0..3), one per flip: the fewest flips, then the least
    table turning. The face up at the start counts as reached.
    """
    needed = set(faces) - set(where[0])
    if not needed:
        return []
    for flips in range(1, MAX_FLIPS_SEARCHED + 1):
        best = _search(where, needed, flips)
        if best is not None:
            return best[1]
    raise ValueError("faces {} cannot all be brought up".format("".join(sorted(faces))))


def _search(where, needed, flips_left):
    """(table cost, route) covering `needed` within `flips_left` flips, or None."""
    if not needed:
        return 0, []
    if flips_left == 0:
        return None
    best = None
    for q in range(4):
        after = orientation.rotate(orientation.rotate(where, "y", q), "x")
        rest = _search(after, needed - set(after[0]), flips_left - 1)
        if rest is None:
            continue
        cost = abs(_shortest(q)) + rest[0]
        if best is None or cost < best[0]:
            best = (cost, [q] + rest[1])
    return best


class Scanner(object):
    """Scans the cube on `mechanism` (homed); tracks its orientation `where`."""

    def __init__(self, mechanism, n, emit=None, stop=None, where=orientation.IDENTITY):
        self.mech = mechanism
        self.config = mechanism.config
        self.n = n
        self.emit = emit
        self.stop = stop
        self.where = where
        self.readings = [[] for _ in range(6 * n * n)]
        self._spots = ring_spots(n)
        self._done = 0
        self._pass = 0            # 0: the first read; k: the k-th rescan
        self._face = 0            # faces read so far in this pass
        self._faces = 0           # faces this pass reads
        self._doubtful = None     # the facelets in doubt that start this rescan (sent once)
        self._table_moving = False    # the last face's squaring turn, started and not waited for

    def _check_stop(self):
        check_stop(self.stop, "while scanning")

    # -- reading ------------------------------------------------------------
    def read_facelets(self, wanted=None, finish=True):
        """Read the facelets in `wanted` (cube-frame indices; None = all).

        A full read (None) replaces every facelet's samples with
        `samples_per_facelet` new ones; a rescan (a set) adds
        rescan.RESCAN_SAMPLES displaced samples to each wanted facelet's.
        finish=False returns while the last face's moves still run (the table
        squaring, the arm going clear of the flipper): finish_moves() waits for them.
        """
        nn = self.n * self.n
        faces = sorted(set(orientation.ROBOT_FACES[i // nn] for i in range(6 * nn)
                           if wanted is None or i in wanted))
        if wanted is None:
            self.readings = [[] for _ in range(6 * nn)]
        route = face_route(self.where, faces)
        self._face, self._faces = 0, len(route) + 1
        self._read_face(wanted, next_q=route[0] if route else 0, last=not route)
        for k in range(len(route)):
            self._check_stop()
            self.mech.flip()
            self.where = orientation.rotate(self.where, "x")
            self._read_face(wanted, next_q=route[k + 1] if k + 1 < len(route) else 0,
                            last=k + 1 == len(route))
        if finish:
            self.finish_moves()

    def finish_moves(self):
        """Wait for the moves read_facelets(finish=False) left running; the robot seconds
        that took (the mechanism is then as read_facelets() leaves it)."""
        began = self.mech.now_s()
        if self._table_moving:
            self._table_moving = False
            self.mech.wait_table()
        self.mech.move_arm_named("half")
        return self.mech.now_s() - began

    def _targets(self, wanted):
        """The Targets of the face up: every spot once, or the wanted ones displaced."""
        mapping = robot_to_cube(self.where, self.n)
        arm_deg = self.config.arm_positions_deg()
        targets = []
        for spot in self._spots:
            index = mapping[spot.robot_index]
            if wanted is None:
                targets.append(Target(spot.theta_deg, arm_deg[spot.arm], index,
                                      self.config.samples_per_facelet))
            elif index in wanted:
                for theta, arm in rescan.displaced(spot.theta_deg, arm_deg[spot.arm],
                                                   moves_with_table=spot.arm != "centre"):
                    targets.append(Target(theta, arm, index, 1))
        return targets

    def _read_face(self, wanted, next_q, last=False):
        """Read the wanted facelets of the face up; end turned by y^next_q, square (the
        last face of a read starts that turn and does not wait for it)."""
        targets = self._targets(wanted)
        self._face += 1
        target = 90 * _shortest(next_q)
        if targets:
            # Ring direction: clockwise or anticlockwise, whichever ends nearer the target.
            cw = [(t.theta_deg % 360, t) for t in targets]
            ccw = [(t if t == 0 else t - 360, spot) for t, spot in cw]
            cw.sort(key=lambda pair: pair[0])
            ccw.sort(key=lambda pair: -pair[0])
            order = min((cw, ccw), key=lambda seq: abs(seq[-1][0] - target) + abs(seq[0][0]))
        else:
            order = []
        theta = 0
        if order:
            self.mech.arm_in_and_release(order[0][1].arm_deg)
        for spot_theta, spot in order:          # spots under the sensor before the table turns
            if spot_theta != 0:
                break
            self._check_stop()
            self.mech.move_arm_to(spot.arm_deg, settle=False)
            self._sample(spot)
        moving = [(t, spot) for t, spot in order if t != 0]
        if moving:
            theta = self._read_ring(moving)
        # The faces are square again at the target turn (a multiple of 90 degrees).
        end = target + 360 * int(round((theta - target) / 360.0))
        self.mech.start_arm_to(self.config.arm_positions_deg()["half"])   # clear of the flip
        if end != theta and last:
            self.mech.start_table_by_deg(end - theta, self.config.table_speed_dps)
            self._table_moving = True
        elif end != theta:
            self.mech.rotate_table_deg(end - theta)
        self.where = orientation.rotate(self.where, "y", end // 90)

    def _read_ring(self, moving):
        """Turn the table once through the targets at `moving` [(theta, Target)],
        reading each as the encoder passes it; the arm moves to each target's
        position on the way. Returns the table angle reached (the last theta)."""
        mech = self.mech
        last = moving[-1][0]
        sign = 1 if last > 0 else -1
        mech.move_arm_to(moving[0][1].arm_deg, settle=False)
        start = mech.table_cube_deg()
        mech.start_table_by_deg(last, self.config.scan_table_speed_dps)
        for theta, spot in moving:
            self._check_stop()
            mech.start_arm_to(spot.arm_deg)
            self._wait_table_at(start + theta - sign * SAMPLE_LEAD_DEG * spot.samples, sign)
            mech.wait_arm()
            self._sample(spot)
        mech.wait_table()
        return last

    def _wait_table_at(self, cube_deg, sign):
        """Poll the table encoder until it passes `cube_deg` in direction `sign`.

        A backend may report the move as running only some time after it was
        started, so "not moving" counts only once the table has been seen
        moving (or after move_timeout_s); a table that stops short is stalled.
        """
        mech = self.mech
        deadline = mech.now_s() + self.config.move_timeout_s
        seen_moving = False
        while sign * mech.table_position_cube_deg() < sign * cube_deg:
            moving = mech.table_is_moving()
            seen_moving = seen_moving or moving
            if (seen_moving and not moving) or mech.now_s() > deadline:
                mech.wait_table()
                raise MotorStalled("table motor stopped at {:.0f} cube degrees before the scan "
                                   "angle {:.0f}".format(mech.table_position_cube_deg(), cube_deg))
            mech.sleep_s(POLL_S)

    def _sample(self, target):
        """Add target.samples readings to the target facelet's samples."""
        samples = [tuple(self.mech.read_rgb()) for _ in range(target.samples)]
        self.readings[target.index].extend(samples)
        self._done += 1
        if self.emit is not None:
            payload = {"done": self._done, "total": 6 * self.n * self.n,
                       "readings": {str(target.index): list(samples[0])},
                       "index": target.index, "face": self._face, "faces": self._faces,
                       "rescan": self._pass}
            if self._doubtful is not None:
                payload["doubtful"], self._doubtful = self._doubtful, None
            self.emit("scan_progress", payload)

    # -- the whole scan -----------------------------------------------------
    def scan(self, resolve, profile=None):
        """Read, resolve, rescan doubtful facelets; a ScanResult (state None if unresolved)."""
        start = self.mech.now_s()
        # Each resolution computes while the last face's moves run (read_facelets with
        # finish=False): pure computation, and nothing else moves until they have ended.
        self.read_facelets(finish=False)
        rescans = 0
        overlaps = []
        while True:
            try:
                try:
                    resolution = resolve(self.readings, self.n, profile) if profile is not None \
                        else resolve(self.readings, self.n)
                finally:
                    overlaps.append(self.finish_moves())
                return ScanResult(self.readings, resolution.state, resolution, self.where, rescans,
                                  [], self.mech.now_s() - start, overlaps)
            except ScanUnresolved as exc:
                # Resolution that names no facelet doubts them all.
                doubtful = sorted(set(exc.doubtful)) or list(range(6 * self.n * self.n))
                if rescans >= self.config.max_rescans:
                    return ScanResult(self.readings, None, None, self.where, rescans, doubtful,
                                      self.mech.now_s() - start, overlaps)
                wanted = rescan.rescan_set(doubtful, self.readings)
            rescans += 1
            self._pass, self._doubtful = rescans, list(doubtful)
            self.read_facelets(set(wanted), finish=False)
