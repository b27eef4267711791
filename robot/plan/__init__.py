"""Moves to actions: the planner (cube-frame moves -> robot-frame mechanism
actions, fastest first), the reorientation routes and the lower bound on a
plan's turning time.

May import cubebot.robot.machine, cubebot.robot.errors and cubebot.solver.
"""
