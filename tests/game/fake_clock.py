"""A fake clock for the time controls' tests: every change happens at a moment the test sets."""
from datetime import datetime, timedelta, timezone as tz

import pytest
from django.utils import timezone

from game.programs import runner, seats

START = datetime(2026, 1, 1, 12, tzinfo=tz.utc)


class FakeClock:
    now = START

    def at(self, seconds):
        """Now is ``seconds`` after START."""
        self.now = START + timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(timezone, "now", lambda: fake.now)
    # The runner is not run in the background: the tests drive the clocks (and sweeps) themselves.
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    monkeypatch.setattr(seats, "wake", lambda match_id: None)
    return fake
