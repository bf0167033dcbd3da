"""Cancelling live matches both players walked away from before picking, and open matches nobody
joined in time (``manage.py sweep_matches``, and cheaply on lobby page loads). The decision for each
match is made under its lock, by services.cancel_abandoned and services.expire_open."""
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from . import services, time_controls
from .models import Match

# Lobby page loads sweep at most this often (per cache), so a busy lobby costs one query a minute.
LOBBY_SWEEP_EVERY = 60


def quiet_since():
    return timezone.now() - timedelta(minutes=settings.ABANDONED_MATCH_MINUTES)


def sweep():
    """Cancel every abandoned match and every expired open one; returns their ids."""
    since = quiet_since()
    candidates = Match.objects.filter(status=Match.Status.LIVE, version=0, updated__lt=since)
    # A correspondence match is not abandoned for want of a socket: its first pick may take days,
    # and its clock (no first move: aborted) decides.
    candidates = candidates.exclude(bank_seconds=0, move_seconds__gte=time_controls.DAY)
    abandoned = [pk for pk in candidates.values_list("pk", flat=True) if services.cancel_abandoned(pk, since)]
    # An open match stays listed while it waits for a guest; not for ever (its host may be long gone).
    before = timezone.now() - timedelta(minutes=settings.OPEN_MATCH_MINUTES)
    waiting = Match.objects.filter(status=Match.Status.OPEN, created__lt=before).values_list("pk", flat=True)
    return abandoned + [pk for pk in waiting if services.expire_open(pk, before)]


def sweep_now_and_then():
    """The lobby's cheap check: sweep unless another page load did so within the last minute."""
    if cache.add("game:lobby-sweep", True, LOBBY_SWEEP_EVERY):
        sweep()
