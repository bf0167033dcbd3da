"""The notification settings page: each person chooses mail, push and the site; a new address is
mailed a confirmation link and gets nothing else until it is opened."""
import pytest
from django.core import mail

from game import services
from game.time_controls import DAY
from notify import delivery, events, links
from notify.models import Preferences

pytestmark = pytest.mark.django_db

PAGE = "/accounts/notifications/"


def test_a_person_chooses_how_to_be_told(host, host_client):
    host_client.post(PAGE, {"email": "", "by_push": "on", "in_site": "on"})
    chosen = Preferences.objects.get(user=host)
    assert (chosen.by_mail, chosen.by_push, chosen.in_site) == (False, True, True)


def test_a_new_address_is_sent_a_confirmation_link_and_shown_unconfirmed(host, host_client):
    host_client.post(PAGE, {"email": "me@example.com", "by_mail": "on", "in_site": "on"})
    host.refresh_from_db()
    assert host.email == "me@example.com"
    assert "Not confirmed yet" in host_client.get(PAGE).content.decode()
    # Saved again before confirming (the link lost): another link.
    host_client.post(PAGE, {"email": "me@example.com", "by_mail": "on", "in_site": "on"})
    delivery.deliver_pending()
    assert len(mail.outbox) == 2
    sent = mail.outbox[-1]
    assert sent.to == ["me@example.com"] and "/notifications/verify/" in sent.body
    link = next(line for line in sent.body.splitlines() if "/notifications/verify/" in line)
    host_client.get(link.removeprefix("http://localhost:8000"))
    assert "This address is confirmed." in host_client.get(PAGE).content.decode()
    # Once confirmed, saving the settings mails nothing.
    host_client.post(PAGE, {"email": "me@example.com", "in_site": "on"})
    delivery.deliver_pending()
    assert len(mail.outbox) == 2


def test_a_bad_address_is_refused_and_changes_nothing(host, host_client):
    response = host_client.post(PAGE, {"email": "not an address", "by_mail": "on"}, follow=True)
    assert "Enter a valid e-mail address." in response.content.decode()
    host.refresh_from_db()
    assert host.email == "" and not Preferences.objects.exists()


def test_a_visitor_is_asked_to_log_in(client):
    assert client.get(PAGE)["Location"].startswith("/accounts/login/")


def test_the_site_shows_each_notice_once_unless_turned_off(host, guest, host_client, guest_client):
    match = services.join_match(services.create_match(host, move_seconds=DAY), guest)
    events.find()
    line = f"Your move in match #{match.pk}"
    assert line in host_client.get("/games/").content.decode()
    assert line not in host_client.get("/games/").content.decode()
    guest_client.post(PAGE, {"email": "", "by_mail": "on"})
    assert line not in guest_client.get("/games/").content.decode()


def test_opening_an_unsubscribe_link_asks_before_it_unsubscribes(host, client):
    link = f"/notifications/unsubscribe/{links.unsubscribe_token(host.pk)}/"
    # A mail scanner following the link changes nothing.
    assert 'method="post"' in client.get(link).content.decode()
    assert not Preferences.objects.filter(user=host, by_mail=False).exists()
    assert client.post("/notifications/unsubscribe/forged/").status_code == 400
