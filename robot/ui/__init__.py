"""What people see and press: the brick app and its screens, the keys from a
terminal, the terminal net of the cube, screens drawn from events, and the
`remote watch` view and loop.

May import job, colour, plan, machine, link (the watch loop reads events from a
link client), hw (the screen/buttons of a backend) and cubebot.solver; never cli.
"""
