import pytest


@pytest.fixture(autouse=True)
def bot_settings(settings):
    """Room for a slow test machine, a quick expert, and no background sweeps unless a test asks.

    The contest's 3 s move clock would make a busy test runner forfeit; tests of the clock set
    a short one themselves. The expert's budget is cut from 16 worlds / beam 8 (see docs/bots.md):
    the tests check how it plays through the platform, not how well.
    """
    settings.BOT_MOVE_SECONDS = 30
    settings.BOT_SWEEP_SECONDS = 0
    settings.BOT_LEVEL_OPTIONS = {"expert": {"worlds": 2, "beam": 3, "time_cap": 0.5}}

