"""`python -m cubebot.robot.cli ARGS`: the same as the `cubebot` command."""

import sys

from cubebot.robot.cli.main import main

sys.exit(main())
