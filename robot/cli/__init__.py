"""The `cubebot` subcommands, one module each.

Each module defines `register(subparsers)`, which adds its parser and sets
`run=<function(args) -> int>` as a default. Modules import nothing heavy at
import time; the work happens inside `run`.
"""
