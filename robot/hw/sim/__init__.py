"""The simulated robot: a world model of MINDCUB3R with the cube on its table, simulated motors, sensor and clock."""
