import pytest
from django.urls import reverse

from game.services import cancel_match
from tests.game.helpers import seat_at_the_live_limit

from .helpers import fresh, post_with_csrf

pytestmark = pytest.mark.django_db


def invite_url(match):
    return reverse("invite", args=[match.invite_token])


def test_it_shows_who_invites_you_and_a_join_button(guest_client, private_match):
    response = guest_client.get(invite_url(private_match))
    html = response.content.decode()
    assert response.status_code == 200
    assert "host" in html
    assert 'method="post"' in html and "Join host" in html


def test_it_joins_the_private_match_and_takes_you_to_it(guest_client, guest, private_match):
    response = guest_client.post(invite_url(private_match))
    assert response["Location"] == reverse("game:match", args=[private_match.pk])
    match = fresh(private_match)
    assert (match.guest, match.status) == (guest, "live")


def test_it_works_for_open_matches_too(guest_client, guest, open_match):
    guest_client.post(invite_url(open_match))
    assert fresh(open_match).guest == guest


def test_it_tells_the_host_it_is_their_own_match_and_offers_no_join(host_client, private_match):
    html = host_client.get(invite_url(private_match)).content.decode()
    assert "your own match" in html
    assert "Join host" not in html


def test_it_refuses_the_host_joining_through_the_link(host_client, private_match):
    host_client.post(invite_url(private_match))
    assert fresh(private_match).guest is None


def test_it_refuses_a_second_guest(guest_client, outsider_client, guest, private_match):
    guest_client.post(invite_url(private_match))
    response = outsider_client.post(invite_url(private_match), follow=True)
    assert fresh(private_match).guest == guest
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert list(response.context["messages"])


def test_it_lets_a_latecomer_watch_the_private_match_it_can_no_longer_join(
    client, guest_client, outsider_client, guest, private_match
):
    guest_client.post(invite_url(private_match))
    html = outsider_client.get(invite_url(private_match)).content.decode()
    watch = f"{reverse('game:match', args=[private_match.pk])}?invite={private_match.invite_token}"
    assert watch in html
    assert outsider_client.get(watch).status_code == 200


def test_it_says_when_the_match_is_no_longer_open(outsider_client, host, private_match):
    cancel_match(private_match, host)
    html = outsider_client.get(invite_url(private_match)).content.decode()
    assert "no longer open" in html
    assert "Join host" not in html


def test_it_offers_anonymous_visitors_login_and_signup_that_come_back(client, private_match):
    html = client.get(invite_url(private_match)).content.decode()
    back = invite_url(private_match).replace("/", "%2F")
    assert f'{reverse("login")}?next={back}' in html
    assert f'{reverse("signup")}?next={back}' in html


def test_it_sends_an_anonymous_post_to_log_in_and_back(client, private_match):
    response = client.post(invite_url(private_match))
    assert response["Location"] == f'{reverse("login")}?next={invite_url(private_match).replace("/", "%2F")}'
    assert fresh(private_match).guest is None


def test_it_answers_404_for_an_unknown_token(guest_client):
    assert guest_client.get(reverse("invite", args=["no-such-token"])).status_code == 404
    assert guest_client.post(reverse("invite", args=["no-such-token"])).status_code == 404


def test_it_enforces_csrf(csrf_client, guest, private_match):
    client = csrf_client(guest)
    assert client.post(invite_url(private_match)).status_code == 403
    assert fresh(private_match).guest is None
    post_with_csrf(client, invite_url(private_match), invite_url(private_match))
    assert fresh(private_match).guest == guest


def test_it_refuses_a_join_past_the_live_limit(guest_client, guest, outsider, private_match):
    seat_at_the_live_limit(guest, outsider)
    response = guest_client.post(invite_url(private_match), follow=True)
    assert "matches at once: finish one first." in response.content.decode()
    assert (fresh(private_match).guest, fresh(private_match).status) == (None, "open")
