"""Which sockets are let in: how often one account, and one client address, may open a socket
(``SOCKET_CONNECT_RATE``, ``SOCKET_CONNECT_RATE_PER_ADDRESS``: connects per window of seconds), and
how many they may have open at once (``MAX_SOCKETS_PER_USER``, ``MAX_SOCKETS_PER_ADDRESS``, over
every process: match sockets and lobby sockets are each held to them, counted from their rows in
the database). docs/protocol.md, "Limits".

A socket costs its opening, not its frames: a match socket reads the match and writes a presence
row, a browser's renders the whole page. Opening and closing one in a loop (343 connects in 20 s
from one client in issue #30) is refused past the rate, before any of that. Counted in the cache,
as sign-ups are (lobby/signups.py): Redis in production, shared by every process. The address is
the one the site trusts (aquawar_site/security.py).
"""
from django.conf import settings

from ..windows import admit, take_back

# The close code of a socket refused for connecting too often: 4000 + HTTP's 429, as the socket caps'
# 4429 is, plus one so a client can tell "wait a little" from "close some tabs".
CLOSE_CODE = 4430
CODE = "too_many_connects"
# The close code of a socket refused for one too many open: 4000 + HTTP's 429 Too Many Requests.
CROWDED_CLOSE_CODE = 4429


def refusal(user, address):
    """Count one more connect for ``user`` (if logged in) and ``address``: None, or the message
    that refuses it (then nothing is counted)."""
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    limit, seconds = settings.SOCKET_CONNECT_RATE
    account_key = f"connects:user:{user_id}"
    if user_id is not None and not admit(account_key, settings.SOCKET_CONNECT_RATE):
        return f"Too many connects: at most {limit} per {seconds} seconds for an account. Wait, then reconnect."
    address_limit, address_seconds = settings.SOCKET_CONNECT_RATE_PER_ADDRESS
    if not admit(f"connects:address:{address or ''}", settings.SOCKET_CONNECT_RATE_PER_ADDRESS):
        if user_id is not None:
            take_back(account_key)
        return (
            f"Too many connects: at most {address_limit} per {address_seconds} seconds from one address. "
            "Wait, then reconnect."
        )
    return None


def crowded(user, address, open_of, open_from, what):
    """Why one more socket is refused, or None: ``open_of(user_id)`` and ``open_from(address)``
    count the sockets (``what``, for the message) already open."""
    limit = settings.MAX_SOCKETS_PER_USER
    if getattr(user, "is_authenticated", False) and open_of(user.pk) >= limit:
        return f"You have {limit} {what} open already: close some tabs first."
    limit = settings.MAX_SOCKETS_PER_ADDRESS
    if open_from(address) >= limit:
        return f"Your address has {limit} {what} open already: close some tabs first."
    return None
