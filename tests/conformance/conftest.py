"""The conformance kit runs once per registered game, with that game's adapter."""
from importlib import import_module

import pytest

from game import games

from .table import Kit


@pytest.fixture(params=games.NAMES)
def kit(request):
    # A game without an adapter fails here, by name: every game must pass the kit.
    return Kit(request.param, import_module(f"tests.conformance.adapters.{request.param}"))
