"""Hardware: the interface every backend provides, and the backends.

  interface       Hardware, Motor, ColorSensor, ProximitySensor, Clock (units: degrees, deg/s, s)
  ev3/            python-ev3dev2 (the real brick, or the virtual brick's sysfs)
  sim/            the simulated world: motors, sensor model, clock, the cube on the table
  virtual_brick/  a fake ev3dev sysfs tree with motor physics, for the real ev3dev2

Motors and sensors only: may import cubebot.robot.errors, cubebot.robot.machine
(the simulated world turns the cube as the mechanism does), cubebot.robot.colour
(the colour scheme and rescan spots of the simulated sensor) and cubebot.solver;
never a job, plan, link, UI or CLI module.
"""
