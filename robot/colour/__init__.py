"""Readings to facelets: resolve (the whole job), the raw-count model and the Lab
model, colour arithmetic (space), the colour scheme, calibration profiles, the
joint assignment of pieces, targeted rescans and scan files.

May import cubebot.robot.errors and cubebot.solver only: readings in, facelet strings out.
"""
