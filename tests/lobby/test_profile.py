import pytest
from django.urls import reverse

from game.models import Match
from game.services import create_match, join_match

from .helpers import assert_no_species, hide_teams_in

pytestmark = pytest.mark.django_db


def profile_url(user):
    return reverse("profile", args=[user.username])


def finished(host, guest, winner, private=False):
    match = join_match(create_match(host, private=private), guest)
    Match.objects.filter(pk=match.pk).update(status="finished", winner=winner)
    return match


def stat(response, name):
    return response.content.decode().split(f'data-stat="{name}">')[1].split("<")[0]


def test_it_counts_wins_and_losses_from_either_seat(outsider_client, host, guest):
    finished(host, guest, winner=0)
    finished(guest, host, winner=1)
    finished(host, guest, winner=1)
    live = join_match(create_match(host), guest)
    assert live.status == "live"
    response = outsider_client.get(profile_url(host))
    assert (stat(response, "won"), stat(response, "lost")) == ("2", "1")
    response = outsider_client.get(profile_url(guest))
    assert (stat(response, "won"), stat(response, "lost")) == ("1", "2")


def test_it_lists_recent_matches_with_opponent_and_result(outsider_client, host, guest):
    won = finished(host, guest, winner=0)
    html = outsider_client.get(profile_url(host)).content.decode()
    assert reverse("game:match", args=[won.pk]) in html
    assert profile_url(guest) in html
    assert "Won" in html
    html = outsider_client.get(profile_url(guest)).content.decode()
    assert "Lost" in html and profile_url(host) in html


def test_it_leaves_cancelled_matches_out(host_client, host):
    match = create_match(host)
    Match.objects.filter(pk=match.pk).update(status="cancelled")
    html = host_client.get(profile_url(host)).content.decode()
    assert reverse("game:match", args=[match.pk]) not in html


def test_it_lists_private_matches_only_to_their_players(
    outsider_client, guest_client, host_client, host, guest
):
    match = finished(host, guest, winner=0, private=True)
    link = reverse("game:match", args=[match.pk])
    assert link not in outsider_client.get(profile_url(host)).content.decode()
    assert link in guest_client.get(profile_url(host)).content.decode()
    assert link in host_client.get(profile_url(host)).content.decode()
    assert stat(outsider_client.get(profile_url(host)), "won") == "1"


def test_it_hides_a_waiting_private_match_from_anonymous_visitors(client, host):
    match = create_match(host, private=True)
    html = client.get(profile_url(host)).content.decode()
    assert reverse("game:match", args=[match.pk]) not in html
    assert match.invite_token not in html


def test_it_never_shows_a_hidden_fish(outsider_client, host_client, host, live_match):
    hide_teams_in(live_match)
    assert_no_species(outsider_client.get(profile_url(host)).content.decode())
    assert_no_species(host_client.get(profile_url(host)).content.decode())


def test_it_answers_404_for_an_unknown_user(client):
    assert client.get(reverse("profile", args=["nobody-by-that-name"])).status_code == 404
