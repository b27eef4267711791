"""cubebot's embedded solver: NxNxN cube model, validation and solvers.

Pure Python 3.5; the only third-party import is `kociemba`, in the 3x3x3 engine.
Nothing here is imported or computed until it is used.
"""

__version__ = "0.1.0"
