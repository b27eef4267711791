"""The `cubebot` command line: `main` (the entry point) and one module per subcommand.

main.py holds `main(argv=None) -> int`, the console script, and the dispatch;
each other module defines `register(subparsers)`, which adds its parser and
sets `run=<function(args) -> int>` as a default. Modules import nothing heavy at
import time; the work happens inside `run`.

The top of the flow: may import anything in cubebot.robot and cubebot.solver;
nothing imports it (cubebot.robot.cli.main's UsageError and exit codes included).
"""
