"""Several processes sweeping at the same moment (threads here, each with its own connection): one
notice per event, one mail per notice."""
import pytest
from django.core import mail

from game import services
from game.time_controls import DAY
from notify import delivery, events
from notify.models import Notice, Preferences

from ..game.test_services import race

pytestmark = pytest.mark.django_db(transaction=True)


def sweep():
    events.find()
    delivery.deliver_pending()


def test_sweeps_racing_make_one_notice_and_send_one_mail(host, guest):
    host.email = "host@example.com"
    host.save()
    Preferences.objects.create(user=host, verified_email=host.email)
    services.join_match(services.create_match(host, move_seconds=DAY), guest)
    race(sweep, sweep, sweep, sweep)
    sweep()
    assert Notice.objects.filter(user=host).count() == 1
    assert [m.to for m in mail.outbox] == [["host@example.com"]]
