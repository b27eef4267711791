"""The link, transport only: line-delimited JSON over pyserial (framing,
protocol, the serve side `server`, the remote side `client`, a pty null-modem)
and over TCP behind a pairing code (`tcp`).

The robot's service is passed in (a RobotService, cubebot.robot.job.service);
may import cubebot.robot.errors and cubebot.solver only, never a job, UI or CLI
module (the `remote watch` view and its timings live in cubebot.robot.ui).
"""
