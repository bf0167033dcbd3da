"""神迹之战's "How to play" page body: every card of the rules with its drawing and numbers."""
from django.template.loader import render_to_string
from django.utils import translation

from game.games.miracle.engine.cards import ARTIFACTS, DECK_CREATURES
from game.games.miracle.game import GAME
from game.games.miracle.texts import artifact_name, creature_name


def test_it_shows_every_creature_and_artifact_with_its_drawing():
    web = GAME.web
    html = render_to_string(web.how_to_play, web.how_to_play_context())
    for creature in DECK_CREATURES:
        assert str(creature_name(creature)) in html and f"#miracle-{creature}" in html
    for artifact in ARTIFACTS:
        assert str(artifact_name(artifact)) in html and f"/{artifact}.svg" in html
    assert html.count('class="deck-table"') == len(DECK_CREATURES)


def test_it_reads_in_chinese():
    web = GAME.web
    with translation.override("zh-hans"):
        html = render_to_string(web.how_to_play, web.how_to_play_context())
    assert "神迹" in html and "弓箭手" in html and "The goal" not in html
