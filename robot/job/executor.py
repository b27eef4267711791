"""Runs a plan's actions on a Mechanism: stoppable, safe on faults, checked.

`Executor.run(plan)` performs each cubebot.robot.machine.actions Action in order (flip ->
Mechanism.flip, rotate q -> turn_table, twist q -> turn_bottom). Before each
action it looks at the stop flag (a threading.Event): when set, the robot is
left safe (flipper released) and Stopped is raised. Any error on the way
also releases the flipper before it propagates.

With a simulated world (`world`, cubebot.robot.hw.sim.world.World) the executor checks
the cube: after the run, that the cube-frame state is the one the plan
promises (start state turned by plan.moves); in debug mode after every
action, too (state, orientation, no mechanism faults). A 2x2x2 plan may
turn the opposite face instead of a move's own (the same up to a whole-cube
rotation, which the planner tracks as a relabel), so for even N states are
compared up to a rotation and the orientation is not compared.
"""

from cubebot.solver.moves import apply

from cubebot.robot.machine import actions as act
from cubebot.robot.errors import RobotError, check_stop
from cubebot.robot.machine.frames import rotation_path
from cubebot.robot.machine.orientation import all_orientations


class CheckFailed(RobotError):
    """The simulated cube is not in the state the plan promised."""


class Executor(object):
    def __init__(self, mechanism, stop=None, emit=None, world=None, debug=False):
        self.mech = mechanism
        self.stop = stop
        self.emit = emit
        self.world = world
        self.debug = debug

    def _perform(self, action):
        if action.kind == act.FLIP:
            for _ in range(action.quarter_turns):
                self.mech.flip()
        elif action.kind == act.ROTATE:
            self.mech.turn_table(act.table_quarters(action.quarter_turns))
        elif action.kind == act.TWIST:
            self.mech.turn_bottom(act.table_quarters(action.quarter_turns))
        else:
            raise RobotError("unknown action kind {!r}: use flip, rotate or twist".format(action.kind))

    def run(self, plan, start_state=None, start_where=None, release=True):
        """Perform `plan`; return True if the world (if any) ends as promised.

        start_state: the cube-frame state before the run (for the checks);
        start_where: the orientation before it (default: the world's).
        release: leave the cube free at the end (False: the flipper stays where
        the last action left it, for a check that flips next; any error still
        releases).
        """
        if start_state is None and self.world is not None:
            start_state = self.world.state()
        where = start_where if start_where is not None else (
            self.world.where if self.world is not None else None)
        expected = start_state
        total = len(plan.moves)
        done = 0
        try:
            for i, action in enumerate(plan.actions):
                check_stop(self.stop, "after {} of {} moves".format(done, total))
                self._perform(action)
                if where is not None:
                    where = act.next_where(where, action)
                if action.kind == act.TWIST:
                    if expected is not None:
                        expected = apply(expected, [plan.moves[done]])
                    done += 1
                    if self.emit is not None:
                        self.emit("move_progress", {"done": done, "total": total})
                if self.debug:
                    self._check(expected, where, "after action {} ({})".format(
                        i + 1, act.format_action(action)))
            if release:
                self.mech.release()
        except BaseException:
            self.mech.release()
            raise
        if self.world is None or expected is None:
            return True
        return same_cube(self.world.state(), expected) and not self.world.faults

    def _check(self, expected, where, when):
        world = self.world
        if world is None:
            return
        if world.faults:
            raise CheckFailed("mechanism fault {}: {}".format(when, world.faults[0]))
        even = world.n % 2 == 0
        if where is not None and not even and world.where != where:
            raise CheckFailed("cube orientation {} {}: expected {}".format(world.where, when, where))
        if expected is not None and not same_cube(world.state(), expected):
            raise CheckFailed("cube state differs from the plan {}".format(when))


def same_cube(state, expected):
    """True if `state` is `expected`, exactly (odd N) or turned as a whole (even N)."""
    if state == expected:
        return True
    n = int(round((len(state) // 6) ** 0.5))
    if n % 2 == 1:
        return False
    return any(apply(expected, rotation_path(w), n) == state for w in all_orientations())
