import pytest
from django.urls import reverse

from game.models import Match, MatchEvent
from game.services import apply_command, create_match, join_match

from .helpers import assert_no_species, hide_teams_in

pytestmark = pytest.mark.django_db


def profile_url(user):
    return reverse("profile", args=[user.username])


HOST_PICK = {"pick": ["mimic_fish", "archerfish", "sea_wolf", "sunfish"], "mimic": "octopus"}
GUEST_PICK = {"pick": ["manta_ray", "clownfish", "electric_eel", "pufferfish"]}


def finished(host, guest, winner, private=False):
    """A match both sides played in (each picked a team), then ended with ``winner``."""
    match = join_match(create_match(host, private=private), guest)
    apply_command(match.pk, host, "h", 0, HOST_PICK)
    apply_command(match.pk, guest, "g", 1, GUEST_PICK)
    Match.objects.filter(pk=match.pk).update(status="finished", winner=winner)
    return match


def test_it_leaves_aborted_and_empty_matches_out(outsider_client, host, guest):
    """A play-resign loop's matches (nobody or one side moved) would crowd out the real ones."""
    aborted = join_match(create_match(host), guest)
    Match.objects.filter(pk=aborted.pk).update(status="aborted")
    empty = join_match(create_match(host), guest)
    apply_command(empty.pk, host, "h", 0, HOST_PICK)
    Match.objects.filter(pk=empty.pk).update(status="finished", winner=0)
    real = finished(host, guest, winner=0)
    assert MatchEvent.objects.filter(match=empty).exclude(seat=0).count() == 0
    html = outsider_client.get(profile_url(host)).content.decode()
    assert reverse("game:match", args=[real.pk]) in html
    assert reverse("game:match", args=[aborted.pk]) not in html
    assert reverse("game:match", args=[empty.pk]) not in html


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
