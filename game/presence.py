"""Spectator counts kept in the database, so sockets served by different processes add up.

A row lives as long as its socket. A process that dies without closing its sockets leaves rows
behind, so rows older than a day are not counted and are cleared when someone arrives: a socket that
old is far more likely such a leftover than a viewer (proxies close idle sockets much sooner).
"""
from datetime import timedelta

from django.utils import timezone

from .models import Presence

STALE_AFTER = timedelta(days=1)


def arrive(channel_name, match_id):
    Presence.objects.filter(created__lt=timezone.now() - STALE_AFTER).delete()
    Presence.objects.update_or_create(channel_name=channel_name, defaults={"match_id": match_id})


def leave(channel_name):
    Presence.objects.filter(channel_name=channel_name).delete()


def spectators(match_id):
    return Presence.objects.filter(match_id=match_id, created__gte=timezone.now() - STALE_AFTER).count()
