import pytest

from game.services import create_match, join_match

from .helpers import PASSWORD, client_for


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # The real hasher is slow on purpose; these tests create a few users each.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(django_user_model):
    def make(username):
        return django_user_model.objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def host(make_user):
    return make_user("host")


@pytest.fixture
def guest(make_user):
    return make_user("guest")


@pytest.fixture
def outsider(make_user):
    return make_user("outsider")


@pytest.fixture
def host_client(host):
    return client_for(host)


@pytest.fixture
def guest_client(guest):
    return client_for(guest)


@pytest.fixture
def outsider_client(outsider):
    return client_for(outsider)


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

