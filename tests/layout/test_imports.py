"""The import graph of cubebot, read from the source: no circles, no arrow up.

Imports inside functions count as much as those at the top of a file.
"""

import os

from tests.layout.imports import ROOT, cycles, graph, imported_names, modules

R = "cubebot.robot."
# What each part of the robot may import besides itself, the robot's leaves
# (errors, and inputs: the rules for values from outside), its package face
# (cubebot.robot) and the solver. The flow runs down this list:
# cli > tools, ui > job > plan, colour, hw > machine.
ALLOWED = {
    "errors": set(),
    "inputs": set(),
    "machine": set(),
    "colour": set(),
    "plan": {"machine"},
    "hw": {"machine", "colour"},
    "link": set(),
    "job": {"hw", "machine", "colour", "plan"},
    "ui": {"job", "hw", "machine", "colour", "plan", "link"},
    "tools": {"job", "hw", "machine", "colour", "plan"},
    "cli": {"tools", "ui", "job", "link", "hw", "machine", "colour", "plan"},
}


def _part(module):
    return module[len(R):].split(".")[0] if module.startswith(R) else None


def test_the_graph_is_read_from_every_module():
    mods = modules()
    assert "cubebot.robot.cli.main" in mods and "cubebot.solver.solve4.wings" in mods
    edges = graph()
    # an import inside a function is an arrow too
    assert "cubebot.solver.solve4.reduce" in edges["cubebot.solver.solve4"]
    assert "cubebot.robot.colour.resolve" in edges["cubebot.robot.colour.calibration"]


def test_no_import_circles():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}) == [["a", "b", "c"]]


def test_the_solver_imports_nothing_of_the_robot():
    bad = [(a, b) for a, targets in graph().items() if a.startswith("cubebot.solver")
           for b in targets if b.startswith("cubebot.robot")]
    assert bad == []


def test_no_arrow_up_in_the_robot():
    bad = []
    for a, targets in graph().items():
        part = _part(a)
        if part is None:
            continue
        assert part in ALLOWED, "{} is in no known part of the robot".format(a)
        for b, line in targets.items():
            other = _part(b)
            if other is None or other in (part, "errors", "inputs") or other in ALLOWED[part]:
                continue
            bad.append("{}:{} imports {}".format(a, line, b))
    assert bad == []


def test_nothing_imports_the_old_top_level_names():
    """Every import goes through `cubebot`: nothing installs or imports top-level robot/solver/tables."""
    bad = []
    for module, (path, is_package) in modules().items():
        for name, line in imported_names(path, module, is_package):
            if name.split(".")[0] in ("robot", "solver", "tables"):
                bad.append("{}:{} {}".format(os.path.relpath(path, ROOT), line, name))
    assert bad == []
