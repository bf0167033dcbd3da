import pytest


@pytest.fixture(autouse=True)
def bot_settings(settings):
    """Room for a slow test machine, and no background sweeps unless a test asks.

    The contest's 3 s move clock would make a busy test runner forfeit; tests of the clock set
    a short one themselves. (The searching levels' small budgets: tests/bot_levels.py.)
    """
    settings.BOT_MOVE_SECONDS = 30
    settings.BOT_SWEEP_SECONDS = 0

