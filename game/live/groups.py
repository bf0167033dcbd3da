"""The channel layer's groups, and the only news sent to them from outside a socket: that something
changed (a match's doorbell, its presence) or that a person has somewhere to be (their lobby
sockets). Never state or events: the database is the source of truth, and a socket that hears a
ring reads it there (docs/protocol.md).
"""
import asyncio
import logging
import os
import secrets

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def match_group(match_id):
    return f"match-{match_id}"


def watchers_group(match_id):
    """The match's sockets that hold no seat in it when they connect (spectators): the news meant for
    them alone, a fresh win-chance estimate, goes there, so the players' sockets are not each handed
    a message they could only throw away."""
    return f"match-{match_id}-watching"


def new_ring():
    """A name for one ring, unique to it."""
    return secrets.token_hex(8)


def ring_doorbell(match_id, version, ring=None):
    """Tell every socket on the match that it may be behind. Carries no state and no events; ``ring``
    names this ring (a new name if None), so the sockets of one process can share one read made
    after it (game/fanout.py)."""
    send(match_group(match_id), {"type": "match.changed", "version": version, "ring": ring or new_ring()})


def presence_ring(origin=None):
    """The message that tells a match's sockets its presence changed: ``origin`` (a socket that
    needs no news of itself), and ``ring`` naming this ring, so the sockets of one process count
    once for it (game/fanout.py)."""
    return {"type": "presence.changed", "origin": origin, "ring": new_ring()}


def ring_presence(match_id):
    send(match_group(match_id), presence_ring())


def send(group, message):
    soon(get_channel_layer().group_send, group, message, failed=_rang)


# Sends started on the event loop and not waited for, kept so that the loop does not drop them half done.
_sending = set()


def soon(send_with, *args, failed):
    """``send_with(*args)``, a coroutine function of the channel layer's, without waiting for it
    where that can be helped: on the event loop (a move written from it) as a task of its own; from
    a socket's database call, i.e. on the process's one database thread, handed to the event loop,
    so that the thread goes on with the other sockets' work instead of waiting for Redis; elsewhere
    (a worker thread, a command) waited for. ``failed``: the done callback that logs a failure of
    a send not waited for."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    if loop is not None:
        task = loop.create_task(send_with(*args))
        _sending.add(task)
        task.add_done_callback(_sending.discard)
        task.add_done_callback(failed)
        return
    loop = socket_loop()
    if loop is None:
        async_to_sync(send_with)(*args)
        return
    asyncio.run_coroutine_threadsafe(send_with(*args), loop).add_done_callback(failed)


def socket_loop():
    """The event loop whose database call this thread is running, if it is one (asgiref's record):
    work for the channel layer handed to it does not hold up the process's one database thread."""
    local = SyncToAsync.threadlocal
    loop = getattr(local, "main_event_loop", None)
    if loop is None or getattr(local, "main_event_loop_pid", None) != os.getpid() or loop.is_closed():
        return None
    return loop


def _rang(future):
    if not future.cancelled() and future.exception() is not None:
        # As with on_commit(robust=True): the change is committed; the sockets catch up at the next ring.
        logger.warning("Ringing a match's doorbell failed", exc_info=future.exception())


def user_group(user_id):
    """The channel-layer group of one account's lobby sockets (lobby/consumers.py)."""
    return f"user-{user_id}"


def tell_user(user_id, message):
    """Send ``message`` to every lobby socket of ``user_id``; lost if none is open (nobody waits)."""
    send(user_group(user_id), message)
