import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_it_shows_your_name_with_profile_password_and_logout(host_client, host):
    html = host_client.get(reverse("lobby")).content.decode()
    assert "Aquawar Online" in html
    assert f'href="{reverse("profile", args=["host"])}"' in html
    assert reverse("password_change") in html
    assert f'action="{reverse("logout")}"' in html
    assert reverse("signup") not in html


def test_it_offers_login_and_signup_to_anonymous_visitors(client):
    html = client.get(reverse("lobby")).content.decode()
    assert reverse("login") in html and reverse("signup") in html
    assert reverse("logout") not in html


def test_it_loads_htmx_and_the_site_stylesheet(client):
    html = client.get(reverse("lobby")).content.decode()
    assert "django_htmx/htmx-2.min.js" in html
    assert "css/site.css" in html


def test_it_switches_the_language(client):
    html = client.get(reverse("lobby")).content.decode()
    assert f'action="{reverse("set_language")}"' in html
    response = client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    assert response.status_code == 302
    html = client.get(reverse("lobby")).content.decode()
    assert '<html lang="zh-hans">' in html
    assert "大厅" in html


def test_it_shows_messages(outsider_client, open_match):
    response = outsider_client.post(reverse("match_cancel", args=[open_match.pk]), follow=True)
    assert 'class="messages"' in response.content.decode()
