"""The platform reaches a game only through the registry, and its modules import one another in one
direction only (no cycle, not even through an import made at call time)."""
from pathlib import Path

from game import games

from .imports import ROOT, cycle, graph

REGISTRY = games.__name__
# The interface games are written against: its classes, and the printing rules and platform lines
# shared by the parts games draw in Python (which import nothing of any game).
INTERFACE = (f"{REGISTRY}.base", f"{REGISTRY}.markup")
# 三国 is not in the registry (its 3–33 seats and game master sit beside ``game.Match``, not in it:
# docs/three-kingdoms-site.md): its site app reaches its engine, and nothing else of a game.
SANGUO = "sanguo"
SANGUO_ENGINE = f"{REGISTRY}.three_kingdoms.engine"


def is_platform(module):
    return not module.startswith(REGISTRY + ".")


def test_no_module_outside_game_games_imports_a_game():
    """Not a game's engine, bots, views or templates' code: only the registry and the interface."""
    wrong = [
        f"{module}:{line} imports {target}"
        for module, targets in graph().items()
        if is_platform(module) and module != REGISTRY
        for target, line in targets.items()
        if target.startswith(REGISTRY + ".") and target not in INTERFACE
        and not (module.startswith(SANGUO + ".") and target == SANGUO_ENGINE)
    ]
    assert not wrong, wrong


def test_the_interface_imports_no_game():
    edges = graph()
    reached = [f"{module} imports {target}" for module in INTERFACE for target in edges[module]
               if target.startswith(REGISTRY + ".") and target not in INTERFACE]
    assert not reached, reached


def test_only_the_sanguo_app_reaches_the_three_kingdoms_engine_and_nothing_reaches_the_app():
    """The platform (but the project's wiring) knows nothing of 三国's site app (it hooks itself onto the sweep and the notices),
    so the app can change without the platform, as a game in the registry can."""
    edges = graph()
    reaching = sorted(m for m, targets in edges.items() if SANGUO_ENGINE in targets and not m.startswith(REGISTRY + "."))
    assert reaching and all(m.startswith(SANGUO + ".") for m in reaching), reaching
    # The project's wiring (settings, urls, asgi) routes its sockets, as it does every app's.
    into_app = [f"{m} imports {t}" for m, targets in edges.items()
                if not (m == SANGUO or m.startswith((SANGUO + ".", "aquawar_site.")))
                for t in targets if t == SANGUO or t.startswith(SANGUO + ".")]
    assert not into_app, into_app


def test_no_game_imports_the_platform():
    """A game's package uses Django and the interface, never a platform module: so it can be moved,
    and so a cycle can never run through it and the registry."""
    wrong = [
        f"{module}:{line} imports {target}"
        for module, targets in graph().items()
        if not is_platform(module)
        for target, line in targets.items()
        if is_platform(target) or target == REGISTRY
    ]
    assert not wrong, wrong


def test_the_modules_import_each_other_in_one_direction():
    edges = graph()
    found = cycle(edges)
    assert found is None, " -> ".join(found)


def test_the_graph_sees_imports_made_at_call_time():
    """The checks above are only as good as the graph: it must hold an import made in a function
    (the bot socket imports the runner that way nowhere now, but services once did)."""
    edges = graph()
    assert "game.programs.runner" in edges["game.apps"]  # imported inside ``GameConfig.ready``
    assert f"{REGISTRY}.aquawar.game" in edges[REGISTRY]


def test_every_source_file_is_read():
    sources = {p for p in (ROOT / "game").rglob("*.py")}
    assert len(graph()) >= len(sources) > 50
    assert all(Path(p).exists() for p in sources)
