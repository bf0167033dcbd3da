"""The summary's win-chance chart: the chance a spectator could have been shown after every step,
from the engine's own states (the spectator's view of each), ending at the result."""
import re

import pytest
from django.test import Client

from game.games.aquawar import engine
from game.games.aquawar import winchance

from .helpers import engine_replay

pytestmark = pytest.mark.django_db


def chart_rows(html):
    figure = re.search(r'<figure class="hp-chart win-chance-chart">(.*?)</figure>', html, re.S)
    assert figure, "no win-chance chart on the summary"
    rows = re.findall(r'<tr data-turn="(\d+)"><td>\d+</td><td>(\d+) %</td><td>(\d+) %</td></tr>', figure.group(1))
    return [tuple(int(n) for n in row) for row in rows]


def test_the_summary_charts_the_spectators_win_chance_after_every_step(finished):
    html = Client().get(f"/match/{finished.pk}/summary/").content.decode()
    states, _events = engine_replay(finished)
    expected = []
    for version, state in enumerate(states):
        host = round(winchance.estimate(engine.view(state, "spectator")) * 100)
        expected.append((version, host, 100 - host))
    assert chart_rows(html) == expected
    assert expected[-1][1] == (100 if finished.winner == 0 else 0)
    # Not a flat line: the chance moved with the match.
    assert len({host for _v, host, _g in expected}) > 3
