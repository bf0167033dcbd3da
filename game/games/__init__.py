"""The games this site hosts: the registry, name → the game's ``Game`` object (``game.games.base``).

The platform reaches a game only through here. Each game lives in its own package
``game/games/<name>/`` whose ``game`` module holds its ``GAME``; it is imported on first use, so that
importing a game's pure engine (``game.games.aquawar.engine``) loads neither Django nor another game.
docs/games.md says how to add one.
"""
import json
from functools import cache
from importlib import import_module

# In the order the lobby offers them; the first is the default (and every match stored before
# matches knew their game is one of it).
NAMES = ("aquawar", "miracle")
DEFAULT = NAMES[0]


class UnknownGame(LookupError):
    pass


def get(name):
    """The ``Game`` object of ``name``; ``UnknownGame`` for a name not in ``NAMES``."""
    if name not in NAMES:
        raise UnknownGame(name)
    return _load(name)


@cache
def _load(name):
    return import_module(f"{__name__}.{name}.game").GAME


def every():
    return [get(name) for name in NAMES]


def choices():
    """(name, title) of every game, for a form."""
    return [(game.name, game.title) for game in every()]


def for_record(data):
    """The game that reads ``data`` (an uploaded file's bytes): the one whose record format it
    names, else the first that claims it as another file of its own (``Game.claims_upload``), else
    the default game, so that its reader explains what is wrong."""
    try:
        named = json.loads(data).get("format")
    except (ValueError, RecursionError, AttributeError):
        named = None
    by_format = next((game for game in every() if game.record_format == named), None)
    if by_format is not None:
        return by_format
    return next((game for game in every() if game.claims_upload(data)), get(DEFAULT))
