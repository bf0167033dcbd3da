"""Choosing a time control when a person creates a match, and seeing it wherever the match is listed."""
import re

import pytest
from django.urls import reverse

from game.programs.models import BotSeat
from game.models import Match
from game.services import create_match, join_match

pytestmark = pytest.mark.django_db

NEW = reverse("match_new")
VS_COMPUTER = reverse("match_vs_computer")


def test_the_lobby_offers_every_time_control_in_both_forms(host_client):
    page = host_client.get(reverse("lobby")).content.decode()
    for form in ('id="id_move_seconds"', 'id="computer_move_seconds"'):
        select = page.split(form, 1)[1].split("</select>", 1)[0]
        values = ["0", "aquawar:30", "aquawar:60", "aquawar:120", "miracle:60", "miracle:120", "miracle:300"]
        assert [f'value="{v}"' in select for v in values] == [True] * 7
        assert "No clock" in select and "60 s per decision" in select and "60 s per turn" in select


@pytest.mark.parametrize("visibility", ["open", "private"])
def test_it_creates_a_match_with_the_chosen_time_control(host_client, visibility):
    host_client.post(NEW, {"visibility": visibility, "move_seconds": "60"})
    assert Match.objects.get().move_seconds == 60


def test_a_form_without_a_time_control_creates_a_casual_match(host_client):
    host_client.post(NEW, {"visibility": "open"})
    assert Match.objects.get().move_seconds == 0


@pytest.mark.parametrize("bad", ["45", "abc", "-30", "30.0", "1e9", "aquawar:45", "aquawar:", ":30", "chess:30", "٣٠"])
def test_it_refuses_a_time_control_not_on_offer_with_a_message(host_client, bad):
    response = host_client.post(NEW, {"visibility": "open", "move_seconds": bad}, follow=True)
    assert not Match.objects.exists()
    assert "Choose a time control: none; 30, 60 or 120 seconds per decision; 1, 2, 3 or 7 days per decision; or a time bank." in response.content.decode()


def test_a_match_against_the_computer_times_the_person_only(host_client, host):
    response = host_client.post(VS_COMPUTER, {"level": "random", "move_seconds": "30"})
    match = Match.objects.get(host=host)
    assert response["Location"] == f"/match/{match.pk}/"
    assert match.move_seconds == 30 and match.deadline_0 is not None and match.deadline_1 is None
    assert BotSeat.objects.get(match=match).seat == 1


def test_a_match_against_the_computer_refuses_a_bad_time_control(host_client):
    response = host_client.post(VS_COMPUTER, {"level": "random", "move_seconds": "5"}, follow=True)
    assert not Match.objects.exists()
    assert "Choose a time control" in response.content.decode()


def test_the_lists_and_the_invite_show_the_time_control(host, guest, outsider, host_client, guest_client):
    create_match(host, move_seconds=120)
    mine = host_client.get(reverse("lobby")).content.decode()
    listed = guest_client.get(reverse("lobby")).content.decode()
    for page in (mine, listed):
        assert "120 s per decision" in page
    join_match(create_match(outsider), guest)
    live = host_client.get(reverse("lobby")).content.decode()
    assert "No clock" in live.split('id="live-matches-heading"', 1)[1]
    private = create_match(host, private=True, move_seconds=30)
    invite = guest_client.get(reverse("invite", args=[private.invite_token])).content.decode()
    assert "30 s per decision" in invite


def test_the_lobby_offers_the_last_game_and_time_control_chosen_again(host_client):
    host_client.post(NEW, {"visibility": "private", "move_seconds": "60"})
    host_client.post(VS_COMPUTER, {"level": "random", "move_seconds": "120"})
    page = host_client.get(reverse("lobby")).content.decode()
    new_form = page.split('id="id_move_seconds"', 1)[1].split("</select>", 1)[0]
    computer_form = page.split('id="computer_move_seconds"', 1)[1].split("</select>", 1)[0]
    assert 'value="aquawar:60" selected' in new_form and 'value="aquawar:120" selected' in computer_form
    assert re.search(r'<input[^>]*value="private"[^>]*checked', page)
    assert 'name="level" value="random" checked' in page


@pytest.mark.parametrize("value", ["miracle:120", "120"])
def test_a_time_control_of_the_chosen_game_by_its_option_or_in_plain_seconds(host_client, value):
    host_client.post(NEW, {"game": "miracle", "visibility": "open", "move_seconds": value})
    match = Match.objects.get()
    assert (match.game, match.move_seconds) == ("miracle", 120)


@pytest.mark.parametrize(("game", "value", "message"), [
    ("aquawar", "miracle:60", "Choose a time control: none; 30, 60 or 120 seconds per decision; 1, 2, 3 or 7 days per decision; or a time bank."),
    ("miracle", "aquawar:60", "Choose a time control: none; 60, 120 or 300 seconds per turn; 1, 2, 3 or 7 days per turn; or a time bank."),
])
def test_another_games_time_control_is_refused_even_when_the_seconds_match(host_client, game, value, message):
    """60 s is offered by both games, per decision and per turn: the option says whose it is."""
    for url, form in ((NEW, {"visibility": "open"}), (VS_COMPUTER, {"level": "random"})):
        response = host_client.post(url, {**form, "game": game, "move_seconds": value}, follow=True)
        assert not Match.objects.exists()
        assert message in response.content.decode()


def test_the_lobby_offers_the_last_miracle_time_control_as_its_own_option(host_client):
    host_client.post(VS_COMPUTER, {"game": "miracle", "level": "random", "move_seconds": "miracle:60"})
    page = host_client.get(reverse("lobby")).content.decode()
    computer_form = page.split('id="computer_move_seconds"', 1)[1].split("</select>", 1)[0]
    assert 'value="miracle:60" selected' in computer_form and 'value="aquawar:60" selected' not in computer_form
