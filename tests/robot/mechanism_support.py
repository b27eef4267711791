"""Shared check for mechanism tests: random flips, table turns and held turns
must move the world's cube exactly as the equivalent cube-frame moves do."""

from cubebot.robot.machine import orientation
from cubebot.solver.moves import Move, apply


def check_random_actions(mech, world, start, n, rng, steps):
    """Drive `steps` random actions; after each, the world matches the model."""
    expected, where = start, orientation.IDENTITY
    for _ in range(steps):
        kind, q = rng.choice(["flip", "rotate", "twist"]), rng.choice([1, 2, 3])
        if kind == "flip":
            mech.flip()
            where = orientation.rotate(where, "x")
        elif kind == "rotate":
            mech.turn_table(q)
            where = orientation.rotate(where, "y", q)
        else:
            mech.turn_bottom(q)
            expected = apply(expected, [Move(orientation.face_at(where, "D"), 1, 1, q)], n)
        assert world.where == where
        assert world.state() == expected
    mech.release()
    assert world.state() == expected and not world.faults
