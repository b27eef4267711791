"""The MINDCUB3R model: config (ports, gearing, speeds, positions, settle times), the
mechanism's verbs on top of a Hardware, whole-cube orientation, cube/robot frames,
mechanism actions and the time model (seconds per action).

May import cubebot.robot.errors, cubebot.robot.hw.interface and cubebot.solver.
"""
