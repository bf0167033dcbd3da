import pytest
from django.test import Client
from django.urls import reverse

from tests.accounts import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = reverse("login")


def test_it_logs_you_in_and_returns_you_to_next(client, host):
    response = client.post(LOGIN, {"username": "host", "password": PASSWORD, "next": "/users/host/"})
    assert response["Location"] == "/users/host/"
    assert client.session["_auth_user_id"] == str(host.pk)


def test_it_refuses_a_wrong_password(client, host):
    response = client.post(LOGIN, {"username": "host", "password": "wrong"})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert "_auth_user_id" not in client.session


def test_it_enforces_csrf(host):
    client = Client(enforce_csrf_checks=True)
    assert client.post(LOGIN, {"username": "host", "password": PASSWORD}).status_code == 403
