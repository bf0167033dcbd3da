import pytest

from .helpers import finish, live_in_round_one


@pytest.fixture
def finished(host, guest):
    """A whole match played through the services, the host's Mimic Fish copying an Octopus."""
    return finish(host, guest, seed=11)


@pytest.fixture
def live(host, guest):
    """A live match in round 1 with both teams picked, a few turns in, hidden fish on both sides."""
    return live_in_round_one(host, guest)
