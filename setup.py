"""Install cubebot: the packages `solver` and `robot` and the `cubebot` command.

Runs on the brick's CPython 3.5.3 as well as on a laptop.
"""

from setuptools import find_packages, setup

setup(
    name="cubebot",
    version="0.1.0",
    description="Scan, solve and turn a Rubik's cube with a LEGO MINDSTORMS EV3 (MINDCUB3R)",
    long_description=open("README.md").read() if __import__("os").path.exists("README.md") else "",
    packages=find_packages(include=["solver", "solver.*", "robot", "robot.*"]),
    python_requires=">=3.5",
    install_requires=[
        "kociemba",
        "pyserial",
    ],
    extras_require={
        # The brick has python3-ev3dev2 (and PIL) from Debian already.
        "ev3": ["python-ev3dev2==2.1.0.post1", "Pillow"],
        "test": [
            "pytest<7.1; python_version < '3.7'",
            "pytest; python_version >= '3.7'",
            # property tests; 6.31 is the last line that installs on CPython 3.6
            "hypothesis>=6.14,<6.32; python_version < '3.7'",
            "hypothesis>=6.50,<7; python_version >= '3.7'",
            "Pillow",
        ],
        "lint": ["vermin", "ruff"],
    },
    entry_points={"console_scripts": ["cubebot=robot.cli:main"]},
    classifiers=[
        "Programming Language :: Python :: 3.5",
        "Operating System :: POSIX :: Linux",
    ],
)
