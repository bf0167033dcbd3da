"""Quick pairing through the pages: Play now, the waiting page and its poll, cancel, bad input."""
import pytest
from django.urls import reverse

from game.models import Match
from ratings.models import Seek
from tests.game.helpers import seat_at_the_live_limit

pytestmark = pytest.mark.django_db

PLAY = reverse("ratings:play_now")


def test_play_now_waits_then_the_second_seeker_goes_straight_to_the_match(host_client, guest_client):
    first = host_client.post(PLAY, {"game": "aquawar", "move_seconds": "0", "rated": "rated"})
    assert first.url == reverse("ratings:waiting")
    assert "Looking for an opponent" in host_client.get(first.url).content.decode()
    assert host_client.get(reverse("ratings:waiting_status")).status_code == 204
    second = guest_client.post(PLAY, {"game": "aquawar", "move_seconds": "0", "rated": "rated"})
    match = Match.objects.get()
    assert second.url == reverse("game:match", args=[match.pk]) and match.rated
    status = host_client.get(reverse("ratings:waiting_status"))
    assert status["HX-Redirect"] == reverse("game:match", args=[match.pk])


def test_the_waiting_page_itself_goes_to_the_match_once_paired(host_client, guest_client):
    host_client.post(PLAY, {"game": "aquawar"})
    guest_client.post(PLAY, {"game": "aquawar"})
    match = Match.objects.get()
    assert host_client.get(reverse("ratings:waiting")).url == reverse("game:match", args=[match.pk])


def test_the_lobby_offers_play_now_and_a_way_back_while_waiting(host_client):
    assert 'id="play-now"' in host_client.get(reverse("lobby")).content.decode()
    host_client.post(PLAY, {"game": "aquawar"})
    page = host_client.get(reverse("lobby")).content.decode()
    assert 'id="seek-page"' in page and 'id="play-now"' not in page


def test_cancel_leaves_the_pool(host_client):
    host_client.post(PLAY, {"game": "aquawar"})
    response = host_client.post(reverse("ratings:cancel_seek"), follow=True)
    assert not Seek.objects.exists() and "You left the pool" in response.content.decode()
    assert host_client.get(reverse("ratings:waiting")).url == reverse("lobby")


def test_seeking_twice_shows_the_waiting_page(host_client):
    host_client.post(PLAY, {"game": "aquawar"})
    response = host_client.post(PLAY, {"game": "aquawar"})
    assert response.url == reverse("ratings:waiting") and Seek.objects.count() == 1


@pytest.mark.parametrize(
    "data", [{"game": "chess"}, {"game": "aquawar", "move_seconds": "7"}, {"rated": "\x00"}, {"move_seconds": "x"}]
)
def test_odd_play_now_forms_are_refused_without_a_seek(host_client, data):
    response = host_client.post(PLAY, data)
    assert response.status_code == 302 and response.url == reverse("lobby")
    assert not Seek.objects.exists()


def test_anonymous_visitors_are_sent_to_log_in(client):
    assert reverse("login") in client.post(PLAY, {"game": "aquawar"}).url
    assert reverse("login") in client.get(reverse("ratings:waiting")).url
    assert client.get(reverse("ratings:waiting_status")).status_code == 403
    assert not Seek.objects.exists()


def test_play_now_is_refused_past_the_live_limit_without_a_seek(host_client, host, outsider):
    seat_at_the_live_limit(host, outsider)
    response = host_client.post(PLAY, {"game": "aquawar"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert "matches at once: finish one first." in response.content.decode()
    assert not Seek.objects.exists()
