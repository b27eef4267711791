"""The python-ev3dev2 backend of the hardware interface (the real brick, or a virtual brick)."""
