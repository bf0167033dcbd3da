"""Login lockouts (django-axes): 5 failed logins for one account, or from one address, lock it out
for 15 minutes, on the site's login and the admin's; the client's address is the one the trusted
proxy saw, whatever the client writes into X-Forwarded-For."""
import time
from datetime import timedelta

import pytest
from django.urls import reverse

from tests.accounts import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = reverse("login")
ADMIN_LOGIN = reverse("admin:login")
PROXY = "127.0.0.1"
LOCKED = "Too many failed logins for this account or from your address. Wait 15 minutes and try again."


def log_in(client, username, password, address="10.0.0.1", path=LOGIN, **headers):
    return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=address, **headers)


def fail(client, times, username="host", address="10.0.0.1", **headers):
    for _ in range(times):
        response = log_in(client, username, "wrong", address, **headers)
        assert response.status_code == 200 and "Wait" not in response.content.decode()


def locked_out(response):
    return response.status_code == 429 and LOCKED in response.content.decode()


def test_the_fifth_failure_locks_the_account_out_even_for_the_right_password(client, host):
    fail(client, 4)
    fifth = log_in(client, "host", "wrong")
    assert locked_out(fifth)
    # The lockout page is the login page: the form is there to try again later.
    assert 'name="password"' in fifth.content.decode()
    assert locked_out(log_in(client, "host", PASSWORD))
    assert "_auth_user_id" not in client.session


def test_it_lets_you_in_after_four_failures(client, host):
    fail(client, 4)
    assert log_in(client, "host", PASSWORD).status_code == 302


def test_an_account_is_locked_from_every_address(client, host, guest):
    # The outside review's attack: a new address every few tries. Usernames count without case.
    for attempt in range(4):
        fail(client, 1, "HOST " if attempt % 2 else "host", address=f"10.0.1.{attempt}")
    assert locked_out(log_in(client, "host", "wrong", address="10.0.1.9"))
    assert locked_out(log_in(client, "host", PASSWORD, address="10.0.2.1"))
    # Other accounts from fresh addresses are not affected.
    assert log_in(client, "guest", PASSWORD, address="10.0.2.2").status_code == 302


def test_an_address_is_locked_for_every_account(client, host, guest):
    # One password tried on many accounts from one address.
    for name in ("ann", "bob", "cyd", "dee"):
        fail(client, 1, name)
    assert locked_out(log_in(client, "eve", "wrong"))
    assert locked_out(log_in(client, "guest", PASSWORD))
    assert log_in(client, "guest", PASSWORD, address="10.0.0.2").status_code == 302


def test_an_account_named_like_an_address_is_not_that_address(client, host):
    # django-axes keys both counts by the bare value: the account's count must not be the address's.
    fail(client, 4, "10.0.0.7", address="10.0.0.1")
    assert locked_out(log_in(client, "10.0.0.7", "wrong", address="10.0.0.2"))
    assert log_in(client, "host", PASSWORD, address="10.0.0.7").status_code == 302


def test_a_forged_forwarded_for_does_not_change_the_address(client, host, settings):
    """nginx appends the address it saw to whatever X-Forwarded-For the client sent; the client's
    own entries rotate every try here and must not make each try a new address."""
    settings.TRUSTED_PROXY_COUNT = 1
    for attempt in range(4):
        fail(client, 1, f"user{attempt}", PROXY, HTTP_X_FORWARDED_FOR=f"198.51.100.{attempt}, 203.0.113.7")
    forged = {"HTTP_X_FORWARDED_FOR": "198.51.100.99, 203.0.113.7"}
    assert locked_out(log_in(client, "someone", "wrong", PROXY, **forged))
    assert locked_out(log_in(client, "host", PASSWORD, PROXY, **forged))
    # Another client behind the same proxy is another address.
    assert log_in(client, "host", PASSWORD, PROXY, HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 302


def test_without_a_trusted_proxy_the_header_is_not_read(client, host, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    for attempt in range(4):
        fail(client, 1, f"user{attempt}", HTTP_X_FORWARDED_FOR=f"198.51.100.{attempt}")
    assert locked_out(log_in(client, "someone", "wrong", HTTP_X_FORWARDED_FOR="198.51.100.200"))


def test_thirty_wrong_passwords_from_rotating_addresses_never_get_in(client, host):
    """The review's numbers: 30 wrong passwords, a new address every 5, then the right one."""
    for attempt in range(30):
        log_in(client, "host", "wrong", address=f"10.9.{attempt // 5}.1")
    assert locked_out(log_in(client, "host", PASSWORD, address="10.9.99.1"))
    assert "_auth_user_id" not in client.session


def test_the_admin_login_is_locked_out_too(client, django_user_model):
    django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    for _ in range(4):
        response = log_in(client, "root", "wrong", path=ADMIN_LOGIN)
        assert response.status_code == 200 and "Wait" not in response.content.decode()
    fifth = log_in(client, "root", "wrong", path=ADMIN_LOGIN)
    assert locked_out(fifth) and 'id="login-form"' in fifth.content.decode()
    assert locked_out(log_in(client, "root", PASSWORD, path=ADMIN_LOGIN))
    assert "_auth_user_id" not in client.session
    # One count for both doors: the site's login refuses the account as well.
    assert locked_out(log_in(client, "root", PASSWORD, address="10.0.0.2"))


def test_the_wait_ends_with_the_window_and_tries_during_it_do_not_extend_it(client, host, settings):
    settings.AXES_COOLOFF_TIME = timedelta(seconds=2)
    fail(client, 4)
    assert log_in(client, "host", "wrong").status_code == 429
    time.sleep(1)
    assert log_in(client, "host", PASSWORD).status_code == 429
    time.sleep(1.2)
    assert log_in(client, "host", PASSWORD).status_code == 302


def test_a_success_does_not_clear_the_count(client, host):
    # Otherwise logging into one's own account would reset the address's count between guesses.
    fail(client, 4)
    assert log_in(client, "host", PASSWORD).status_code == 302
    client.logout()
    assert locked_out(log_in(client, "host", "wrong"))


def test_the_limit_and_the_wait_are_settings(client, host, settings):
    settings.AXES_FAILURE_LIMIT = 2
    settings.AXES_COOLOFF_TIME = timedelta(minutes=1)
    fail(client, 1)
    response = log_in(client, "host", "wrong")
    assert response.status_code == 429 and "Wait 1 minute and try again" in response.content.decode()


@pytest.mark.django_db(transaction=True)
async def test_the_lockout_page_under_asgi(async_client, host):
    # Under daphne the middleware runs its async path, which hands the lockout page other arguments.
    form = {"username": "host", "password": "wrong"}
    for _ in range(4):
        assert (await async_client.post(LOGIN, form)).status_code == 200
    assert locked_out(await async_client.post(LOGIN, form))
    assert locked_out(await async_client.post(LOGIN, {**form, "password": PASSWORD}))
