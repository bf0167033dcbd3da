"""The lobby sockets that are open, kept in the database so the socket caps hold over every process
(``MAX_SOCKETS_PER_USER``, ``MAX_SOCKETS_PER_ADDRESS``, the same as a match socket's, counted
apart from them). Kept fresh and aged as presence rows are (game/live/presence.py)."""
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from game.live import connects
from game.live.presence import STALE_AFTER
from game.models import BotConnection, Presence, hold_account

from .models import LobbyConnection

ONLINE_KEY = "lobby:online"
# The lobby's "online now" is read on every view and poll of it: counted once in this long, by
# whichever request finds the count gone, and shared by every process through the cache.
ONLINE_FOR = 30


def _fresh():
    return LobbyConnection.objects.filter(seen__gte=timezone.now() - STALE_AFTER)


def arrive(channel_name, user, address):
    """Record the lobby socket ``channel_name`` of ``user`` from ``address``: None, or why it is
    refused (too many open), and then nothing is recorded. Counted with the account's row held, so
    sockets opening at once can't all take its last place."""
    now = timezone.now()
    with transaction.atomic():
        hold_account(user.pk)
        LobbyConnection.objects.filter(seen__lt=now - STALE_AFTER).delete()
        crowded = connects.crowded(
            user,
            address,
            lambda user_id: _fresh().filter(user_id=user_id).count(),
            lambda where: _fresh().filter(address=where or "").count(),
            "lobby sockets",
        )
        if crowded is None:
            LobbyConnection.objects.create(channel_name=channel_name, user=user, address=address or "", seen=now)
    return crowded


def touch(channel_name):
    LobbyConnection.objects.filter(channel_name=channel_name).update(seen=timezone.now())


def leave(channel_name):
    LobbyConnection.objects.filter(channel_name=channel_name).delete()


def online_count():
    """How many accounts have a socket open: the lobby's, a match's (players and logged-in
    spectators) or a program's bot socket, each account once. Counted at most every ``ONLINE_FOR``
    seconds (the cache), so the lobby's polls never add up to a query each."""
    count = cache.get(ONLINE_KEY)
    if count is None:
        since = timezone.now() - STALE_AFTER
        users = set(_fresh().values_list("user_id", flat=True).distinct())
        users |= set(
            Presence.objects.filter(connected=True, seen__gte=since, user__isnull=False)
            .values_list("user_id", flat=True)
            .distinct()
        )
        users |= set(BotConnection.objects.filter(seen__gte=since).values_list("user_id", flat=True).distinct())
        count = len(users)
        cache.set(ONLINE_KEY, count, ONLINE_FOR)
    return count
