import pytest
from django.urls import reverse
from django.utils import translation

from game.models import Match
from game.limits import MAX_LIVE_MATCHES
from game.services import cancel_match
from tests.game.helpers import seat_at_the_live_limit

from .helpers import fresh, post_with_csrf

pytestmark = pytest.mark.django_db


def join_url(match):
    return reverse("match_join", args=[match.pk])


def test_it_seats_you_as_guest_and_takes_you_to_the_match(guest_client, guest, open_match):
    response = guest_client.post(join_url(open_match))
    assert response.status_code == 302
    assert response["Location"] == reverse("game:match", args=[open_match.pk])
    match = fresh(open_match)
    assert (match.guest, match.status) == (guest, "live")


def test_it_refuses_to_let_you_join_your_own_match(host_client, open_match):
    response = host_client.post(join_url(open_match), follow=True)
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert fresh(open_match).guest is None
    assert fresh(open_match).status == "open"
    assert list(response.context["messages"])


def test_it_refuses_a_second_guest_and_keeps_the_first(guest_client, outsider_client, guest, open_match):
    guest_client.post(join_url(open_match))
    response = outsider_client.post(join_url(open_match), follow=True)
    assert fresh(open_match).guest == guest
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert list(response.context["messages"])


def test_it_refuses_the_same_guest_joining_twice(guest_client, guest, open_match):
    guest_client.post(join_url(open_match))
    response = guest_client.post(join_url(open_match), follow=True)
    assert fresh(open_match).guest == guest
    assert fresh(open_match).status == "live"
    assert response.status_code == 200


def test_it_refuses_a_cancelled_match(guest_client, host, open_match):
    cancel_match(open_match, host)
    response = guest_client.post(join_url(open_match), follow=True)
    assert fresh(open_match).guest is None
    assert fresh(open_match).status == "cancelled"
    assert list(response.context["messages"])


def test_a_private_match_does_not_exist_for_outsiders(guest_client, private_match):
    # Without its invite link a private match answers exactly as an id that was never used.
    response = guest_client.post(join_url(private_match))
    unknown = guest_client.post(reverse("match_join", args=[private_match.pk + 1000]))
    assert response.status_code == unknown.status_code == 404
    assert response.content == unknown.content
    assert fresh(private_match).guest is None


def test_the_host_of_a_private_match_is_told_to_use_the_link(host_client, private_match):
    response = host_client.post(join_url(private_match), follow=True)
    assert "invite link" in response.content.decode()


def test_it_answers_404_for_an_unknown_match(guest_client):
    assert guest_client.post(reverse("match_join", args=[999999])).status_code == 404
    assert guest_client.post("/match/not-a-number/join").status_code == 404


def test_it_sends_anonymous_visitors_to_log_in(client, open_match):
    response = client.post(join_url(open_match))
    assert response["Location"].startswith(reverse("login"))
    assert fresh(open_match).guest is None


def test_it_only_accepts_post(guest_client, open_match):
    assert guest_client.get(join_url(open_match)).status_code == 405
    assert fresh(open_match).guest is None


def test_it_enforces_csrf(csrf_client, guest, open_match):
    client = csrf_client(guest)
    assert client.post(join_url(open_match)).status_code == 403
    assert fresh(open_match).guest is None
    response = post_with_csrf(client, reverse("lobby"), join_url(open_match))
    assert response.status_code == 302
    assert fresh(open_match).guest == guest


def test_it_never_joins_a_match_that_is_not_open(guest_client, host, guest):
    match = Match.objects.create(host=host, status="finished", winner=0)
    guest_client.post(join_url(match))
    assert fresh(match).guest is None


def test_it_refuses_a_join_past_the_live_limit_with_the_reason(guest_client, guest, outsider, open_match):
    seat_at_the_live_limit(guest, outsider)
    response = guest_client.post(join_url(open_match), follow=True)
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert f"You already play {MAX_LIVE_MATCHES} matches at once: finish one first." in response.content.decode()
    assert (fresh(open_match).guest, fresh(open_match).status) == (None, "open")
    # The middleware switches this thread's language: put it back for the tests that follow.
    with translation.override(None):
        zh = guest_client.post(join_url(open_match), follow=True, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert f"你已经在同时进行 {MAX_LIVE_MATCHES} 场对局" in zh.content.decode()
