"""The classroom view: the robot's run on a projector, in a browser, offline.

board (events -> whole snapshots), sources (the robot in this process or over
a link), runlog (the lesson's runs, JSON + CSV), server (http.server: the page,
Server-Sent Events, commands behind an Origin check) and static/ (the page's
own HTML, CSS and JavaScript, shipped as package data). See docs/classroom.md.
"""

DEFAULT_HOST = "127.0.0.1"     # the page is served on this machine only, unless asked
DEFAULT_PORT = 8045            # TCP port of the page
