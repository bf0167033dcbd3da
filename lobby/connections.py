"""The lobby sockets that are open, kept in the database so the socket caps hold over every process
(``MAX_SOCKETS_PER_USER``, ``MAX_SOCKETS_PER_ADDRESS``, the same as a match socket's, counted
apart from them). Kept fresh and aged as presence rows are (game/live/presence.py)."""
from django.db import transaction
from django.utils import timezone

from game.live import connects
from game.live.presence import STALE_AFTER
from game.models import hold_account

from .models import LobbyConnection


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
