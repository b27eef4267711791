"""Maintenance tools: `cubebot diag` (the robot's health) and `cubebot calibrate`
(positions and a colour profile).

May import job, colour, machine, hw, errors and cubebot.solver; never cli.
"""
