"""Install cubebot: the import package `cubebot` and the `cubebot` command.

The source tree keeps its folders at the top (robot/, solver/, tables/); they
install as cubebot.robot, cubebot.solver and cubebot.tables, so that nothing
named `robot`, `solver` or `tables` lands in site-packages (Robot Framework
imports as `robot`, PyTables as `tables`). tables/manifest.json and the classroom
page's files (robot/ui/classroom/static) are package data.
Runs on the brick's CPython 3.5.3 as well as on a laptop.
"""

from setuptools import find_packages, setup

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
