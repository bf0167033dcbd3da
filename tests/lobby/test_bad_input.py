"""Whatever arrives in a URL, query string or form, the answer is a page or a 4xx, never a 500."""
import pytest
from django.urls import reverse

from game.models import Match

pytestmark = pytest.mark.django_db

WEIRD = ["%00", "%F0%9F%90%9F", "a" * 300, "..%2F..", "'%3B--", "%E2%80%AE"]


@pytest.mark.parametrize("text", WEIRD)
def test_it_answers_odd_profile_and_invite_urls_with_404(outsider_client, text):
    assert outsider_client.get(f"/users/{text}/").status_code == 404
    assert outsider_client.get(f"/invite/{text}/").status_code == 404
    assert outsider_client.post(f"/invite/{text}/").status_code == 404


@pytest.mark.parametrize("text", WEIRD)
def test_it_ignores_odd_query_strings(outsider_client, text):
    assert outsider_client.get(f"{reverse('lobby_matches')}?digest={text}").status_code == 200
    assert outsider_client.get(f"{reverse('signup')}?next={text}").status_code == 302


@pytest.mark.parametrize("data", [{}, {"visibility": ""}, {"visibility": "\x00"}, {"private": "1"}])
def test_it_refuses_odd_new_match_forms_without_creating_anything(host_client, data):
    response = host_client.post(reverse("match_new"), data)
    assert response.status_code == 302
    assert not Match.objects.exists()


def test_it_refuses_odd_signups(client):
    response = client.post(reverse("signup"), {"username": "\x00bad", "password1": "x", "password2": "y"})
    assert response.status_code == 200
    assert response.context["form"].errors


def test_it_answers_a_huge_match_id_with_404(guest_client):
    huge = 10**30
    assert guest_client.post(f"/match/{huge}/join").status_code == 404
    assert guest_client.post(f"/match/{huge}/cancel").status_code == 404
