import pytest


@pytest.fixture(autouse=True)
def bot_settings(settings):
    """As for every program test (tests/bots/conftest.py): the site's clock generous for a busy
    test machine (the bridge keeps the contest's 3 s itself), no background sweeps."""
    settings.BOT_MOVE_SECONDS = 30
    settings.BOT_SWEEP_SECONDS = 0
