"""cubebot's robot side: drives the MINDCUB3R mechanism, scans, plans, executes.

Python 3.5 (the EV3 brick). Heavy imports (ev3dev2, kociemba) happen inside
the functions that need them, never at import time.
"""

__version__ = "0.1.0"
