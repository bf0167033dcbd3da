"""API tokens for programs: made once, stored as a digest, looked up by digest.

A token is ``aqw_`` plus 32 random bytes (URL-safe base64). The database keeps its SHA-256 and its
first characters (``prefix``), so the owner can tell tokens apart; nobody, the owner included, can
read a token back. A fast hash is right here: the secret is random, not a password to brute-force.
"""
import hashlib
import secrets

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import hold_account
from ..services import ServiceError
from .models import ApiToken

PREFIX = "aqw_"
SHOWN = len(PREFIX) + 6
MAX_TOKENS = 10
# Generous for "aqw_" + 43 characters; longer input is refused before it is hashed.
MAX_TOKEN_LENGTH = 100


def digest(token):
    return hashlib.sha256(token.encode()).hexdigest()


def create(user, name):
    """(ApiToken, the token itself): the only moment the token exists in the clear. At most
    ``MAX_TOKENS`` per account, counted here, where every token is made."""
    token = PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        hold_account(user.pk)
        if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
            raise ServiceError("too_many_tokens", _("You have %(count)d tokens: revoke one first.") % {"count": MAX_TOKENS})
        row = ApiToken.objects.create(user=user, name=name, prefix=token[:SHOWN], digest=digest(token))
    return row, token


def revoke(user, token_id):
    """Delete one of ``user``'s tokens; False if they have no such token."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if deleted:
        _tell_sockets(user.pk)
    return bool(deleted)


def revoke_all(user):
    """Delete every token of ``user`` (offered with a password change); how many there were."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    if deleted:
        _tell_sockets(user.pk)
    return deleted


def _tell_sockets(user_id):
    """Ring the account's bot sockets once the deletion commits: each one opened with a token that is
    gone closes (game/programs/socket.py), as a browser's socket closes with its session."""

    def ring():
        # Named here, not imported: the socket module imports this one.
        group = f"bot-user-{user_id}"
        async_to_sync(get_channel_layer().group_send)(group, {"type": "bot.token_revoked"})

    transaction.on_commit(ring, robust=True)


def user_for(token):
    """The active user a token belongs to, or None (unknown, revoked, malformed, or inactive user)."""
    row = row_for(token)
    return row.user if row is not None else None


def row_for(token):
    """The ``ApiToken`` of ``token`` (its user loaded), or None (unknown, revoked, malformed, or
    inactive user); marks it used."""
    if not isinstance(token, str) or not token.startswith(PREFIX) or len(token) > MAX_TOKEN_LENGTH:
        return None
    row = ApiToken.objects.select_related("user").filter(digest=digest(token)).first()
    if row is None or not row.user.is_active:
        return None
    ApiToken.objects.filter(pk=row.pk).update(last_used=timezone.now())
    return row


def exists(token_id):
    return ApiToken.objects.filter(pk=token_id).exists()
