"""The 三国 games' share of every sweep (``game.programs.runner.swept``): close each phase whose
deadline has passed, then find what people must be told (sanguo/notices.py). Phase deadlines are
rows in the database, so a restart or a deploy loses none: the next sweep of any process closes
what fell due meanwhile."""
from django.utils import timezone

from . import notices, services
from .models import Game


def close_due_phases(now=None):
    """Close every due phase; returns the ids of the games that moved."""
    now = now or timezone.now()
    due = Game.objects.filter(status=Game.Status.LIVE, deadline__lte=now).values_list("pk", flat=True)
    return [pk for pk in list(due) if services.close_due(pk) is not None]


def on_sweep(sender, **kwargs):
    close_due_phases()
    notices.find()
