"""Install cubebot: the import package `cubebot` and the `cubebot` command.

The source tree keeps its folders at the top (robot/, solver/, tables/); they
install as cubebot.robot, cubebot.solver and cubebot.tables, so that nothing
named `robot`, `solver` or `tables` lands in site-packages (Robot Framework
imports as `robot`, PyTables as `tables`). tables/manifest.json and the classroom
page's files (robot/ui/classroom/static) are package data.
Runs on the brick's CPython 3.5.3 as well as on a laptop.
"""

import sys

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

# The compiled search core (solver/_core.c): optional. Where no C compiler
# works, the install goes on without it and the solver runs its pure-Python
# path (cubebot.solver.search.core_path() says which one runs).
CORE = Extension("cubebot.solver._core", ["solver/_core.c"], optional=True)
# The compiled centre-staging search (solver/_stage.c): optional in the same way
# (cubebot.solver.maskstage runs its stages in Python, or the big cubes keep their
# join stages, without it).
STAGE = Extension("cubebot.solver._stage", ["solver/_stage.c"], optional=True)
# The compiled joint colour search (robot/colour/_assign.c): optional in the same way
# (cubebot.robot.colour.joint runs the same search in Python without it).
ASSIGN = Extension("cubebot.robot.colour._assign", ["robot/colour/_assign.c"], optional=True)
# The compiled loops of the 5x5x5's phase 2 (solver/_solve5.c): optional in the same
# way (cubebot.solver.solve5 runs the same loops in Python without it).
SOLVE5 = Extension("cubebot.solver._solve5", ["solver/_solve5.c"], optional=True)
# The compiled two-phase 3x3x3 search (solver/_finish3.c): optional in the same way (the
# reduced cubes' 3x3x3 finish stays kociemba's without it; cubebot.solver.twophase).
FINISH3 = Extension("cubebot.solver._finish3", ["solver/_finish3.c"], optional=True)


class OptionalBuildExt(build_ext):
    """build_ext that warns, instead of failing the install, when the core does not compile."""

    def run(self):
        try:
            build_ext.run(self)
        except Exception as exc:       # no compiler at all: distutils raises on setup
            self._warn(exc)

    def build_extension(self, ext):
        try:
            build_ext.build_extension(self, ext)
        except Exception as exc:       # a compiler that fails on this file
            self._warn(exc)

    @staticmethod
    def _warn(exc):
        sys.stderr.write("warning: the compiled solver core was not built ({}); the solver "
                         "runs its pure-Python path\n".format(str(exc).splitlines()[0] if str(exc)
                                                              else type(exc).__name__))

# Top-level folder of the source tree -> its import name.
FOLDERS = {"robot": "cubebot.robot", "solver": "cubebot.solver", "tables": "cubebot.tables"}


def packages():
    """Every import package, under its cubebot.* name, and where its folder is."""
    names = ["cubebot"]
    where = {"cubebot": "cubebot"}
    for folder, name in sorted(FOLDERS.items()):
        where[name] = folder
        names.append(name)
        for sub in find_packages(folder):
            names.append(name + "." + sub)
            where[name + "." + sub] = folder + "/" + sub.replace(".", "/")
    return names, where


PACKAGES, PACKAGE_DIR = packages()

setup(
    name="cubebot",
    version="0.1.0",
    description="Scan, solve and turn a Rubik's cube with a LEGO MINDSTORMS EV3 (MINDCUB3R)",
    long_description=open("README.md").read() if __import__("os").path.exists("README.md") else "",
    packages=PACKAGES,
    package_dir=PACKAGE_DIR,
    package_data={"cubebot.tables": ["manifest.json"],
                  "cubebot.robot.ui.classroom": ["static/*.html", "static/*.js", "static/*.css"]},
    ext_modules=[CORE, STAGE, SOLVE5, FINISH3, ASSIGN],
    cmdclass={"build_ext": OptionalBuildExt},
    python_requires=">=3.5",
    install_requires=[
        "kociemba",
        "pyserial",
        # Pure Python; the brick has it from Debian (python3-ev3dev2).
        "python-ev3dev2==2.1.0.post1",
    ],
    extras_require={
        # The brick app's screens (and the virtual brick's LCD); the brick has
        # python3-pil from Debian already.
        "ev3": ["Pillow"],
        "test": [
            "pytest<7.1; python_version < '3.7'",
            "pytest; python_version >= '3.7'",
            # property tests; 6.31 is the last line that installs on CPython 3.6
            "hypothesis>=6.14,<6.32; python_version < '3.7'",
            # 6.155 is the last release with a pure-Python wheel: later ones are compiled
            # (Rust) wheels, and on 32-bit ARM (armel, the brick's ABI) their sdist needs a
            # Rust toolchain pip cannot fetch
            "hypothesis>=6.50,<6.156; python_version >= '3.7'",
            "Pillow",
            # the classroom page's end-to-end test drives Debian's chromium (apt) through
            # Playwright's Python API; Playwright has no release for CPython 3.6
            "playwright; python_version >= '3.7'",
        ],
        "lint": ["vermin", "ruff"],
    },
    entry_points={"console_scripts": ["cubebot=cubebot.robot.cli.main:main"]},
    classifiers=[
        "Programming Language :: Python :: 3.5",
        "Operating System :: POSIX :: Linux",
    ],
)
