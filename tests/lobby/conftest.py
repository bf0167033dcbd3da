import pytest

from game.services import create_match, join_match

from tests.accounts import client_for


@pytest.fixture
def csrf_client():
    """Return a logged-in client that, unlike the test default, checks CSRF tokens like a browser."""

    def make(user):
        return client_for(user, enforce_csrf_checks=True)

    return make


@pytest.fixture
def open_match(host):
    return create_match(host)


@pytest.fixture
def private_match(host):
    return create_match(host, private=True)


@pytest.fixture
def live_match(host, guest):
    return join_match(create_match(host), guest)

