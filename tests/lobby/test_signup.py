import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

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
