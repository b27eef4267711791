"""The simulated MINDCUB3R: the world (cube on the table), simulated motors, sensor, clock.

Built into a robot by cubebot.robot.job.robots (the one place that builds robots)."""
