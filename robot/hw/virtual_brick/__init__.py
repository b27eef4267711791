"""A virtual EV3 brick: a fake sysfs tree with motor physics, driven through the real python-ev3dev2."""
