"""One run: scanning, executing a plan, the pipeline (scan -> resolve -> solve ->
plan -> execute, emitting events), the RobotService shared by the app and the link,
and the one place that builds a robot of any kind (robots).

May import hw, machine, colour, plan, errors and cubebot.solver; never link, ui, tools or cli.
"""
