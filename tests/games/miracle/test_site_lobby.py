"""Choosing 神迹之战 in the lobby (open, private, against the computer at each level) with its own
time controls per turn, and finding its matches in the history by game."""
import re

import pytest
from django.urls import reverse

from game import services
from game.models import Match
from game.programs.models import BotSeat

pytestmark = pytest.mark.django_db

NEW = reverse("match_new")
VS_COMPUTER = reverse("match_vs_computer")


def select(page, field_id):
    return page.split(f'id="{field_id}"', 1)[1].split("</select>", 1)[0]


def test_the_lobby_offers_the_game_and_each_games_own_time_controls(host_client):
    page = host_client.get(reverse("lobby")).content.decode()
    for form in ("id_game", "computer_game"):
        assert '<option value="miracle">Miracle</option>' in select(page, form)
    controls = select(page, "id_move_seconds")
    aquawar, miracle = controls.split('<optgroup label="Miracle">')
    assert "60 s per decision" in aquawar and "300 s per turn" not in aquawar
    assert all(f"{s} s per turn" in miracle for s in (60, 120, 300)) and "per decision" not in miracle


def test_the_lobby_names_the_game_in_chinese(host_client):
    page = host_client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "神迹之战" in select(page, "id_game") and "每回合 300 秒" in select(page, "id_move_seconds")


@pytest.mark.parametrize("visibility", ["open", "private"])
def test_it_creates_a_miracle_match_with_a_time_control_per_turn(host_client, host, visibility):
    host_client.post(NEW, {"game": "miracle", "visibility": visibility, "move_seconds": "300"})
    match = Match.objects.get(host=host)
    assert match.game == "miracle" and match.move_seconds == 300 and match.private == (visibility == "private")


@pytest.mark.parametrize(("game", "seconds"), [("miracle", "30"), ("aquawar", "300")])
def test_it_refuses_a_time_control_of_the_other_game_with_the_games_own_message(host_client, game, seconds):
    response = host_client.post(NEW, {"game": game, "visibility": "open", "move_seconds": seconds}, follow=True)
    assert not Match.objects.exists()
    wanted = "60, 120 or 300 seconds per turn" if game == "miracle" else "30, 60 or 120 seconds per decision"
    assert wanted in response.content.decode()


@pytest.mark.parametrize("level", ["random", "greedy", "expert"])
def test_it_starts_a_miracle_match_against_the_computer_at_each_level(host_client, host, level):
    response = host_client.post(VS_COMPUTER, {"game": "miracle", "level": level, "move_seconds": "60"})
    match = Match.objects.get(host=host)
    assert response["Location"] == f"/match/{match.pk}/"
    assert match.game == "miracle" and match.status == Match.Status.LIVE
    assert BotSeat.objects.get(match=match).level == level
    # Both owe a deck: the person's turn clock runs, the machine's seat has none.
    assert match.move_seconds == 60 and match.deadline_0 is not None and match.deadline_1 is None


def finished(host, guest, game):
    match = services.join_match(services.create_match(host, game=game), guest)
    services.resign(match, host)
    return match


def test_the_history_filters_by_game(host, guest, outsider_client):
    aquawar, miracle = finished(host, guest, "aquawar"), finished(host, guest, "miracle")

    def listed(query):
        # Resigned at once, both matches are empty ones: listed when asked for (docs/history.md).
        query = "?empty=on" + query.replace("?", "&")
        page = outsider_client.get(f"/history/{query}").content.decode()
        return [int(pk) for pk in re.findall(r'<tr data-match="(\d+)">', page)]

    assert sorted(listed("")) == sorted([aquawar.pk, miracle.pk])
    assert listed("?game=miracle") == [miracle.pk]
    assert listed("?game=aquawar") == [aquawar.pk]
    # A game that does not exist is a bad filter value: dropped, the rest still applies.
    assert sorted(listed("?game=chess")) == sorted([aquawar.pk, miracle.pk])
