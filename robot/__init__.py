"""cubebot's robot side (cubebot.robot): drives the MINDCUB3R mechanism, scans, plans, executes.

Subpackages, along the flow (docs/architecture.md has the rules and the tree):
  machine  the MINDCUB3R model      hw     Hardware and its backends
  colour   readings -> facelets     plan   moves -> actions
  job      one run; builds robots   link   the serial link (transport)
  ui       app, screens, watch      tools  diag, calibrate
  cli      the `cubebot` command
errors.py (the exception tree) may be imported by all of them.

Python 3.5 (the EV3 brick). Heavy imports (ev3dev2, kociemba) happen inside
the functions that need them, never at import time.
"""

__version__ = "0.1.0"
