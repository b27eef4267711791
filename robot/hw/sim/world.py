"""The simulated world: the three motors' angles and the cube on the table.

`World.update(flipper_deg, table_deg, arm_deg)` is called with the motors'
calibrated positions (0 = homed) whenever they change, at any granularity
(the sim backend calls it every few degrees; the virtual brick's physics
thread calls it on each tick). From the motion the world derives what the
cube does:
  - table turning, flipper away (below hold): the whole cube turns (y);
  - table turning, flipper at hold: only the bottom layer turns (robot D);
    on release the layer snaps to the nearest quarter turn; a layer left
    more than MISALIGN_TOLERANCE_DEG off a quarter is a fault;
  - flipper past the flip threshold and back: the cube tilts (x: the back
    face lands on the bottom). Tilting or holding a cube that is not square
    to the flipper is a fault.
Faults are recorded in `faults` (one line each); the world never raises from
update(), so a physics thread can keep running. One fault is silent, as on a
real robot: `slip_at(k, quarters)` makes the k-th held turn leave its layer
`quarters` quarter turns off (a layer that slipped under the flipper or was
carried on by the table); it is listed in `slips`, not in `faults`.

The cube is kept as a facelet string in the robot frame at the nearest
quarter turn (`robot_state`) plus a continuous yaw of its upper layers in
cube degrees (clockwise seen from above, within -45..45), and the
orientation `where` (cubebot.robot.machine.orientation) that maps it back to the cube frame.

The colour sensor sits on the arm; its spot lies on the robot's +x side
(towards robot R) of the table axis, at a radius set by the arm angle:
0 at arm_centre_deg, 2/3 of the cube's half-width at arm_edge_deg and
2*sqrt(2)/3 at arm_corner_deg (a 3x3x3's edge and corner facelet centres),
linear in between and beyond. The physical cube is the same size whatever N.
"""

import math

from cubebot.solver.facelets import FACES, is_solved
from cubebot.solver.moves import Move, apply, invert
from cubebot.robot.machine import orientation
from cubebot.robot.machine.frames import ROTATION_MOVES, rotation_path

MISALIGN_TOLERANCE_DEG = 12.0     # cube degrees a layer/cube may be off square
HOLD_TOLERANCE_DEG = 15.0         # flipper degrees around hold that count as holding
FLIP_THRESHOLD_FRACTION = 0.75    # of the way from hold to flip: the cube tips over
MIX_QUALITY = 0.3                 # below this spot quality the neighbour bleeds in
CUBE_DISTANCE_CM = 4.0            # proximity reading with a cube on the table
EMPTY_DISTANCE_CM = 60.0          # ... and without one
EMPTY_RGB = (6.0, 8.0, 5.0)       # raw counts with nothing under the sensor
EMPTY_NOISE = 1.5                 # their standard deviation
FACE_COLOURS = {"U": "white", "R": "red", "F": "green", "D": "yellow", "L": "orange", "B": "blue"}
EDGE_RADIUS = 2.0 / 3.0           # of the cube's half-width
CORNER_RADIUS = 2.0 * math.sqrt(2.0) / 3.0

_ROTATION_MOVES = ROTATION_MOVES


def spot_radius(arm_deg, config):
    """The sensor spot's distance from the table axis, in cube half-widths."""
    centre, edge, corner = config.arm_centre_deg, config.arm_edge_deg, config.arm_corner_deg
    if arm_deg <= edge:
        return EDGE_RADIUS * (arm_deg - centre) / float(edge - centre)
    return EDGE_RADIUS + (CORNER_RADIUS - EDGE_RADIUS) * (arm_deg - edge) / float(corner - edge)


