"""A 三国 game on the site, its people, and the fake clock its deadlines run on."""
from datetime import datetime, timedelta, timezone as tz

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from sanguo import services
from sanguo.models import Game

START = datetime(2026, 3, 1, 12, tzinfo=tz.utc)
DURATIONS = {"night_action": 7200, "night_resolution": 600, "night_feedback": 600, "day_wound": 600,
             "day_vote": 7200, "day_feedback": 600}


class FakeClock:
    now = START

    def at(self, seconds):
        self.now = START + timedelta(seconds=seconds)

    def forward(self, seconds):
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(timezone, "now", lambda: fake.now)
    return fake


def people(count, prefix="p"):
    make = get_user_model().objects.create_user
    return [make(f"{prefix}{i}", password="x") for i in range(count)]


def started_game(mode="standard", durations=None, seats=None):
    """A started game: (row, gm, players) with players[i] in seat i."""
    gm = get_user_model().objects.create_user("gm", password="x")
    row = services.create_game(gm, mode=mode, durations=durations or DURATIONS)
    players = people(row.seat_count)
    for seat, player in enumerate(players):
        services.sign_up(row.pk, player)
        services.assign_seat(row.pk, gm, player.pk, seat)
    services.start(row.pk, gm)
    row.refresh_from_db()
    return row, gm, players


def deal_from(monkeypatch, seed):
    """Games created from now on in the test are dealt from ``seed`` (their seats' identities, the
    free characters, the engine's rolls)."""
    monkeypatch.setattr(Game._meta.get_field("seed"), "_get_default", lambda: seed)
