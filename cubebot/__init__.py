"""cubebot: scan, solve and turn a Rubik's cube with a LEGO MINDSTORMS EV3 (MINDCUB3R).

The import name of the whole project. Its packages:
  cubebot.solver  the cube model and the solvers (imports nothing of the robot)
  cubebot.robot   the MINDCUB3R: hardware, mechanism, colours, plans, jobs, link, UI, CLI
  cubebot.tables  the table manifest (package data); the tables themselves live
                  in $CUBEBOT_TABLES, a source tree's tables/ or the per-user data
                  directory (cubebot.solver.store.tables_dir)

In a source tree (a git checkout, or the copy deploy.sh puts on the brick)
this folder holds only this file: `robot/`, `solver/` and `tables/` sit at the
top of the tree, and the package path below reaches them there. An installed
wheel holds them inside this package, so nothing is added.
"""

import os

__version__ = "0.1.0"

_HERE = os.path.dirname(os.path.abspath(__file__))
# The top of the source tree, when this file sits in one (else None).
SOURCE_TREE = None
if not os.path.isdir(os.path.join(_HERE, "solver")):
    SOURCE_TREE = os.path.dirname(_HERE)
    __path__.append(SOURCE_TREE)  # noqa: F821 (a package's __path__)
