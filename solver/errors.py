"""The solver's exception tree.

CubeError
  InvalidCube (also a ValueError): the input cannot be a cube at all, or a
      piece on it cannot exist (wrong length, symbol counts, a corner whose
      colours belong to no piece, a twisted corner, odd parity, ...).
  UnsolvableCube: the input is well formed, but no solver could solve it
      within its limits (for example a search that ran out of budget).
  SolverFailed: the solver itself failed on a cube that may well be fine (a
      search child died, was killed or ran out of memory; a solution that does
      not solve the cube); the message names what failed. Not an impossible cube.
  NoSolver (also a ValueError): the cube may be fine, but no engine is
      registered for its size (cubebot.solver.api.ENGINES).
  TableError: an on-disk table is missing or corrupt; the message names the
      command that fixes it.

Every message is one line that names the bad value and the limit.
"""


class CubeError(Exception):
    """Base class for every error the solver raises on purpose."""


class InvalidCube(CubeError, ValueError):
    """The state is not a valid cube; the message says which part is wrong."""


class UnsolvableCube(CubeError):
    """The state is valid but could not be solved within the given limits."""


class SolverFailed(CubeError):
    """The solver failed (a dead child, no memory, a wrong answer); the message names what failed."""


class NoSolver(CubeError, ValueError):
    """No engine solves cubes of this size; the message lists the sizes that have one."""


class TableError(CubeError):
    """A table file is missing, truncated or fails its checksum."""
