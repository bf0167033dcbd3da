"""The match log's fragment drawn in Python (``presenter.render_log``) prints byte for byte what
templates/game/_log.html prints as a socket's fragment, for every line of random matches of both
games, each viewer, both languages, appended and whole."""
import random

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from game import games
from game.live import presenter
from tests.games.positions import PLAYERS


def template(entries, append):
    return render_to_string("game/_log.html", {"entries": entries, "append": append, "oob": True})


def random_lines(name, seed):
    """[(audience, entries)] of each viewer's log book over one random match of game ``name``:
    the lines of each version as a socket appends them, then the whole log at the end."""
    game = games.get(name)
    rng = random.Random(seed)
    state = game.new_match(seed)
    played = []
    while game.outcome(state) is None and len(played) < 400:
        mover = game.to_move(state)[0]
        state, events = game.apply(state, mover, rng.choice(game.legal_commands(state, mover)))
        played.append((len(played) + 1, events))
    out = []
    for audience in (0, 1, "spectator", "all"):
        book = game.web.log_book(audience, list(PLAYERS))
        whole = []
        for version, events in played:
            lines = book.entries([(version, game.project(events, audience))])
            whole += lines
            out.append((audience, lines))
        out.append((audience, whole))
    return out


@pytest.mark.parametrize("name", ["aquawar", "miracle"])
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_log_of_random_matches_is_drawn_as_the_template_draws_it(name, language):
    met = {"images": False, "own": False}
    with translation.override(language):
        for seed in (1, 2):
            for _audience, entries in random_lines(name, seed):
                for append in (True, False):
                    assert presenter.render_log(entries, append=append) == template(entries, append)
                met["images"] |= any(entry["images"] for entry in entries)
                met["own"] |= any(entry.get("own") for entry in entries)
    # Only Aquawar's lines show drawings (the species named) and mark a player's own moves.
    assert met == {"images": name == "aquawar", "own": name == "aquawar"}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_log_line_with_text_a_template_escapes_is_drawn_as_the_template_draws_it(language):
    entries = [
        {"version": 7, "text": "<b>&'\"</b> 你好", "kind": 'x"<', "images": ['/a"b<c>.png', "/d&e.png"], "own": True},
        {"version": 1234567, "text": mark_safe("<em>trusted</em>"), "kind": "called-off", "images": []},
        {"version": 0, "text": "", "kind": "", "images": [], "own": False},
        # A line with no drawings or owner given: the template takes a missing key as empty.
        {"version": 3, "text": "x", "kind": "action"},
    ]
    with translation.override(language):
        for append in (True, False):
            assert presenter.render_log(entries, append=append) == template(entries, append)
            assert presenter.render_log([], append=append) == template([], append)
