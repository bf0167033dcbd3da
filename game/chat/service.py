"""Posting, reading and muting chat. Every check is here: who may write where, the length, the rate.

Rooms: a player of the match writes to ``players``, anyone else (logged in) to ``spectators``. Until
the match is finished each viewer reads only their own room, so nothing the spectators say reaches
the players during the match (nor the players' words the spectators); once it is finished,
everyone reads both (a cancelled or aborted match keeps them apart, as it keeps its secrets). A message is plain text: it is stored as written and escaped wherever it is
shown. It carries nothing of the game: no view, no event, only who wrote what and when.
"""
import re
import secrets
import unicodedata
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Match, hold_account
from ..live.groups import match_group, send
from ..services import ServiceError
from .models import MAX_LENGTH, ChatMessage, ChatMute

# How many of the newest messages a page or a hello shows.
SHOWN = 100
# Line breaks and tabs become spaces: a message is one line.
SPACES = {"\n": " ", "\r": " ", "\t": " "}
# What Django's username validator allows, at most as long as a username may be: anything else names
# nobody, and some of it (NUL) PostgreSQL refuses to be sent at all.
USERNAME = re.compile(r"[\w.@+-]{1,150}")


def room_of(seat):
    return ChatMessage.PLAYERS if seat is not None else ChatMessage.SPECTATORS


def rooms_for(status, seat):
    """The rooms a viewer in ``seat`` (None: not a player) reads while the match has ``status``."""
    # When everything of the match may be shown (frames.audience_for: "all"), so may both rooms.
    if status == Match.Status.FINISHED:
        return (ChatMessage.PLAYERS, ChatMessage.SPECTATORS)
    return (room_of(seat),)


def clean(text):
    """The message as it will be stored, or a ServiceError saying what is wrong with it."""
    if not isinstance(text, str):
        raise ServiceError("bad_field", _("A chat message is text."))
    text = "".join(SPACES.get(char, char) for char in unicodedata.normalize("NFC", text)).strip()
    if not text:
        raise ServiceError("empty_message", _("Write something first."))
    if len(text) > MAX_LENGTH:
        raise ServiceError(
            "too_long", _("A chat message may be at most %(count)d characters long.") % {"count": MAX_LENGTH}
        )
    # Control characters (NUL cannot even be stored in PostgreSQL) and lone surrogates are no text.
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in text):
        raise ServiceError("bad_field", _("That message holds characters that are not text."))
    return text


def check_rate(written):
    """Refuses a message if ``written`` (the author's messages where it would go, each with its
    ``created``) holds as many as ``CHAT_RATE`` allows in its window; the caller holds the author's
    row lock (``hold_account``) until the message is stored."""
    limit, window = settings.CHAT_RATE
    since = timezone.now() - timedelta(seconds=window)
    if written.filter(created__gte=since).count() >= limit:
        raise ServiceError(
            "chat_rate_limited",
            _("You are chatting too fast: at most %(count)d messages in %(seconds)d seconds. Wait a moment.")
            % {"count": limit, "seconds": window},
        )


def post(match, user, text):
    """Store ``user``'s message in their room of ``match`` (a Match they may watch) and ring every
    socket on the match; returns the message."""
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required", _("Log in to chat."))
    text = clean(text)
    with transaction.atomic():
        # Counted and stored under the author's row lock: posts sent at once wait for each other
        # here, so they can't all count the same messages and each take the last place.
        hold_account(user.pk)
        check_rate(ChatMessage.objects.filter(match_id=match.pk, user=user))
        message = ChatMessage.objects.create(match_id=match.pk, user=user, room=room_of(match.seat_of(user)), text=text)
        # Like the doorbell, the ring carries no text: each socket reads what its viewer may (``ring``
        # names it, so the sockets of a process share one read of the match, game/live/fanout.py).
        ring = {"type": "chat.posted", "id": message.pk, "room": message.room, "ring": secrets.token_hex(8)}
        transaction.on_commit(partial(send, match_group(match.pk), ring), robust=True)
    return message


def muted_ids(user):
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True))


def lines(match_id, status, seat, user, message_id=None):
    """The newest messages ``user`` (in ``seat``) may read now, oldest first, as dicts; only
    ``message_id`` if given (none if they may not read it). Muted authors are left out."""
    rows = ChatMessage.objects.filter(match_id=match_id, room__in=rooms_for(status, seat))
    rows = rows.exclude(user_id__in=muted_ids(user))
    if message_id is not None:
        rows = rows.filter(pk=message_id)
    newest = rows.select_related("user").order_by("-pk")[:SHOWN]
    mine = getattr(user, "pk", None)
    return [
        {
            "id": row.pk,
            "room": row.room,
            "user": row.user.username,
            "text": row.text,
            "time": int(row.created.timestamp() * 1000),
            "mine": row.user_id == mine,
        }
        for row in reversed(newest)
    ]


def mute(user, username, on=True):
    """``user`` stops (``on``) or starts again reading ``username``'s messages."""
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required", _("Log in to chat."))
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise ServiceError("bad_username", _("That is not a user name."))
    target = get_user_model().objects.filter(username=username).first()
    if target is None:
        raise ServiceError("no_user", _("There is no such player."))
    if target.pk == user.pk:
        raise ServiceError("own_mute", _("You can't mute yourself."))
    if on:
        ChatMute.objects.get_or_create(user=user, muted=target)
    else:
        ChatMute.objects.filter(user=user, muted=target).delete()


def muted_names(user):
    if not getattr(user, "is_authenticated", False):
        return []
    return sorted(ChatMute.objects.filter(user=user).values_list("muted__username", flat=True))


def box(match, seat, user, message_id=None):
    """The chat box's context for a viewer in ``seat``: only ``message_id``'s line if given."""
    rooms = rooms_for(match.status, seat)
    return {
        "match": match.pk,
        "room": room_of(seat),
        "both": len(rooms) == 2,
        "lines": lines(match.pk, match.status, seat, user, message_id),
        "can_post": bool(getattr(user, "is_authenticated", False)),
        "muted": muted_names(user) if message_id is None else [],
        "max_length": MAX_LENGTH,
    }
