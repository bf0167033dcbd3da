"""The project's import graph, read from the source with ``ast``: every ``import`` counts, those
inside functions too (an import put off until call time is still a dependency, and a cycle through
one is still a cycle), and the registry (``game.games``) depends on each game it names."""
import ast
from pathlib import Path

from game import games

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("aquawar_site", "game", "lobby", "ratings", "tournaments", "notify", "sanguo")


def modules():
    """{module name: path} of every Python module of the project."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _resolve(node, name, is_package):
    if node.level == 0:
        return node.module
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(name, path, known):
    """The project modules that module ``name`` imports, each with the line that imports it."""
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(node, name, is_package)
            # ``from package import module`` imports the module; ``from module import name`` the module.
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]
        else:
            continue
        found += [(target, node.lineno) for target in targets if target in known]
    if name == games.__name__:
        found += [(f"{name}.{game}.game", 0) for game in games.NAMES]
    return found


def graph():
    """{module: {imported module: line}}."""
    known = modules()
    return {name: dict(imports_of(name, path, known)) for name, path in known.items()}


def cycle(edges):
    """One import cycle as a list of modules (first == last), or None."""
    state = {}
    stack = []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if target == node:
                continue
            if state.get(target) == "open":
                return stack[stack.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None
