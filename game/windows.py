"""Counting in windows of seconds, in the shared cache (Redis in production, so every process counts
alike): how often an address signs up (lobby/signups.py), an account makes matches (game/limits.py),
an account or an address opens sockets (game/live/connects.py). A window starts with its first count
and ends ``seconds`` later."""
from django.core.cache import cache


def count_one(key, seconds):
    """One more in ``key``'s window (started, lasting ``seconds``, if there is none); the count with it."""
    # add() starts the window; incr() keeps its expiry and is atomic on Redis, so two processes
    # never both take the last place.
    if cache.add(key, 1, timeout=seconds):
        return 1
    try:
        return cache.incr(key)
    except ValueError:
        # The window ended between the two calls.
        return count_one(key, seconds)


def take_back(key):
    try:
        cache.decr(key)
    except ValueError:
        pass  # the window ended meanwhile: nothing left to take back


def admit(key, rate):
    """Count one more in ``key``'s window (``rate``: (at most, per seconds)): False, and nothing
    counted, if the window is full."""
    limit, seconds = rate
    if count_one(key, seconds) <= limit:
        return True
    take_back(key)
    return False
