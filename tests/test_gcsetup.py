"""A server freezes its heap as it starts and after its warm-up (aquawar_site/gcsetup.py), so that the
full collections that stop its sockets scan only what came since; nothing else that imports the
site (a test, a shell, a management command, the bot worker) does."""
import asyncio
import gc
import sys
import weakref

import pytest

from aquawar_site import asgi, gcsetup


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


class Cycle:
    pass


class Reactor:
    """What daphne's reactor offers the site at start-up, its calls kept to be run by the test."""

    def __init__(self):
        self.at_start = []
        self.later = []

    def callWhenRunning(self, call, *args):
        self.at_start.append((call, args))

    def callLater(self, delay, call, *args):
        self.later.append((delay, call, args))


def test_a_server_freezes_its_heap_as_it_starts_and_again_after_its_warm_up(monkeypatch, unfrozen):
    reactor = Reactor()
    monkeypatch.setitem(sys.modules, "twisted.internet.reactor", reactor)
    served = []
    monkeypatch.setattr(asgi, "serve_from", served.append)
    asgi._serve_from_the_start()
    assert gc.get_freeze_count() == 0, "nothing is frozen before the server runs"
    # Daphne's reactor runs on the event loop of its thread.
    loop = object()
    monkeypatch.setattr(asyncio, "get_event_loop", lambda: loop)
    for call, args in reactor.at_start:
        call(*args)
    assert served == [loop] and gc.get_freeze_count() > 0
    at_start = gc.get_freeze_count()
    built_since = [[n] for n in range(1000)]
    [(delay, call, args)] = reactor.later
    assert delay == gcsetup.WARM_UP
    call(*args)
    assert gc.get_freeze_count() >= at_start + len(built_since)


def test_importing_the_site_without_a_server_freezes_nothing(monkeypatch, unfrozen):
    monkeypatch.delitem(sys.modules, "twisted.internet.reactor", raising=False)
    asgi._serve_from_the_start()
    assert gc.get_freeze_count() == 0


def test_garbage_is_collected_before_the_heap_is_frozen(unfrozen):
    """A cycle that is garbage already would otherwise be kept for the life of the process."""
    cycle = Cycle()
    cycle.me = cycle
    gone = weakref.ref(cycle)
    del cycle
    gcsetup.freeze()
    assert gone() is None
