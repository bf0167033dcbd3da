import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.accounts import PASSWORD

pytestmark = pytest.mark.django_db

SIGNUP = reverse("signup")


def form(username="newcomer", password=PASSWORD, again=PASSWORD, **extra):
    return {"username": username, "password1": password, "password2": again, **extra}


def test_it_creates_the_account_and_logs_you_in(client):
    response = client.post(SIGNUP, form())
    assert response["Location"] == reverse("lobby")
    user = get_user_model().objects.get(username="newcomer")
    assert user.check_password(PASSWORD)
    assert client.session["_auth_user_id"] == str(user.pk)
    assert "newcomer" in client.get(reverse("lobby")).content.decode()


def test_it_returns_you_to_a_local_next_page(client):
    response = client.post(SIGNUP, form(next="/invite/abc/"))
    assert response["Location"] == "/invite/abc/"


def test_it_ignores_a_next_page_on_another_site(client):
    response = client.post(SIGNUP, form(next="https://evil.example/"))
    assert response["Location"] == reverse("lobby")


def test_it_refuses_a_taken_username_whatever_its_case(client, host):
    response = client.post(SIGNUP, form(username="HOST"))
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert get_user_model().objects.count() == 1


def test_it_refuses_mismatched_passwords(client):
    response = client.post(SIGNUP, form(again="something-else-entirely"))
    assert response.context["form"].errors["password2"]
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_it_refuses_a_weak_password(client):
    response = client.post(SIGNUP, form(password="123", again="123"))
    assert response.context["form"].errors
    assert "_auth_user_id" not in client.session


def test_it_shows_errors_for_an_empty_form(client):
    response = client.post(SIGNUP, {})
    assert response.status_code == 200
    assert response.context["form"].errors["username"]


def test_it_sends_logged_in_users_on(host_client):
    assert host_client.get(SIGNUP)["Location"] == reverse("lobby")


def test_it_enforces_csrf():
    client = Client(enforce_csrf_checks=True)
    assert client.post(SIGNUP, form()).status_code == 403
    assert not get_user_model().objects.exists()
    client.get(SIGNUP)
    response = client.post(SIGNUP, form(csrfmiddlewaretoken=client.cookies["csrftoken"].value))
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="newcomer").exists()


def sign_up(username, address="10.0.0.1", **headers):
    """A sign-up from a browser of its own (a new client: no session carries over)."""
    return Client().post(SIGNUP, form(username=username), REMOTE_ADDR=address, **headers)


def refused(response):
    text = response.content.decode()
    return response.status_code == 429 and "Too many new accounts from your address" in text and "at most 5 in 60 minutes" in text


def test_one_address_makes_five_accounts_an_hour_then_is_refused():
    for n in range(5):
        assert sign_up(f"user{n}").status_code == 302
    response = sign_up("user5")
    assert refused(response)
    assert response.context["form"].non_field_errors()
    assert not get_user_model().objects.filter(username="user5").exists()
    assert "_auth_user_id" not in response.wsgi_request.session
    # Refused tries take no place of their own: the address stays refused, nothing more is made.
    assert refused(sign_up("user6"))
    assert get_user_model().objects.count() == 5


def test_another_address_may_still_sign_up():
    for n in range(5):
        sign_up(f"user{n}")
    assert refused(sign_up("late"))
    assert sign_up("late", address="10.0.0.2").status_code == 302


def test_a_form_with_mistakes_takes_no_place():
    for _ in range(5):
        response = Client().post(SIGNUP, form(username="someone", again="a-different-password"), REMOTE_ADDR="10.0.0.1")
        assert response.status_code == 200 and response.context["form"].errors["password2"]
    for n in range(5):
        assert sign_up(f"user{n}").status_code == 302


def test_a_forged_forwarded_for_does_not_make_a_new_address(settings):
    """Behind the nginx of docs/deploy.md (TRUSTED_PROXY_COUNT=1) the client's own X-Forwarded-For
    entries stand left of the address nginx saw, and are never read."""
    settings.TRUSTED_PROXY_COUNT = 1
    for n in range(5):
        forged = {"HTTP_X_FORWARDED_FOR": f"198.51.100.{n}, 203.0.113.7"}
        assert sign_up(f"user{n}", "127.0.0.1", **forged).status_code == 302
    assert refused(sign_up("user5", "127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.99, 203.0.113.7"))
    assert not get_user_model().objects.filter(username="user5").exists()
    # Another client behind the same proxy is another address.
    assert sign_up("user5", "127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 302


def test_the_limit_and_its_window_are_a_setting(settings):
    settings.SIGNUP_RATE = (1, 1)
    assert sign_up("first").status_code == 302
    response = sign_up("second")
    assert response.status_code == 429 and "at most 1 in 1 minute)" in response.content.decode()
    time.sleep(1.2)
    assert sign_up("second").status_code == 302


def test_the_refusal_is_translated():
    for n in range(5):
        sign_up(f"user{n}")
    # The middleware switches this thread's language: put it back for the tests that follow.
    with translation.override(None):
        response = sign_up("user5", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 429
    assert "你的地址新建的账号过多（60 分钟内最多 5 个）" in response.content.decode()
