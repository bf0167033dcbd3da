import threading
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from ratings.api import mark_program
from tournaments import services


@pytest.fixture(autouse=True)
def tournament_settings(settings):
    """As for the bot tests: a clock a busy test machine can meet, no background sweeps."""
    settings.BOT_MOVE_SECONDS = 30
    settings.BOT_SWEEP_SECONDS = 0


@pytest.fixture
def people(make_user):
    return [make_user(f"player{i}") for i in range(6)]


@pytest.fixture
def programs(make_user):
    accounts = [make_user(f"program{i}") for i in range(4)]
    for account in accounts:
        mark_program(account)
    return accounts


def soon():
    return timezone.now() + timedelta(hours=1)


def new_tournament(organizer, **overrides):
    fields = {
        "name": "Spring cup", "game": "aquawar", "kind": "swiss", "for_programs": False, "rated": False,
        "move_seconds": 60, "starts": soon(), "rounds": 3,
    }
    fields.update(overrides)
    return services.create(organizer, **fields)


def start_now(tournament):
    """The start time has come (registration closes then)."""
    type(tournament).objects.filter(pk=tournament.pk).update(starts=timezone.now() - timedelta(seconds=1))


def race(work, threads=3, timeout=60):
    """``work()`` in ``threads`` threads at the same instant, each on its own database connection
    (as server processes would); returns the exceptions they raised."""
    barrier = threading.Barrier(threads)
    errors = []

    def run():
        try:
            barrier.wait()
            work()
        except Exception as error:  # a failure is the test's, not the thread's
            errors.append(error)
        finally:
            connections.close_all()

    started = [threading.Thread(target=run) for _ in range(threads)]
    for thread in started:
        thread.start()
    for thread in started:
        thread.join(timeout)
    return errors
