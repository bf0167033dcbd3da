import pytest
from django.urls import reverse

from game.models import Match
from game.services import cancel_match, create_match

from .helpers import post_with_csrf

pytestmark = pytest.mark.django_db

NEW = reverse("match_new")


def test_it_creates_an_open_match_hosted_by_you(host_client, host):
    response = host_client.post(NEW, {"visibility": "open"})
    assert response.status_code == 302
    match = Match.objects.get()
    assert (match.host, match.status, match.private) == (host, "open", False)


def test_it_creates_a_private_match_and_shows_its_invite_link(host_client):
    response = host_client.post(NEW, {"visibility": "private"}, follow=True)
    match = Match.objects.get()
    assert match.private
    assert reverse("invite", args=[match.invite_token]) in response.content.decode()


def test_it_refuses_an_unknown_choice_with_a_message(host_client):
    response = host_client.post(NEW, {"visibility": "secret-ish"}, follow=True)
    assert not Match.objects.exists()
    assert "Choose who may join" in response.content.decode()


def test_it_refuses_a_sixth_open_match(host_client, host):
    for _ in range(5):
        create_match(host)
    response = host_client.post(NEW, {"visibility": "private"}, follow=True)
    assert Match.objects.filter(host=host).count() == 5
    assert "cancel one first" in response.content.decode()


def test_it_counts_only_open_matches_towards_the_limit(host_client, host):
    for _ in range(5):
        cancel_match(create_match(host), host)
    host_client.post(NEW, {"visibility": "open"})
    assert Match.objects.filter(host=host, status="open").count() == 1


def test_it_needs_a_login(client):
    response = client.post(NEW, {"visibility": "open"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not Match.objects.exists()


def test_it_only_accepts_post(host_client):
    assert host_client.get(NEW).status_code == 405


def test_it_enforces_csrf(csrf_client, host):
    client = csrf_client(host)
    assert client.post(NEW, {"visibility": "open"}).status_code == 403
    assert not Match.objects.exists()
    assert post_with_csrf(client, reverse("lobby"), NEW, {"visibility": "open"}).status_code == 302
    assert Match.objects.count() == 1
