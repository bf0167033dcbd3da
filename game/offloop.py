"""Work tried on the event loop first, and on the process's database thread only if it must read.

A hop to the database thread (asgiref's ``database_sync_to_async``) costs about 115 us of CPU on an
idle machine, and more under load, whether or not the work it carries reads anything: most of a
change's fan-out needs nothing but what the process already keeps (game/live/fanout.py). Such work
runs under ``attempt()`` on the loop, and every function that would do I/O for it (a database read
or write, a cache read) calls ``need_database()`` before it does anything: under ``attempt()`` that
raises ``NeedsDatabase`` and the caller makes the work again on the database thread. Code that may
be abandoned so must change nothing that outlives it (a socket's state) before its last
``need_database()`` has passed.

Django's own ``SynchronousOnlyOperation`` (the ORM refuses to run in a thread with an event loop)
catches a read that forgot to ask; it is a safety net, not the way to decide (the cache has none).
This module imports nothing of the project: any layer may ask.
"""
import contextvars
from contextlib import contextmanager

_attempting = contextvars.ContextVar("offloop_attempting", default=False)


class NeedsDatabase(Exception):
    """Raised by ``need_database()`` under ``attempt()``: the work must be made on the database thread."""


@contextmanager
def attempt():
    """Run the block as work on the event loop: a ``need_database()`` in it raises ``NeedsDatabase``."""
    token = _attempting.set(True)
    try:
        yield
    finally:
        _attempting.reset(token)


def need_database():
    """Call before any I/O that work of the event loop could reach: refuses it under ``attempt()``."""
    if _attempting.get():
        raise NeedsDatabase
