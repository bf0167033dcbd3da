import pytest

from .helpers import client_for, finish, live_in_round_one


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(django_user_model):
    def make(username):
        return django_user_model.objects.create_user(username=username, password="correct horse battery")

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
def finished(host, guest):
    """A whole match played through the services, the host's Mimic Fish copying an Octopus."""
    return finish(host, guest, seed=11)


@pytest.fixture
def live(host, guest):
    """A live match in round 1 with both teams picked, a few turns in, hidden fish on both sides."""
    return live_in_round_one(host, guest)
