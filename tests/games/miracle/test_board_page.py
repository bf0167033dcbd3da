"""The 神迹之战 board and controls as the page draws them (``game.games.miracle.presenter`` and its
templates): orientation, tokens, the other side's last turn, and forms that offer exactly the
engine's legal moves."""
import itertools
import json
import re
import random
from html.parser import HTMLParser

import pytest
from django.utils import translation

from game.games.miracle import mapdraw
from game.games.miracle.engine import apply, legal_commands
from game.games.miracle.engine.randomplay import random_command
from game.games.miracle.forms import form_command
from game.games.miracle.game import GAME
from game.live import presenter

from .helpers import put, start


def payload(state, seat, status="live"):
    return {"match": 1, "version": 9, "status": status, "seat": seat, "audience": seat if seat is not None else "spectator",
            "players": ["ann", "bob"], "private": False,
            # A finished match always has a winner (神迹之战 has no draws): here the host, by resignation.
            "winner": 0 if status == "finished" else None, "end_reason": "resign" if status == "finished" else None,
            "view": GAME.view(state, seat if seat is not None else "spectator"), **GAME.choices(state, seat),
            "rematch": None, "clock": {"deadlines": [None, None], "server_time": 0}, "programs": [False, False],
            "rating_changes": [], "tutorial": False}


def page(data, marks, seats):
    """The parts' context as the match page's (``game.live.presenter.context``), with no opponent line."""
    return {**GAME.web.page_context(data, marks, seats), "payload": data, "opponent": None, "rematch": None,
            "your_move": presenter.your_move(GAME, data), "result": presenter.result(data)}


def draw(part, context):
    return GAME.web.templates[part].draw(context)


def render(state, seat, marks=None, status="live"):
    seats = [{"label": name, "clock": None} for name in ("ann", "bob")]
    context = page(payload(state, seat, status), marks or {}, seats)
    return {part: draw(part, context) for part in ("status", "board", "controls")}


class Forms(HTMLParser):
    """Each <form>: its fixed fields and, per <select>, the values it offers."""

    def __init__(self):
        super().__init__()
        self.forms, self.select = [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"fixed": {}, "selects": {}})
        elif tag == "input" and self.forms and attrs.get("type") == "hidden" and "disabled" not in attrs:
            self.forms[-1]["fixed"][attrs["name"]] = attrs["value"]
        elif tag == "select":
            self.select = self.forms[-1]["selects"].setdefault(attrs["name"], [])
        elif tag == "option" and self.select is not None:
            self.select.append(attrs["value"])

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None


def offered(html):
    """Every frame the forms can send (each combination of their menus)."""
    parser = Forms()
    parser.feed(html)
    frames = []
    for form in parser.forms:
        names = list(form["selects"])
        for values in itertools.product(*(form["selects"][n] for n in names)):
            frames.append({**form["fixed"], **dict(zip(names, values))})
    return frames


def canonical(command):
    return json.dumps(command, sort_keys=True)


@pytest.mark.parametrize("seed", [3, 8])
def test_the_forms_offer_exactly_the_legal_moves(seed):
    state = start(seed=seed)
    rng = random.Random(seed)
    checked = 0
    while state.phase == "play" and state.turn < 30:
        seat = state.current
        if state.turn % 3 == 0:
            frames = offered(render(state, seat)["controls"])
            sent = {canonical(form_command(f)) for f in frames}
            legal = {canonical(c) for c in legal_commands(state, seat) if "surrender" not in c}
            assert sent == legal
            checked += len(frames)
        state, _ = apply(state, seat, random_command(state, seat, rng))
    assert checked > 50


def test_the_other_seat_and_spectators_get_no_move_forms():
    state = start()
    for seat in (1, None):
        assert offered(render(state, seat)["controls"]) == []
        assert "miracle-play" not in render(state, seat)["controls"]


def centre_of(html, cls):
    marker = html.index(f'class="miracle miracle--{cls}"')
    transform = html[marker:].split('transform="translate(', 1)[1].split(")", 1)[0]
    return [float(v) for v in transform.split()]


@pytest.mark.parametrize("first_mover", [0, 1])
def test_each_player_sees_their_own_miracle_at_the_bottom(first_mover):
    state = start(first_mover=first_mover)
    for seat in (0, 1):
        board = render(state, seat)["board"]
        own, other = centre_of(board, "ab"[seat]), centre_of(board, "ab"[1 - seat])
        assert own[1] > other[1], (seat, own, other)
    spectator = render(state, None)["board"]
    # A spectator: the first mover's side (map side 0) at the bottom, drawn as side "a" when seat 0,
    # and its strip below the map too.
    tone = "a" if first_mover == 0 else "b"
    assert centre_of(spectator, tone)[1] > 0
    below = spectator.split('class="hexmap"', 1)[1]
    assert f'side-strip--{tone}' in below and f'side-strip--{tone}' not in spectator.split('class="hexmap"', 1)[0]


def test_tokens_show_hit_points_attack_stars_and_the_shield():
    state = start()
    shielded = put(state, 0, "archer", 2, (-3, 3, 0), shield=True)
    put(state, 1, "swordsman", 3, (3, -3, 0))
    board = render(state, 0)["board"]
    token = board.split(f'data-unit="{shielded}"', 1)[1].split("</g>", 1)[0]
    unit = state.units[shielded]
    assert f'class="token-hp" x="6" y="7.9">{unit.hp}<' in token
    assert f'class="token-atk" x="-6" y="7.9">{unit.atk}<' in token
    assert ">★★<" in token and "miracle-shield" in token
    assert board.count('class="token token--b') == 1 and "token-frame" in board


