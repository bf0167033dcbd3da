"""Whether the login a socket was opened with still holds (issue #30, item 10).

A socket is authenticated once, when it connects, from the session cookie. A logout, or a password
change elsewhere (which ends every other session of the account: Django's session auth hash), used
to leave it working. Now each socket keeps its ``Login`` and asks it before every command
(``holds``): one cache read while nothing has changed for the account. A logout or a password
change gives the account a new *session version* in the cache and rings the account's sockets
(``sessions_group``) so listening ones ask at once; a socket that finds the version changed reads
its session and the account again (two queries, only then) and is closed if the login ended. The
heartbeat asks too, so a lost ring costs at most a heartbeat. A version missing from the cache
(Redis restarted, an entry evicted) counts as changed: the database decides.

A move written in one statement from the row its socket's process has (PostgreSQL,
``services.apply_known``) skips the cache read: the statement itself asks the database what
``_in_database`` asks (``Login.written_while``), and only if it writes nothing is the login checked
as above before the locked path.
"""
import asyncio
import secrets
from importlib import import_module

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils.crypto import constant_time_compare

from ..services import WhileLoggedIn
from .groups import send
from .presence import HEARTBEAT

# The socket's login ended (logout, or the password changed elsewhere); the page reconnects with
# whatever login the browser has now (4000 + HTTP's 401).
CLOSE_CODE = 4401
ENDED = "Your login has ended (logged out, or the password was changed): reconnect."


class Ended(Exception):
    """The socket's login has ended: close it."""


def sessions_group(user_id):
    """The channel-layer group of every socket (match and lobby) logged in as ``user_id``."""
    return f"sessions-{user_id}"


def _version_key(user_id):
    return f"sessions:version:{user_id}"


def _current_version(user_id):
    """The account's session version, made if the cache has none."""
    key = _version_key(user_id)
    cache.add(key, secrets.token_hex(8), timeout=None)
    return cache.get(key)


def login_changed(user_id):
    """Give the account a new session version and ring its sockets to check their login."""
    cache.set(_version_key(user_id), secrets.token_hex(8), timeout=None)
    send(sessions_group(user_id), {"type": "session.changed"})


class Login:
    """The login of a socket's ``scope``; build it in a database call (the session may load)."""

    def __init__(self, scope):
        user = scope.get("user")
        self.user_id = user.pk if getattr(user, "is_authenticated", False) else None
        session = scope.get("session")
        self.session_key = getattr(session, "session_key", None)
        self.auth_hash = session.get(HASH_SESSION_KEY) if self.user_id is not None else None
        # None: the first ``holds`` reads the database. The session was checked when the socket
        # connected, but a logout between that check and this socket's first version read would
        # otherwise go unseen: the consumer asks ``holds`` once as it admits the socket.
        self.version = None
        # The account's password hash as the database had it when the login was last found to
        # hold: what the session's auth hash is made from (``written_while``).
        self.password = None

    def holds(self):
        """True while the login holds (always, for an anonymous socket). Sync: from a database call."""
        if self.user_id is None:
            return True
        current = cache.get(_version_key(self.user_id))
        if current is not None and current == self.version:
            return True
        # Read before the database, so a change made while it is read is seen at the next check.
        current = _current_version(self.user_id)
        if not self._in_database():
            return False
        self.version = current
        return True

    def _in_database(self):
        """The session still exists, is this account's, and its auth hash is the account's now (a
        password change makes a new one: django.contrib.auth.get_user's rule)."""
        store = import_module(settings.SESSION_ENGINE).SessionStore(self.session_key)
        session = store.load() if self.session_key else {}
        if session.get(SESSION_KEY) != str(self.user_id):
            return False
        user = get_user_model().objects.filter(pk=self.user_id, is_active=True).first()
        holds = (
            user is not None
            and self.auth_hash is not None
            and constant_time_compare(session.get(HASH_SESSION_KEY, ""), self.auth_hash)
            and constant_time_compare(self.auth_hash, user.get_session_auth_hash())
        )
        self.password = user.password if holds else None
        return holds

    def written_while(self):
        """``services.WhileLoggedIn`` for this login (None if anonymous, or never found to hold): a
        write conditioned on it happens only while the session exists, unexpired, and the account is
        active with the password the session's auth hash was made from — what ``holds`` asks of
        the database, asked by the write itself, so a command needs no cache read first."""
        if self.user_id is None or self.password is None or not self.session_key:
            return None
        return WhileLoggedIn(self.session_key, self.user_id, self.password)

    def check(self):
        """Raise ``Ended`` unless the login holds."""
        if not self.holds():
            raise Ended


def on_logout(sender, request, user, **kwargs):
    """``user_logged_out``: sent before Django deletes the session, so it is deleted here first and
    the sockets that check at the ring find it gone."""
    if user is None:
        return
    request.session.delete(request.session.session_key)
    login_changed(user.pk)


def on_user_saved(sender, instance, created, **kwargs):
    """``post_save`` of the user model: a new password (``set_password`` was called) ends the
    account's other sessions; their sockets are told once it is committed."""
    if not created and getattr(instance, "_password", None) is not None:
        transaction.on_commit(lambda: login_changed(instance.pk), robust=True)


class SessionSocket:
    """The login half of a socket: a mixin of the match and the lobby socket. The consumer sets
    ``login`` (a ``Login``, built in a database call) once it admits the socket, then calls
    ``join_sessions`` and starts ``heartbeat``; ``leave_sessions`` when it disconnects. Its database
    calls for commands run through ``checked``, and ``login_ended`` closes it. It defines ``beat``:
    the heartbeat's database call."""

    login = None

    async def join_sessions(self):
        if self.login is not None and self.login.user_id is not None:
            await self.channel_layer.group_add(sessions_group(self.login.user_id), self.channel_name)

    async def leave_sessions(self):
        if self.login is not None and self.login.user_id is not None:
            await self.channel_layer.group_discard(sessions_group(self.login.user_id), self.channel_name)

    def checked(self, call):
        """``call``, run only while the login holds (else ``Ended``): for a database call."""

        def run(*args):
            self.login.check()
            return call(*args)

        return run

    async def heartbeat(self):
        """Every ``HEARTBEAT``, ``beat()``: it refreshes the socket's row and says whether the login
        holds (in case the ring that it ended was lost); the socket is closed when it does not."""
        while True:
            await asyncio.sleep(HEARTBEAT.total_seconds())
            if not await database_sync_to_async(self.beat)():
                await self.login_ended()
                return

    async def session_changed(self, message):
        """A logout or a password change of the account: close this socket if its login ended."""
        if not await database_sync_to_async(self.login.holds)():
            await self.login_ended()

    async def login_ended(self):
        await self.close(code=CLOSE_CODE)
