"""/match/<id>/summary/: result, every round with both teams revealed, and the HP chart."""
import re

import pytest
from django.test import Client

from game.games.aquawar import engine
from game import services
from game.models import Match
from game.games.aquawar.texts import name as species_name

from .helpers import engine_replay, live_in_round_one, stored_commands

pytestmark = pytest.mark.django_db


def sections(html):
    return dict(re.findall(r'<section class="summary-round" data-round="(\d+)">(.*?)</section>', html, re.S))


def chart_points(section):
    rows = re.findall(r'<tr data-turn="(\d+)"><td>\d+</td><td>(\d+)</td><td>(\d+)</td></tr>', section)
    return [tuple(int(n) for n in row) for row in rows]


def living(teams):
    return tuple(sum(f["hp"] for f in team if f["alive"]) for team in teams)


def expected_points(match):
    """Per round, from the engine's states: both sides' living HP after every turn.

    The engine empties the board the moment a round ends, so the deciding turn's totals come from
    the board before it with that command's HP and death events applied.
    """
    states, events_per_command = engine_replay(match)
    commands = stored_commands(match)
    rounds = {}
    for index, ((_seat, command), events) in enumerate(zip(commands, events_per_command)):
        before = engine.view(states[index], "all")
        after = engine.view(states[index + 1], "all")
        if any(e["type"] == "round_start" for e in events):
            rounds[after["round"]] = [(0, 1600, 1600)]
        ended = [e for e in events if e["type"] == "round_end"]
        if ended:
            teams = [[dict(f) for f in team] for team in before["teams"]]
            for event in events:
                if event["type"] in ("hp_loss", "damage", "heal"):
                    teams[event["side"]][event["pos"]]["hp"] = event["hp"]
                if event["type"] == "death":
                    teams[event["side"]][event["pos"]]["alive"] = False
            rounds[before["round"]].append((ended[0]["turns"], *living(teams)))
        elif "act" in command:
            rounds[after["round"]].append((after["turn"], *living(after["teams"])))
    return rounds


def test_it_charts_each_sides_living_hp_after_every_turn(finished, outsider_client):
    html = outsider_client.get(f"/match/{finished.pk}/summary/").content.decode()
    expected = expected_points(finished)
    shown = {int(n): chart_points(section) for n, section in sections(html).items()}
    assert shown == expected
    assert all(len(points) > 2 for points in shown.values())
    # Each line of the SVG has one point per turn.
    lines = re.findall(r'<polyline class="hp-chart__line hp-chart__line--\d" fill="none" points="([^"]+)"', html)
    assert [len(line.split()) for line in lines] == [len(p) for p in expected.values() for _side in (0, 1)]


def test_it_shows_every_round_with_both_teams_and_the_mimic_target(finished, outsider_client):
    html = outsider_client.get(f"/match/{finished.pk}/summary/").content.decode()
    seen = engine.view(engine.MatchState.from_json(finished.state), "all")
    rounds = sections(html)
    assert len(rounds) == len(seen["rounds"])
    names = ["host", "guest"]
    for number, (played, pair) in enumerate(zip(seen["rounds"], seen["past_picks"]), start=1):
        section = rounds[str(number)]
        assert f"{names[played['winner']]} won after {played['turns']} turns" in section
        assert f"{names[played['first_mover']]} moved first" in section
        assert re.findall(r'data-species="(\w+)"', section) == pair[0]["fish"] + pair[1]["fish"]
    assert f"copying {species_name('octopus')}" in rounds["1"]
    assert f"{seen['score'][0]}–{seen['score'][1]}" in html


def test_it_shows_a_round_cut_short_by_resignation(host, guest, outsider_client):
    match = live_in_round_one(host, guest)
    services.resign(match, host)
    html = outsider_client.get(f"/match/{match.pk}/summary/").content.decode()
    section = sections(html)["1"]
    assert "Not finished" in section and "guest won" in html
    assert "copying" in section and "mimic_fish" in section
    assert len(chart_points(section)) >= 2


def test_it_404s_unless_the_match_is_finished_and_watchable(finished, host, guest, outsider_client):
    live = live_in_round_one(host, guest)
    opened = services.create_match(host)
    for match_id in (live.pk, opened.pk, 9999):
        assert outsider_client.get(f"/match/{match_id}/summary/").status_code == 404
    Match.objects.filter(pk=finished.pk).update(private=True)
    assert outsider_client.get(f"/match/{finished.pk}/summary/").status_code == 404
    assert Client().get(f"/match/{finished.pk}/summary/?invite=wrong").status_code == 404
    token = Match.objects.get(pk=finished.pk).invite_token
    assert Client().get(f"/match/{finished.pk}/summary/?invite={token}").status_code == 200