def test_the_other_sides_last_turn_is_lit_on_the_board():
    state = start()
    key = "-3,3,0"
    board = render(state, 1, {"player": 0, "cells": {key: ["summon"]}, "paths": [[[-4, 4, 0], [-3, 3, 0]]]})["board"]
    lit = board.split(f'data-cell="{key}"', 1)[0].rsplit("<use", 1)[1]
    assert "hex--summon" in lit
    assert 'class="trail-path trail-path--a"' in board, "the host's trail in the host's colour"
    assert "%s,%s" % mapdraw.centre([-4, 4, 0], flipped=True) in board


def test_the_turn_clock_shows_in_the_strip_of_the_side_to_move():
    state = start()
    data = payload(state, 1)
    clock = {"deadline": 1_000_000, "server_time": 940_000, "text": "1:00", "urgent": False}
    seats = [{"label": "ann", "clock": clock}, {"label": "bob", "clock": None}]
    board = draw("board", page(data, {}, seats))
    above, below = board.split('class="hexmap"', 1)
    # Seat 1 watches seat 0's turn: seat 0's strip is above the map, with its clock.
    assert 'data-deadline="1000000"' in above and "data-deadline" not in below


def test_a_miracle_struck_below_zero_reads_zero_on_the_board():
    # The engine keeps the overshoot (damage is not capped at the HP left); the board shows 0.
    state = start()
    state.miracle_hp[1] = -4
    drawn = render(state, 0)["board"]
    assert re.findall(r'class="miracle-hp"[^>]*>(-?\d+)<', drawn) == ["30", "0"]
    assert "bob's miracle: 0/30 HP" in drawn and "-4/30" not in drawn


@pytest.mark.parametrize("seat", [0, 1, None])
def test_each_player_has_one_identity_whoever_looks(seat):
    """The host is "a" (●, solid circle) and the guest "b" (◆, dashed diamond) on every page, as the
    platform's status line draws them (issue #29: the guest's page had swapped them)."""
    state = start(first_mover=1)
    put(state, 0, "archer", 1, (-3, 3, 0))
    guest_unit = put(state, 1, "swordsman", 1, (3, -3, 0))
    page = render(state, seat)
    board = page["board"]
    assert re.search(rf'class="token token--b[^"]*"[^>]*data-unit="{guest_unit}"', board)
    strips = re.findall(r'side-strip side-strip--(\w)[^>]*data-side="(\d)"', board)
    assert sorted(strips) == [("a", "0"), ("b", "1")]
    assert re.search(r'team-icon--a[^<]*</span> ann', page["status"])


@pytest.mark.parametrize("status", ["finished", "aborted"])
def test_an_ended_match_shows_nobody_to_move_and_nothing_that_can_act(status):
    state = start()
    put(state, 0, "archer", 1, (-3, 3, 0))
    live = render(state, 0)["board"]
    assert "token--ready" in live and "side-strip--to-move" in live and "can act" in live
    over = render(state, 0, status=status)["board"]
    assert "token--ready" not in over and "side-strip--to-move" not in over and "can act" not in over


def test_every_cell_is_named_in_words_for_the_keyboard():
    state = start()
    spawn = GAME.view(state, 0)["spawn_points"][0][0]
    put(state, 0, "archer", 1, spawn)
    board = render(state, 0)["board"]
    key = mapdraw.key(spawn)
    label = re.search(rf'data-cell="{key}" role="button" aria-label="([^"]*)"', board).group(1)
    assert re.match(r"Column \d+, row \d+: your spawn point; Your Archer \(L1\): HP \d+/\d+, ATK \d+ · can act$",
                    label.replace("&#x27;", "'")), label
    assert board.count('role="button" aria-label="Column ') == 277
    assert re.search(r'aria-label="Column \d+, row \d+: abyss"', board)


def test_the_cells_are_drawn_escaped_with_their_spawn_points_and_marks_in_either_language():
    """The cells are drawn in Python, not by the template (presenter._cells_svg): what a template
    escapes, they escape too (a player's name in a cell's label, a mark's name), in either language,
    and the cached fixed parts still give every cell and spawn point."""
    state = start()
    seats = [{"label": '<b onclick="x">ann</b>', "clock": None}, {"label": "bob", "clock": None}]
    spawn = mapdraw.key(GAME.view(state, 1)["spawn_points"][0][0])
    data = payload(state, 1)
    for language in ("en", "zh-hans", "en"):
        with translation.override(language):
            board = draw("board", page(data, {"player": 0, "cells": {spawn: ['x"y']}}, seats))
        assert "<b onclick" not in board and "&lt;b onclick=&quot;x&quot;&gt;ann&lt;/b&gt;" in board
        drawn = re.search(rf'<use href="#mh-hex" x="[^"]+" y="[^"]+" class="([^"]*)" data-cell="{spawn}"', board)
        assert drawn.group(1) == "hex hex--ground hex--spawn-a hex--x&quot;y", drawn.group(1)
        assert board.count("#miracle-spawn") == sum(len(side) for side in data["view"]["spawn_points"])
        assert board.count("<use href=\"#mh-hex\"") == 277
