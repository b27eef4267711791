"""The virtual brick's LCD: every new frame becomes a PNG file.

Files are named NNN-<screen>.png in the order shown (<screen> from the
image's info["screen"], as cubebot.robot.ui.screens sets it). A frame identical to the
previous one is not saved again.
"""

import os

from cubebot.robot.hw.interface import Screen


class PngScreen(Screen):
    """A hardware.Screen that saves what it is shown under `directory`."""

    def __init__(self, directory):
        self.directory = directory
        if not os.path.isdir(directory):
            os.makedirs(directory)
        self.count = 0
        self.saved = []
        self._last = None

    def show(self, image):
        data = image.tobytes()
        if data == self._last:
            return
        self._last = data
        self.count += 1
        name = "{:03d}-{}.png".format(self.count, image.info.get("screen", "screen"))
        path = os.path.join(self.directory, name)
        image.save(path)
        self.saved.append(path)
