"""The import graph of cubebot, read from the source with ast (imports inside functions included)."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDERS = {"robot": "cubebot.robot", "solver": "cubebot.solver", "tables": "cubebot.tables", "cubebot": "cubebot"}


def modules():
    """Dotted module name -> (file path, is a package __init__) for every module of cubebot."""
    found = {}
    for folder, prefix in FOLDERS.items():
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, folder)):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            rel = os.path.relpath(dirpath, os.path.join(ROOT, folder))
            parts = [prefix] + ([] if rel == "." else rel.split(os.sep))
            for name in filenames:
                if not name.endswith(".py"):
                    continue
                if name == "__init__.py":
                    found[".".join(parts)] = (os.path.join(dirpath, name), True)
                else:
                    found[".".join(parts + [name[:-3]])] = (os.path.join(dirpath, name), False)
    return found


def imported_names(path, module, is_package):
    """Every absolute dotted name that the file imports, anywhere in it (with line numbers)."""
    with open(path) as fh:
        tree = ast.parse(fh.read(), path)
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            for alias in node.names:
                yield source + "." + alias.name, node.lineno   # a module, or a name in one
                yield source, node.lineno


def graph():
    """Module -> {imported cubebot module: first line}, over every module of cubebot."""
    mods = modules()
    edges = {}
    for module, (path, is_package) in mods.items():
        targets = {}
        for name, line in imported_names(path, module, is_package):
            if name in mods and name != module:
                targets.setdefault(name, line)
        edges[module] = targets
    return edges


def cycles(edges):
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out
