"""Who is on a match's sockets, kept in the database so sockets served by different processes add up.

One row per socket: a spectator's (``seat`` null) or a player's. A row lives as long as its socket,
and the socket refreshes its ``seen`` time every ``HEARTBEAT`` while it is open. A process that dies
without closing its sockets leaves rows behind; they stop being refreshed, so after ``STALE_AFTER``
they no longer count (nobody is shown as connected forever) and are cleared when someone arrives.

When a player's socket closes, its seat keeps one row with ``connected`` off and the time it left,
so the abandoned-match sweep knows how long the seat has been empty.

A built-in level of the computer has no socket: what the frames say of its seat (``counts``) is
always connected, as the page says "The computer is playing". A program playing over the bot socket
counts there while that socket plays the match. ``players`` stays about match sockets only.
"""
from datetime import timedelta

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from ..models import BotConnection, Presence, hold_account
from ..programs.models import BotSeat

HEARTBEAT = timedelta(seconds=60)
STALE_AFTER = timedelta(seconds=180)
# Far longer than any ABANDONED_MATCH_MINUTES worth setting.
FORGET_DEPARTURES_AFTER = timedelta(days=1)


def _fresh():
    return Q(connected=True, seen__gte=timezone.now() - STALE_AFTER)


def arrive(channel_name, match_id, seat=None, user=None, address=""):
    now = timezone.now()
    stale = Q(connected=True) & (Q(seen__lt=now - STALE_AFTER) | Q(seen=None))
    Presence.objects.filter(stale | Q(connected=False, seen__lt=now - FORGET_DEPARTURES_AFTER)).delete()
    user = user if getattr(user, "pk", None) else None
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={"match_id": match_id, "seat": seat, "user": user, "seen": now, "address": address or ""},
    )


def touch(channel_name):
    Presence.objects.filter(channel_name=channel_name).update(seen=timezone.now())


def leave(channel_name):
    row = Presence.objects.filter(channel_name=channel_name).first()
    if row is None:
        return
    if row.seat is not None:
        Presence.objects.update_or_create(
            channel_name=f"left:{row.match_id}:{row.seat}",
            defaults={"match_id": row.match_id, "seat": row.seat, "connected": False, "seen": timezone.now()},
        )
    row.delete()


def counts(match_id):
    """(spectators, [host present, guest present]): what every snapshot, state and presence frame says.

    Spectators are people, not sockets: an account once however many tabs it watches in, and
    anonymous sockets once per client address (one client's many sockets are one viewer). A seat
    is present while it has a live socket, and always when a built-in level plays it: the computer
    never leaves. A program's seat is present while it has a match socket or a bot socket playing
    this match."""
    spectator = Q(seat__isnull=True)
    found = Presence.objects.filter(_fresh(), match_id=match_id).aggregate(
        members=Count("user", distinct=True, filter=spectator),
        anonymous=Count("address", distinct=True, filter=spectator & Q(user__isnull=True)),
        host=Count("pk", filter=Q(seat=0)),
        guest=Count("pk", filter=Q(seat=1)),
    )
    machines = dict(BotSeat.objects.filter(match_id=match_id).values_list("seat", "level"))
    always = {seat for seat, level in machines.items() if level != BotSeat.PROGRAM}
    if BotSeat.PROGRAM in machines.values():
        # Only a match with a program seat pays for this read.
        playing = BotConnection.objects.filter(match_id=match_id, seat__isnull=False, seen__gte=timezone.now() - STALE_AFTER)
        always |= set(playing.values_list("seat", flat=True))
    present = [found["host"] > 0 or 0 in always, found["guest"] > 0 or 1 in always]
    return found["members"] + found["anonymous"], present


def players(match_id):
    """[host connected, guest connected]: whether each seat has at least one live socket."""
    seats = set(Presence.objects.filter(_fresh(), match_id=match_id, seat__isnull=False).values_list("seat", flat=True))
    return [0 in seats, 1 in seats]


def sockets_of(user_id):
    """How many match sockets ``user_id`` has open, over every process."""
    return Presence.objects.filter(_fresh(), user_id=user_id).count()


def sockets_from(address):
    """How many match sockets are open from the client address ``address``, over every process."""
    return Presence.objects.filter(_fresh(), address=address or "").count()


def bot_arrive(channel_name, user_id, limit):
    """Record a bot socket of ``user_id`` unless the account has ``limit`` open already; True if
    recorded. Counted under the account's row lock, so sockets opening at once can't overshoot."""
    now = timezone.now()
    with transaction.atomic():
        hold_account(user_id)
        BotConnection.objects.filter(seen__lt=now - STALE_AFTER).delete()
        if BotConnection.objects.filter(user_id=user_id).count() >= limit:
            return False
        BotConnection.objects.create(channel_name=channel_name, user_id=user_id, seen=now)
    return True


def bot_touch(channel_name):
    BotConnection.objects.filter(channel_name=channel_name).update(seen=timezone.now())


def bot_plays(channel_name, match_id, seat):
    """The bot socket ``channel_name`` now plays ``match_id`` from ``seat`` (None: watches it)."""
    BotConnection.objects.filter(channel_name=channel_name).update(match_id=match_id, seat=seat, seen=timezone.now())


def bot_leave(channel_name):
    BotConnection.objects.filter(channel_name=channel_name).delete()


def player_seen_since(match_id, since):
    """Whether a player socket of the match is open, or was alive (or left) at ``since`` or later."""
    return Presence.objects.filter(match_id=match_id, seat__isnull=False, seen__gte=since).exists()
