import pytest
from django.urls import reverse

from .helpers import fresh, hide_teams_in, post_with_csrf

pytestmark = pytest.mark.django_db


def cancel_url(match):
    return reverse("match_cancel", args=[match.pk])


def test_it_cancels_your_open_match(host_client, open_match):
    response = host_client.post(cancel_url(open_match), follow=True)
    assert fresh(open_match).status == "cancelled"
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert "Match cancelled." in response.content.decode()


def test_it_takes_a_cancelled_match_off_the_open_list(host_client, outsider_client, open_match):
    host_client.post(cancel_url(open_match))
    html = outsider_client.get(reverse("lobby")).content.decode()
    assert reverse("match_join", args=[open_match.pk]) not in html


def test_it_refuses_to_let_an_outsider_cancel(outsider_client, open_match):
    response = outsider_client.post(cancel_url(open_match), follow=True)
    assert fresh(open_match).status == "open"
    assert list(response.context["messages"])
    assert "Match cancelled." not in response.content.decode()


def test_a_private_match_does_not_exist_for_outsiders(outsider_client, private_match):
    response = outsider_client.post(cancel_url(private_match))
    unknown = outsider_client.post(reverse("match_cancel", args=[private_match.pk + 1000]))
    assert response.status_code == unknown.status_code == 404
    assert response.content == unknown.content
    assert fresh(private_match).status == "open"


def test_the_host_cancels_a_private_match(host_client, private_match):
    host_client.post(cancel_url(private_match))
    assert fresh(private_match).status == "cancelled"


def test_it_refuses_to_let_the_guest_cancel(guest_client, live_match):
    guest_client.post(cancel_url(live_match))
    assert fresh(live_match).status == "live"


def test_it_refuses_to_cancel_once_both_teams_are_picked(host_client, live_match):
    hide_teams_in(live_match)
    response = host_client.post(cancel_url(live_match), follow=True)
    assert fresh(live_match).status == "live"
    assert list(response.context["messages"])


def test_it_answers_404_for_an_unknown_match(host_client):
    assert host_client.post(reverse("match_cancel", args=[999999])).status_code == 404


def test_it_needs_a_login(client, open_match):
    response = client.post(cancel_url(open_match))
    assert response["Location"].startswith(reverse("login"))
    assert fresh(open_match).status == "open"


def test_it_only_accepts_post(host_client, open_match):
    assert host_client.get(cancel_url(open_match)).status_code == 405
    assert fresh(open_match).status == "open"


def test_it_enforces_csrf(csrf_client, host, open_match):
    client = csrf_client(host)
    assert client.post(cancel_url(open_match)).status_code == 403
    assert fresh(open_match).status == "open"
    post_with_csrf(client, reverse("lobby"), cancel_url(open_match))
    assert fresh(open_match).status == "cancelled"
