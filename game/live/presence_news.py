"""Presence news, coalesced: a match's sockets are rung about comings and goings at most once per
``PRESENCE_NEWS_SECONDS`` (settings), over every process.

Every ring makes every socket on the match count its viewers and send the count (a browser's
redraws two parts of its page), so one viewer opening and closing a socket in a loop used to ring
each of the others twice per loop (issue #30: 686 frames to each of 10 viewers in 20 s). Now the
first change in a window rings at once; the changes after it, however many, are told by one ring
at the window's end, which counts them all. Both marks live in the cache (Redis in production), so
the windows hold whichever process the sockets are on.

The late ring is a task of the process that took it on. If that process dies first, the ring is
lost like any doorbell: the counts catch up at the next presence news, and a JSON client's
``state`` frames recount within ``fanout.PRESENCE_TTL`` anyway.
"""
import asyncio

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.cache import cache

from .groups import match_group, presence_ring

NOW = "now"
LATER = "later"
# Late rings waiting in this process: kept so they are not collected before they ring.
_waiting = set()


def _rung_key(match_id):
    return f"presence-news:rung:{match_id}"


def _due_key(match_id):
    return f"presence-news:due:{match_id}"


def claim(match_id):
    """What to do about a presence change of ``match_id`` just written: ``NOW`` (ring it), ``LATER``
    (this process rings at the window's end), or None (a ring due at the window's end will count
    it). Call it after the change is written, from a database call (the cache may be Redis)."""
    seconds = settings.PRESENCE_NEWS_SECONDS
    if seconds <= 0 or cache.add(_rung_key(match_id), 1, timeout=seconds):
        return NOW
    # The due mark outlives its ring's wait, so that a process dying before it rings frees the
    # match's late ring for another after a while.
    if cache.add(_due_key(match_id), 1, timeout=seconds * 3):
        return LATER
    return None


def _ring_late(match_id):
    """Starts the next window and lets the next change after it take on a late ring again."""
    cache.set(_rung_key(match_id), 1, timeout=settings.PRESENCE_NEWS_SECONDS)
    cache.delete(_due_key(match_id))


async def ring(layer, match_id, claimed, origin=None):
    """Act on what ``claim`` said: ring the match's sockets now (``origin``: the arriving socket,
    which needs no news of itself), or at the window's end."""
    if claimed == NOW:
        await layer.group_send(match_group(match_id), presence_ring(origin))
    elif claimed == LATER:
        task = asyncio.create_task(_later(layer, match_id))
        _waiting.add(task)
        task.add_done_callback(_waiting.discard)


async def _later(layer, match_id):
    await asyncio.sleep(settings.PRESENCE_NEWS_SECONDS)
    await database_sync_to_async(_ring_late)(match_id)
    # No origin: every socket counts again, whoever arrived meanwhile included.
    await layer.group_send(match_group(match_id), presence_ring())
