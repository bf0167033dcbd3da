import pytest
from django.urls import reverse

from .helpers import post_with_csrf

pytestmark = pytest.mark.django_db

LOGOUT = reverse("logout")


def test_it_requires_post(host_client):
    assert host_client.get(LOGOUT).status_code == 405
    assert "_auth_user_id" in host_client.session


def test_it_logs_you_out(host_client):
    response = host_client.post(LOGOUT)
    assert response["Location"] == reverse("lobby")
    assert "_auth_user_id" not in host_client.session


def test_it_is_a_csrf_protected_form_in_the_header(csrf_client, host):
    client = csrf_client(host)
    html = client.get(reverse("lobby")).content.decode()
    assert f'<form method="post" action="{LOGOUT}"' in html
    assert client.post(LOGOUT).status_code == 403
    assert "_auth_user_id" in client.session
    post_with_csrf(client, reverse("lobby"), LOGOUT)
    assert "_auth_user_id" not in client.session
