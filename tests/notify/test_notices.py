"""Being told of a correspondence match: when it becomes your move and a day before a deadline, by
mail (to a confirmed address only, with a one-click unsubscribe) and by Web Push (a fake push
service here), each event once however many sweeps find it, never for a match that ended; a send
that fails is tried again, then dropped with a log line."""
import logging

import pytest
from django.core import mail
from django.core.mail import EmailMessage

from game import services
from game.models import Match
from game.programs import runner
from game.time_controls import DAY
from notify import delivery, events, jobs, links
from notify.models import Notice, Preferences
from notify.services import start_verification

from ..game.fake_clock import clock  # noqa: F401 (a fixture)
from ..game.helpers import GUEST_TEAMS, HOST_TEAMS

pytestmark = pytest.mark.django_db


def confirmed(user, email):
    user.email = email
    user.save()
    Preferences.objects.create(user=user, verified_email=email)
    return user


def correspondence(host, guest, days=1):
    return services.join_match(services.create_match(host, move_seconds=days * DAY), guest)


def sweep():
    """What every sweep does (notify/jobs.py), the sending run here rather than in a thread."""
    events.find()
    delivery.deliver_pending()


def test_each_player_is_mailed_once_when_it_becomes_their_move(host, guest, clock):
    confirmed(host, "host@example.com")
    confirmed(guest, "guest@example.com")
    match = correspondence(host, guest)
    # Several processes sweeping: one notice per event, one mail.
    for _ in range(3):
        sweep()
    assert sorted(m.to[0] for m in mail.outbox) == ["guest@example.com", "host@example.com"]
    assert f"/match/{match.pk}/" in mail.outbox[0].body
    mail.outbox.clear()
    clock.at(60)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    sweep()
    # The host's pick is no news to the guest, who owed a pick already.
    assert mail.outbox == []
    clock.at(120)
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    mover = Match.objects.get(pk=match.pk).state["to_move"]
    sweep()
    sweep()
    # The host is told it is their move; the guest, who just picked and is on the page, if they
    # open the round is not.
    assert [m.to[0] for m in mail.outbox] == ([] if mover == 1 else ["host@example.com"])
    mail.outbox.clear()
    # The mover's own assertion leaves it their move: nothing new to tell.
    clock.at(180)
    services.apply_command(match.pk, (host, guest)[mover], "a", 2, {"assert": None})
    sweep()
    assert mail.outbox == []


def test_every_mail_has_a_one_click_unsubscribe_that_works(host, guest, client, clock):
    confirmed(host, "host@example.com")
    correspondence(host, guest)
    sweep()
    (sent,) = mail.outbox
    link = sent.extra_headers["List-Unsubscribe"].strip("<>")
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" and link in sent.body
    # One click from a mail program: a POST with no session and no CSRF token.
    assert client.post(link.removeprefix("http://localhost:8000")).status_code == 200
    assert not Preferences.objects.get(user=host).by_mail
    correspondence(host, guest)
    sweep()
    assert len(mail.outbox) == 1


def test_no_mail_goes_to_an_address_not_confirmed(host, guest, clock):
    host.email = "host@example.com"
    host.save()
    correspondence(host, guest)
    sweep()
    assert mail.outbox == []
    # The notice is in the site all the same.
    assert Notice.objects.filter(user=host, kind="your_move").count() == 1


def test_sign_up_with_an_address_mails_a_link_that_confirms_it(client, clock):
    response = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "a long pass phrase 42", "password2": "a long pass phrase 42",
         "email": "newbie@example.com"},
    )
    assert response.status_code == 302
    sweep()
    (sent,) = mail.outbox
    assert sent.to == ["newbie@example.com"]
    link = next(line for line in sent.body.splitlines() if "/notifications/verify/" in line)
    client.get(link.removeprefix("http://localhost:8000"))
    assert Preferences.objects.get(user__username="newbie").verified_email == "newbie@example.com"


def test_a_link_for_another_address_confirms_nothing(host, client):
    start_verification(host, "new@example.com")
    token = links.verify_token(host.pk, "old@example.com")
    client.get(f"/notifications/verify/{token}/")
    assert not Preferences.objects.filter(user=host, verified_email__gt="").exists()


def test_a_match_that_ended_is_never_told_of(host, guest, clock):
    confirmed(host, "host@example.com")
    match = correspondence(host, guest)
    events.find()
    services.resign(match, guest)
    delivery.deliver_pending()
    events.find()
    assert mail.outbox == []


def test_a_day_before_the_deadline_the_player_is_reminded_once(host, guest, clock):
    confirmed(host, "host@example.com")
    correspondence(host, guest, days=3)
    sweep()
    mail.outbox.clear()
    clock.at(2 * DAY - 60)
    sweep()
    assert mail.outbox == []
    clock.at(2 * DAY + 60)
    sweep()
    clock.at(2 * DAY + 120)
    sweep()
    assert len(mail.outbox) == 1 and "runs out" in mail.outbox[0].subject


def test_a_failing_mail_is_tried_again_then_dropped_with_a_log_line(host, guest, clock, monkeypatch, caplog):
    confirmed(host, "host@example.com")
    correspondence(host, guest)
    tries = []

    def broken(self, fail_silently=False):
        tries.append(self.to)
        raise OSError("SMTP server down")

    monkeypatch.setattr(EmailMessage, "send", broken)
    caplog.set_level(logging.WARNING, logger="notify.delivery")
    for minute in range(10):
        clock.at(minute * 60)
        sweep()
    notice = Notice.objects.get(user=host)
    assert len(tries) == delivery.ATTEMPTS and (notice.mail_due, notice.attempts) == (False, delivery.ATTEMPTS)
    assert f"Dropped notice {notice.pk}" in caplog.text


def test_the_sweep_finds_notices_and_sends_them_off_the_sweep(host, guest, clock, monkeypatch):
    confirmed(host, "host@example.com")
    correspondence(host, guest)
    handed = []
    monkeypatch.setattr(runner, "run_soon", lambda job, *args: handed.append(job))
    runner.swept.send(sender=Match)
    assert handed == [jobs.send_job] and mail.outbox == []
    handed[0]()
    assert len(mail.outbox) == 1


def test_a_live_match_is_told_of_by_nobody(host, guest, clock):
    confirmed(host, "host@example.com")
    services.join_match(services.create_match(host, move_seconds=30), guest)
    sweep()
    assert mail.outbox == [] and not Notice.objects.exists()
