"""The match page's presenter only reads the payload it draws: a browser socket draws its parts from the
game's part that every socket of its process shares for a version (``fanout.game_part``, also sent
as JSON), so a presenter that changed it would change what other viewers are sent."""
import copy

import pytest
from django.utils import translation

from game import games
from game.live import presenter
from tests.games.aquawar.positions import positions as aquawar_positions
from tests.games.miracle.positions import positions as miracle_positions

POSITIONS = {"aquawar": lambda: aquawar_positions(3, 4), "miracle": lambda: miracle_positions(3, 12)}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_drawing_every_part_of_a_page_leaves_its_payload_as_it_was(name):
    game = games.get(name)
    drawn = 0
    for language, payload, marks, _seats in POSITIONS[name]():
        variants = [payload]
        if payload["seat"] == 0 and payload["status"] == "live" and game.tutorial is not None:
            variants.append({**payload, "tutorial": True})
        for seen in variants:
            before = copy.deepcopy(seen)
            with translation.override(language):
                ctx = presenter.context(game, seen, 2, marks, [True, True], {})
                presenter.render_parts({**ctx, "invite": None, "tournament_round": None})
            assert seen == before
            drawn += 1
    assert drawn > 100
