"""Which tests run the same whatever the setup (embedded: SQLite and the in-memory channel layer;
production: PostgreSQL and Redis), so that CI's production leg may leave them to the embedded one.

A test is setup-free when it uses no database (no ``django_db`` mark, no database fixture) and its
module, the ``conftest.py`` files beside it (not the top one: its autouse fixtures only assign
settings) and everything they import, however indirectly and wherever in a file the import is,
import nothing that can reach a database, a cache or a channel layer: Django, Channels and the
drivers; nor do they name ``manage.py`` (a process they start would run Django with the leg's
environment). The pure engines and their bots are such code (tests/architecture checks they stay so);
the game registry is not, since it imports each game's Django side when asked.
"""
import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
# Importing any of these (or a module of theirs) makes a module depend on the setup.
SETUP_PACKAGES = frozenset(
    {"django", "channels", "channels_redis", "daphne", "psycopg", "psycopg2", "redis", "pytest_django", "playwright"}
)
# Loads each game's Django side when called, through ``importlib``, which no ``import`` shows. Only
# importing it by name counts: as the parent package of an engine it is loaded but never called.
DYNAMIC_LOADERS = frozenset({"game.games"})
DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_setup", "live_server"})


def _file_of(module, root):
    """The project file of dotted ``module``, or None when it is not the project's."""
    base = root.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _name_of(path, root):
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path, root):
    """Every module ``path`` imports (dotted names), ``from a import b`` giving both ``a`` and ``a.b``."""
    name = _name_of(path, root)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


@cache
def module_is_setup_free(path, root=ROOT):
    """True if ``path`` and all it imports (parent packages included) never import setup code;
    ``root`` is where the project's top-level packages are."""
    seen, todo = set(), [Path(path)]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if "manage.py" in current.read_text():
            return False
        for module in _imports(current, root):
            if module.split(".")[0] in SETUP_PACKAGES or module in DYNAMIC_LOADERS:
                return False
            parts = module.split(".")
            # Importing a.b.c runs a/__init__.py and a/b/__init__.py first.
            for end in range(1, len(parts) + 1):
                found = _file_of(".".join(parts[:end]), root)
                if found is not None:
                    todo.append(found)
    return True


def is_setup_free(item):
    if item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(item.fixturenames):
        return False
    path = Path(item.path)
    conftests = [folder / "conftest.py" for folder in path.parents if TESTS in folder.parents]
    return all(module_is_setup_free(p) for p in [path, *conftests] if p.is_file())
