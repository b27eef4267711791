"""Draw the app's screens from a run's events (for runs without the app).

`ScreenFeed(screen, size)` is an emit callback for cubebot.robot.job.pipeline.run_job:
it follows the events with the app's View and shows the working screen when
the stage changes or the progress passes another STEPS-th of the way;
`finish(result)` shows the result (or error) screen. Used by
`cubebot demo --virtual-brick --screenshots DIR`.
"""

from cubebot.robot.ui import screens
from cubebot.robot.ui.app import View

STEPS = 4          # progress screens per stage


class ScreenFeed(object):
    def __init__(self, screen, size):
        self.screen = screen
        self.size = size
        self.view = View()
        self._last = None

    def __call__(self, name, payload):
        self.view.on_event(name, payload)
        view = self.view
        step = view.done * STEPS // view.total if view.total else 0
        key = (view.stage, step, view.moves)
        if key != self._last:
            self._last = key
            self.screen.show(screens.working_screen(self.size, view.stage, view.done, view.total,
                                                    view.moves, view.facelets))

    def finish(self, result):
        if result.get("solved"):
            self.screen.show(screens.result_screen(self.size, True, len(result.get("moves", [])),
                                                   result.get("total_seconds"), result.get("state")))
        else:
            self.screen.show(screens.error_screen(self.size, result.get("error") or "not solved"))
