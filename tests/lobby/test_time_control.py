"""Choosing a time control when a person creates a match, and seeing it wherever the match is listed."""
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
        assert [f'value="{s}"' in select for s in (0, 30, 60, 120)] == [True] * 4
        assert "None (casual)" in select and "60 s per decision" in select


@pytest.mark.parametrize("visibility", ["open", "private"])
def test_it_creates_a_match_with_the_chosen_time_control(host_client, visibility):
    host_client.post(NEW, {"visibility": visibility, "move_seconds": "60"})
    assert Match.objects.get().move_seconds == 60


def test_a_form_without_a_time_control_creates_a_casual_match(host_client):
    host_client.post(NEW, {"visibility": "open"})
    assert Match.objects.get().move_seconds == 0


@pytest.mark.parametrize("bad", ["45", "abc", "-30", "30.0", "1e9"])
def test_it_refuses_a_time_control_not_on_offer_with_a_message(host_client, bad):
    response = host_client.post(NEW, {"visibility": "open", "move_seconds": bad}, follow=True)
    assert not Match.objects.exists()
    assert "Choose a time control: none, or 30, 60 or 120 seconds per decision." in response.content.decode()


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
    assert "Casual (no clock)" in live.split('id="live-matches-heading"', 1)[1]
    private = create_match(host, private=True, move_seconds=30)
    invite = guest_client.get(reverse("invite", args=[private.invite_token])).content.decode()
    assert "30 s per decision" in invite
