"""A finished match's win chances after every step (game/programs/winchances.py): the summary's chart
and the replay's bar read what the workers stored, the chance a spectator could have been shown
after every step, from the engine's own states (the spectator's view of each), ending at the result.
No page estimates anything: until the workers are done, the pages say so."""
import re

import pytest
from django.test import Client

from game.games.aquawar import engine
from game.games.aquawar import winchance
from game.programs import winchances

from .helpers import embedded, engine_replay, live_in_round_one

pytestmark = pytest.mark.django_db


@pytest.fixture
def estimating(settings):
    settings.WIN_CHANCES = True


@pytest.fixture
def expected(finished):
    """(version, host %, guest %) after each step, from the engine's own states."""
    states, _events = engine_replay(finished)
    rows = []
    for version, state in enumerate(states):
        host = round(winchance.estimate(engine.view(state, "spectator")) * 100)
        rows.append((version, host, 100 - host))
    return rows


def chart_rows(html):
    figure = re.search(r'<figure class="hp-chart win-chance-chart">(.*?)</figure>', html, re.S)
    assert figure, "no win-chance chart on the summary"
    rows = re.findall(r'<tr data-turn="(\d+)"><td>\d+</td><td>(\d+) %</td><td>(\d+) %</td></tr>', figure.group(1))
    return [tuple(int(n) for n in row) for row in rows]


def test_the_summary_charts_the_spectators_win_chance_after_every_step(finished, expected, estimating):
    winchances.estimate(finished.pk)
    html = Client().get(f"/match/{finished.pk}/summary/").content.decode()
    assert chart_rows(html) == expected
    assert expected[-1][1] == (100 if finished.winner == 0 else 0)
    # Not a flat line: the chance moved with the match.
    assert len({host for _v, host, _g in expected}) > 3


def test_the_replay_of_a_finished_match_has_the_chance_of_every_frame(finished, expected, estimating):
    winchances.estimate(finished.pk)
    for audience in ("all", "0", "spectator"):
        page = Client().get(f"/match/{finished.pk}/replay/?as={audience}")
        data = embedded(page, "replay-data")
        assert len(data["win_chances"]) == len(data["frames"])
        assert data["win_chances"] == [host for _v, host, _g in expected]
        html = page.content.decode()
        assert 'id="replay-win-chance-bar"' in html
        assert f"host {expected[0][1]} %" in html and 'data-host="host {} %"' in html


def test_until_the_workers_are_done_the_pages_say_so_and_ask_them(finished, estimating, monkeypatch):
    asked = []
    monkeypatch.setattr(winchances, "request", asked.append)
    summary = Client().get(f"/match/{finished.pk}/summary/").content.decode()
    replay = Client().get(f"/match/{finished.pk}/replay/").content.decode()
    for html in (summary, replay):
        assert "being estimated" in html and "win-chance-chart" not in html and "replay-win-chance-bar" not in html
    assert asked == [finished.pk, finished.pk]
    assert "win_chances" not in embedded(Client().get(f"/match/{finished.pk}/replay/"), "replay-data")


def test_a_live_matchs_replay_has_no_win_chances(host, guest, estimating):
    live = live_in_round_one(host, guest)
    winchances.estimate(live.pk)
    page = Client().get(f"/match/{live.pk}/replay/")
    assert "win_chances" not in embedded(page, "replay-data")
    assert "win-chance" not in page.content.decode()


def test_with_the_estimates_turned_off_the_pages_have_no_chances(finished, settings):
    settings.WIN_CHANCES = False
    for path in ("summary", "replay"):
        html = Client().get(f"/match/{finished.pk}/{path}/").content.decode()
        assert "win-chance" not in html and "being estimated" not in html
