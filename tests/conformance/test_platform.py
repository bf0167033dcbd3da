"""Every registered game provides the whole interface, is installed with its templates and static
files, can be chosen when a match is created; and no platform file names anything of it."""
import inspect
import re

import pytest
from django.apps import apps
from django.contrib.staticfiles import finders
from django.template.loader import get_template

from game import games, services
from game.games.base import Drawn, Game, Presentation
from game.models import Match
from tests.architecture.imports import ROOT

# Where the platform lives: its code, templates, styles and scripts (not the games' packages).
PLATFORM_FILES = ("aquawar_site", "game", "lobby", "templates", "static")
SUFFIXES = (".py", ".html", ".js", ".css")


# Members a game may leave as the interface has them: a game without a "How to play" page yet has
# no link to one (the page itself is checked below when there is one).
OPTIONAL = ("how_to_play", "how_to_play_context")


def members(base):
    return [name for name, _value in inspect.getmembers(base) if not name.startswith("_") and name not in OPTIONAL]


@pytest.mark.parametrize("base", [Game, Presentation])
def test_the_game_provides_every_member_of_the_interface(kit, base):
    provider = kit.game if base is Game else kit.game.web
    for name in members(base):
        value = getattr(provider, name)
        assert value is not None, name
        if callable(value) and not isinstance(value, type):
            assert getattr(type(provider), name) is not getattr(base, name), f"{name} is not implemented"
    assert kit.game.name in games.NAMES and games.get(kit.game.name) is kit.game
    assert "random" in kit.game.levels and kit.game.default_level in kit.game.levels
    assert kit.game.time_controls[0] == 0 and kit.game.clock_counts in ("decision", "turn")


def test_the_game_is_installed_with_its_templates_and_static_files(kit):
    assert apps.is_installed(f"{games.__name__}.{kit.game.name}")
    web = kit.game.web
    for part in ("status", "board", "controls", "summary", "replay", "source"):
        template = web.templates[part]
        # A part drawn in Python (``Drawn``) has its game's own tests of its markup.
        if isinstance(template, Drawn):
            assert callable(template.draw), part
        else:
            get_template(template)
    for path in [*web.match_static["css"], *web.match_static["js"], *web.history_static["css"], web.replay_script]:
        assert finders.find(path), path
    if web.how_to_play is not None:
        get_template(web.how_to_play)
        assert isinstance(web.how_to_play_context(), dict)


def test_no_platform_file_names_anything_of_the_game(kit):
    words = re.compile("|".join(re.escape(w) for w in sorted(kit.adapter.VOCABULARY, key=len, reverse=True)), re.I)
    games_folder = ROOT / "game" / "games"
    found = []
    for folder in PLATFORM_FILES:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in SUFFIXES or games_folder in path.parents:
                continue
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                if words.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, found


@pytest.mark.django_db
def test_a_match_is_created_of_the_game_chosen(kit, host, host_client):
    match = services.create_match(host, game=kit.game.name)
    assert match.game == kit.game.name and match.game_object is kit.game
    host_client.post("/match/new", {"visibility": "open", "game": kit.game.name})
    assert Match.objects.filter(game=kit.game.name).count() == 2
