"""Garbage collection in a server process (docs/performance.md, "Garbage collection in the servers").

A full collection scans every object the collector tracks and stops every socket of the process
while it does; under load a server made one every ten seconds or so, of 130-300 ms. Most of what
it scanned lives as long as the process: Django, the modules, the engines' and the pages' tables
built on first use. ``gc.freeze`` moves what exists to a generation no collection scans, so a
server freezes its heap as it starts and once more after ``WARM_UP`` seconds, when its first
matches have built those tables; what it scans after that is what came since, mostly the
fan-out's bounded tables (game/live/fanout.py). Frozen objects are still freed when nothing refers
to them any more; only a cycle among them is never collected, hence the collection before each
freeze and only two freezes.
"""
import gc

WARM_UP = 60.0


def freeze():
    """Collect what is garbage now, then keep every object left out of every later collection."""
    gc.collect()
    gc.freeze()


def start(reactor):
    """A server's start (``aquawar_site.asgi``, under daphne's reactor): freeze now and again after
    the warm-up."""
    freeze()
    reactor.callLater(WARM_UP, freeze)
