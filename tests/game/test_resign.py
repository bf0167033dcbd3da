import pytest
from django.test import Client

from game.models import Match

from .helpers import live_match

pytestmark = pytest.mark.django_db


def client_for(user=None, **options):
    client = Client(**options)
    if user:
        client.force_login(user)
    return client


def test_it_resigns_the_match_for_the_player(host, guest):
    match = live_match(host, guest)
    response = client_for(guest).post(f"/match/{match.pk}/resign/", {"client_id": "r1"})
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"
    match.refresh_from_db()
    assert (match.status, match.winner, match.end_reason) == ("finished", 0, "resign")
    again = client_for(guest).post(f"/match/{match.pk}/resign/", {"client_id": "r1"})
    assert again.status_code == 302
    assert match.events.count() == 1


def test_it_needs_the_csrf_token(host, guest):
    match = live_match(host, guest)
    response = client_for(host, enforce_csrf_checks=True).post(f"/match/{match.pk}/resign/")
    assert response.status_code == 403
    assert Match.objects.get(pk=match.pk).status == "live"


def test_it_only_takes_post(host, guest):
    match = live_match(host, guest)
    assert client_for(host).get(f"/match/{match.pk}/resign/").status_code == 405


def test_it_sends_anonymous_visitors_to_log_in(host, guest):
    match = live_match(host, guest)
    response = client_for().post(f"/match/{match.pk}/resign/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Match.objects.get(pk=match.pk).status == "live"


def test_it_does_not_let_an_outsider_resign(host, guest, outsider):
    match = live_match(host, guest)
    assert client_for(outsider).post(f"/match/{match.pk}/resign/").status_code == 404
    assert Match.objects.get(pk=match.pk).status == "live"


def test_it_explains_why_an_open_match_cannot_be_resigned(host):
    from game import services

    match = services.create_match(host)
    response = client_for(host).post(f"/match/{match.pk}/resign/", follow=True)
    assert "not being played" in response.content.decode()
    assert Match.objects.get(pk=match.pk).status == "open"