class World(object):
    """Motor angles and the cube on the table; see the module docstring.

    state: the cube's facelets (cube frame, URFDLB letters standing for the
    standard colours, see FACE_COLOURS), or None for an empty table.
    sensor_model: as cubebot.robot.hw.sim.sensor_model.SensorModel: reading(colour,
    quality, centre, neighbour, brightness) -> (r, g, b) and brightness().
    rng: a random.Random (noise of the empty table).
    """

    def __init__(self, state, config, sensor_model, rng):
        self.config = config
        self.sensor_model = sensor_model
        self.rng = rng
        self.faults = []
        self.flipper_deg = float(config.flipper_away_deg)
        self.table_deg = 0.0
        self.arm_deg = float(config.arm_park_deg)
        self.tilts = 0
        self.held_turns = 0          # held turns completed (layers released off their start)
        self.slips = []              # (held turn, quarter turns) of the slips made
        self._slip = None            # (held turn, quarter turns) still to come, or None
        self._brightnesses = {}
        self.place_cube(state)

    # -- the cube ---------------------------------------------------------
    def place_cube(self, state):
        """Put a cube (cube-frame facelets) on the table square, or None to empty it."""
        self.n = None if state is None else int(round(math.sqrt(len(state) // 6)))
        self.robot_state = state
        self.where = orientation.IDENTITY
        self.yaw_deg = 0.0
        self.bottom_deg = 0.0
        self.holding = False
        self.tipping = False

    def has_cube(self):
        return self.robot_state is not None

    def state(self):
        """The cube's facelets in the cube frame (the frame it was placed in)."""
        if self.robot_state is None:
            return None
        robot_state = self.robot_state
        if self.holding:        # a held layer counts at its nearest quarter turn
            turns = (-int(round(self.bottom_deg / 90.0))) % 4
            if turns:
                robot_state = apply(robot_state, [Move("D", 1, 1, turns)], self.n)
        return apply(robot_state, invert(rotation_path(self.where)), self.n)

    def is_solved(self):
        return self.robot_state is not None and is_solved(self.state(), self.n)

    def _rotate(self, axis, quarter_turns=1):
        self.robot_state = apply(self.robot_state, [_ROTATION_MOVES[axis]] * (quarter_turns % 4), self.n)
        self.where = orientation.rotate(self.where, axis, quarter_turns)

    def slip_at(self, held_turn, quarters=1):
        """Make held turn number `held_turn` (1 = the next) leave its layer `quarters` off."""
        self._slip = (self.held_turns + held_turn, quarters)

    def _fault(self, message):
        self.faults.append(message)

    # -- motion -----------------------------------------------------------
    def update(self, flipper_deg, table_deg, arm_deg):
        """Take the motors' new calibrated positions (motor degrees)."""
        turned = (table_deg - self.table_deg) / float(self.config.table_gear_ratio)
        self.table_deg = float(table_deg)
        self.arm_deg = float(arm_deg)
        if self.robot_state is None:
            self.flipper_deg = float(flipper_deg)
            return
        if self.holding:
            self.bottom_deg += turned
        else:
            self.yaw_deg += turned
            self._normalise_yaw()
        self._move_flipper(float(flipper_deg))

    def _normalise_yaw(self):
        quarters = int(math.floor((self.yaw_deg + 45.0) / 90.0))
        if quarters:
            self._rotate("y", quarters)
            self.yaw_deg -= 90.0 * quarters

    def _square_up(self, what):
        """The flipper squares the cube; a fault if it was too far off."""
        if abs(self.yaw_deg) > MISALIGN_TOLERANCE_DEG:
            self._fault("{} with the cube {:.0f} degrees off square (limit {:.0f})".format(
                what, self.yaw_deg, MISALIGN_TOLERANCE_DEG))
        self.yaw_deg = 0.0

    def _move_flipper(self, flipper_deg):
        cfg = self.config
        self.flipper_deg = flipper_deg
        threshold = cfg.flipper_hold_deg + FLIP_THRESHOLD_FRACTION * (cfg.flipper_flip_deg - cfg.flipper_hold_deg)
        at_hold = abs(flipper_deg - cfg.flipper_hold_deg) <= HOLD_TOLERANCE_DEG
        if flipper_deg >= threshold and not self.tipping:
            self._release()
            self._square_up("flipped")
            self.tipping = True
        elif self.tipping and flipper_deg < cfg.flipper_hold_deg + HOLD_TOLERANCE_DEG:
            self.tipping = False
            self._rotate("x")
            self.tilts += 1
        if at_hold and not self.tipping and not self.holding:
            self._square_up("held")
            self.holding = True
            self.bottom_deg = 0.0
        elif self.holding and not at_hold:
            self._release()

    def _release(self):
        """The flipper lets go: the bottom layer snaps to a quarter turn."""
        if not self.holding:
            return
        self.holding = False
        quarters = int(round(self.bottom_deg / 90.0))
        left = self.bottom_deg - 90.0 * quarters
        if abs(left) > MISALIGN_TOLERANCE_DEG:
            self._fault("bottom layer released {:.0f} degrees off a quarter turn (limit {:.0f})".format(
                left, MISALIGN_TOLERANCE_DEG))
        # The table turning clockwise seen from above turns the bottom layer
        # like D' (D is clockwise seen from below).
        turns = (-quarters) % 4
        if turns:
            self.held_turns += 1
            if self._slip is not None and self._slip[0] == self.held_turns:
                turns = (turns + self._slip[1]) % 4
                self.slips.append(self._slip)
                self._slip = None
        if turns:
            self.robot_state = apply(self.robot_state, [Move("D", 1, 1, turns)], self.n)
        self.bottom_deg = 0.0

    # -- sensors ----------------------------------------------------------
    def spot(self):
        """(facelet index in robot_state, quality 0..1, neighbour index or None, mix 0..0.5).

        None if the spot is off the cube's top face (or no cube).
        """
        if self.robot_state is None or self.tipping:
            return None
        n = self.n
        half = n / 2.0
        radius = spot_radius(self.arm_deg, self.config) * half
        # The spot at robot (radius, 0); the cube is turned by yaw (and, if
        # it is held, the top is the upper layers: not turned further).
        theta = math.radians(-self.yaw_deg)
        x = radius * math.cos(theta)
        z = radius * math.sin(theta)
        return self._facelet_at(x, z)

    def _facelet_at(self, x, z):
        n = self.n
        half = n / 2.0
        if abs(x) >= half or abs(z) >= half:
            return None
        col = min(n - 1, int(math.floor(x + half)))
        row = min(n - 1, int(math.floor(z + half)))
        dx = x + half - col - 0.5
        dz = z + half - row - 0.5
        quality = 1.0 - 2.0 * max(abs(dx), abs(dz))
        index = FACES.index("U") * n * n + row * n + col
        neighbour, mix = None, 0.0
        if quality < MIX_QUALITY:
            mix = 0.5 * (1.0 - quality / MIX_QUALITY)
            if abs(dx) >= abs(dz):
                ncol, nrow = col + (1 if dx > 0 else -1), row
            else:
                ncol, nrow = col, row + (1 if dz > 0 else -1)
            if 0 <= ncol < n and 0 <= nrow < n:
                neighbour = FACES.index("U") * n * n + nrow * n + ncol
            else:
                neighbour = -1          # off the cube: the table shows
        return index, quality, neighbour, mix

    def read_rgb_raw(self):
        """One RGB-RAW reading of whatever is under the sensor."""
        spot = self.spot()
        if spot is None:
            return self._empty()
        index, quality, neighbour, mix = spot
        n = self.n
        centre = n % 2 == 1 and index == (n * n) // 2 and quality > MIX_QUALITY
        colour = FACE_COLOURS[self.robot_state[index]]
        brightness = self._brightness(index)
        if neighbour is None:
            return self.sensor_model.reading(colour, quality=1.0, centre=centre, brightness=brightness)
        if neighbour >= 0:
            return self.sensor_model.reading(colour, quality=1.0 - mix, centre=centre,
                                             neighbour=FACE_COLOURS[self.robot_state[neighbour]],
                                             brightness=brightness)
        own = self.sensor_model.reading(colour, quality=1.0, centre=centre, brightness=brightness)
        return tuple(int(round((1.0 - mix) * a + mix * b)) for a, b in zip(own, self._empty()))

    def _brightness(self, index):
        """One brightness per facelet spot and face up (the arm's distance from it)."""
        key = (self.where, index)
        value = self._brightnesses.get(key)
        if value is None:
            value = self._brightnesses[key] = self.sensor_model.brightness()
        return value

    def _empty(self):
        """Nothing under the sensor: the dark table, a few counts of noise."""
        return tuple(max(0, int(round(c + self.rng.gauss(0.0, EMPTY_NOISE)))) for c in EMPTY_RGB)

    def read_distance_cm(self):
        return CUBE_DISTANCE_CM if self.robot_state is not None else EMPTY_DISTANCE_CM
