"""Each game's "How to play" page (issue #15), in both languages, linked from the lobby and the match page."""
import pytest
from django.test import Client
from django.utils import translation

from game import games
from game.games.aquawar.engine import SPECIES
from game.games.aquawar.texts import NAMES, SKILLS
from tests.game.helpers import live_match

pytestmark = pytest.mark.django_db

URL = "/games/aquawar/how-to-play/"


def page(language):
    with translation.override(None):
        return Client().get(URL, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_the_page_has_the_goal_a_turn_every_species_the_mimic_rule_timing_and_what_each_side_sees():
    html = page("en")
    for heading in ("The goal", "A round", "A turn", "Assertion and the Mimic", "When effects happen", "What each side sees"):
        assert f">{heading}</h2>" in html, heading
    with translation.override("en"):
        for species in SPECIES:
            assert f'id="species-{species}"' in html and f"img/fish/{species}.svg" in html
            assert str(NAMES[species]) in html
            for text in SKILLS[species]:
                assert str(text).replace("'", "&#x27;") in html, text
    assert 'is asserted only as "Mimic Fish"' in html


def test_the_page_is_in_chinese_for_chinese_readers():
    html = page("zh-hans")
    assert "玩法" in html and "拟态鱼规则" in html and "The goal" not in html
    with translation.override("zh-hans"):
        assert all(str(NAMES[s]) in html for s in SPECIES)


def test_an_unknown_game_or_one_without_a_page_is_not_found(monkeypatch):
    assert Client().get("/games/nothing/how-to-play/").status_code == 404
    monkeypatch.setattr(games.get("aquawar").web, "how_to_play", None)
    assert Client().get(URL).status_code == 404


def test_the_lobby_and_the_match_page_link_to_it(host, guest, host_client):
    assert f'href="{URL}"' in Client().get("/").content.decode()
    match = live_match(host, guest)
    assert f'href="{URL}"' in host_client.get(f"/match/{match.pk}/").content.decode()
