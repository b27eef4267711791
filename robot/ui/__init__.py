"""What people see and press: the brick app and its screens, the keys from a
terminal, the terminal net of the cube, screens drawn from events, and the
`remote watch` view and loop, and the classroom's browser view (classroom/).

May import job, colour, plan, machine, link, hw (the buttons of a backend),
errors and cubebot.solver; never cli.
"""
