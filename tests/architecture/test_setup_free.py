"""CI's production leg leaves out the tests that would run the same there (tests/setup_free.py): the
sorting must never let a test that can reach the database, the cache or a channel layer go."""
import textwrap

from tests.setup_free import ROOT, module_is_setup_free


def project(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def test_an_engine_test_is_setup_free_and_a_socket_test_is_not():
    assert module_is_setup_free(ROOT / "tests/engine/test_rounds.py")
    assert not module_is_setup_free(ROOT / "tests/game/test_limits.py")


def test_django_imported_through_a_helper_in_a_function_makes_the_test_depend_on_the_setup(tmp_path):
    root = project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/pure.py": "import json\n",
        "pkg/helper.py": "def later():\n    from django.db import connection\n",
        "tests/__init__.py": "",
        "tests/test_pure.py": "from pkg import pure\n",
        "tests/test_indirect.py": "from pkg.pure import x\nfrom pkg import helper\n",
    })
    assert module_is_setup_free(root / "tests/test_pure.py", root)
    assert not module_is_setup_free(root / "tests/test_indirect.py", root)


def test_a_parent_package_that_imports_a_driver_makes_its_modules_depend_on_the_setup(tmp_path):
    root = project(tmp_path, {
        "pkg/__init__.py": "import redis\n",
        "pkg/engine.py": "",
        "tests/test_engine.py": "from pkg.engine import run\n",
    })
    assert not module_is_setup_free(root / "tests/test_engine.py", root)


def test_the_game_registry_by_name_and_a_manage_py_process_depend_on_the_setup(tmp_path):
    root = project(tmp_path, {
        "game/__init__.py": "",
        "game/games/__init__.py": "from importlib import import_module\n",
        "game/games/aquawar/__init__.py": "",
        "game/games/aquawar/engine.py": "",
        "tests/test_engine.py": "from game.games.aquawar import engine\n",
        "tests/test_registry.py": "from game import games\n",
        "tests/test_command.py": "import subprocess\nsubprocess.run(['python', 'manage.py', 'check'])\n",
    })
    assert module_is_setup_free(root / "tests/test_engine.py", root)
    assert not module_is_setup_free(root / "tests/test_registry.py", root)
    assert not module_is_setup_free(root / "tests/test_command.py", root)
