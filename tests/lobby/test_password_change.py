import pytest
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse

from tests.accounts import PASSWORD

from .helpers import post_with_csrf

pytestmark = pytest.mark.django_db

CHANGE = reverse("password_change")
NEW_PASSWORD = "a-brand-new-tidepool-secret"


def form(old=PASSWORD, new=NEW_PASSWORD, again=NEW_PASSWORD):
    return {"old_password": old, "new_password1": new, "new_password2": again}


def test_it_changes_the_password_and_keeps_you_logged_in(host_client, host):
    response = host_client.post(CHANGE, form())
    assert response["Location"] == reverse("password_change_done")
    host.refresh_from_db()
    assert host.check_password(NEW_PASSWORD)
    assert host_client.get(reverse("password_change_done")).status_code == 200
    assert "_auth_user_id" in host_client.session


def test_it_lets_you_log_in_with_the_new_password_only(host_client, host):
    host_client.post(CHANGE, form())
    # django-axes counts logins by their request, so the test client's login needs one.
    assert not Client().login(request=HttpRequest(), username="host", password=PASSWORD)
    assert Client().login(request=HttpRequest(), username="host", password=NEW_PASSWORD)


def test_it_refuses_a_wrong_old_password(host_client, host):
    response = host_client.post(CHANGE, form(old="not-my-password"))
    assert response.context["form"].errors["old_password"]
    host.refresh_from_db()
    assert host.check_password(PASSWORD)


def test_it_needs_a_login(client):
    response = client.get(CHANGE)
    assert response["Location"].startswith(reverse("login"))


def test_it_enforces_csrf(csrf_client, host):
    client = csrf_client(host)
    assert client.post(CHANGE, form()).status_code == 403
    host.refresh_from_db()
    assert host.check_password(PASSWORD)
    post_with_csrf(client, CHANGE, CHANGE, form())
    host.refresh_from_db()
    assert host.check_password(NEW_PASSWORD)
