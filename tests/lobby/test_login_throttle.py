"""Login throttling: 5 failed logins per username and address per 15 minutes, then "wait"."""
import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.accounts import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = reverse("login")


def log_in(client, username, password, address="10.0.0.1"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def fail(client, times, username="host", address="10.0.0.1"):
    for _ in range(times):
        response = log_in(client, username, "wrong", address)
        assert response.status_code == 200 and "Wait" not in response.content.decode()


def test_it_asks_to_wait_after_five_failures_even_with_the_right_password(client, host):
    fail(client, 5)
    response = log_in(client, "host", PASSWORD)
    assert response.status_code == 200
    assert "Too many failed logins for this account from your address. Wait 15 minutes" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_lets_you_in_after_four_failures(client, host):
    fail(client, 4)
    assert log_in(client, "host", PASSWORD).status_code == 302


def test_it_counts_per_username_and_address(client, host, guest):
    fail(client, 5, "HOST")  # usernames are counted case-insensitively
    assert "Wait" in log_in(client, "host", PASSWORD).content.decode()
    assert log_in(client, "host", PASSWORD, address="10.0.0.2").status_code == 302
    client.logout()
    assert log_in(client, "guest", PASSWORD).status_code == 302


def test_the_wait_ends_with_the_window(client, host, settings):
    fail(client, 5)
    cache.clear()  # what the cache's expiry does after LOGIN_FAILURE_LIMIT's window
    assert log_in(client, "host", PASSWORD).status_code == 302


def test_a_success_clears_the_count(client, host):
    fail(client, 4)
    assert log_in(client, "host", PASSWORD).status_code == 302
    client.logout()
    fail(client, 4)
    assert log_in(client, "host", PASSWORD).status_code == 302


def test_the_window_is_a_setting(client, host, settings):
    settings.LOGIN_FAILURE_LIMIT = (2, 60)
    fail(client, 2)
    assert "Wait 1 minute and try again" in log_in(client, "host", PASSWORD).content.decode()
