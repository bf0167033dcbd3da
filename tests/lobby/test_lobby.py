import pytest
from django.urls import reverse

from game.models import Match
from game.services import create_match, join_match

from .helpers import assert_no_species, hide_teams_in

pytestmark = pytest.mark.django_db

LOBBY = reverse("lobby")
FRAGMENT = reverse("lobby_matches")


def join_button(match):
    return f'action="{reverse("match_join", args=[match.pk])}"'


def test_it_lists_open_matches_with_the_host_name_and_a_join_button(outsider_client, open_match):
    html = outsider_client.get(LOBBY).content.decode()
    assert "host" in html
    assert join_button(open_match) in html


def test_it_keeps_private_matches_out_of_the_open_list(outsider_client, private_match):
    html = outsider_client.get(LOBBY).content.decode()
    assert join_button(private_match) not in html
    assert private_match.invite_token not in html


def test_it_shows_your_own_open_match_with_cancel_and_invite_link_instead_of_join(host_client, private_match):
    html = host_client.get(LOBBY).content.decode()
    assert join_button(private_match) not in html
    assert reverse("match_cancel", args=[private_match.pk]) in html
    assert f"http://testserver{reverse('invite', args=[private_match.invite_token])}" in html


def test_it_offers_no_join_button_on_your_own_open_match(host_client, open_match):
    html = host_client.get(LOBBY).content.decode()
    assert join_button(open_match) not in html
    assert reverse("match_cancel", args=[open_match.pk]) in html


def test_it_lists_live_matches_with_both_names_and_a_watch_link(outsider_client, live_match):
    html = outsider_client.get(LOBBY).content.decode()
    assert f'id="watch-{live_match.pk}" href="{reverse("game:match", args=[live_match.pk])}"' in html
    assert "guest" in html and "host" in html
    assert join_button(live_match) not in html


def test_it_offers_play_not_watch_to_the_players_of_a_live_match(guest_client, live_match):
    html = guest_client.get(LOBBY).content.decode()
    assert f'id="watch-{live_match.pk}"' not in html
    assert reverse("game:match", args=[live_match.pk]) in html


def test_it_leaves_finished_and_cancelled_matches_out(outsider_client, host, guest):
    finished = join_match(create_match(host), guest)
    Match.objects.filter(pk=finished.pk).update(status="finished", winner=0)
    cancelled = create_match(host)
    Match.objects.filter(pk=cancelled.pk).update(status="cancelled")
    html = outsider_client.get(LOBBY).content.decode()
    for match in (finished, cancelled):
        assert reverse("game:match", args=[match.pk]) not in html
        assert join_button(match) not in html


def test_it_shows_the_lists_and_a_login_prompt_to_anonymous_visitors(client, open_match):
    html = client.get(LOBBY).content.decode()
    assert join_button(open_match) in html
    assert reverse("match_new") not in html
    assert reverse("signup") in html


def test_it_polls_the_lists_every_3_seconds(client):
    html = client.get(LOBBY).content.decode()
    assert f'hx-get="{FRAGMENT}?digest=' in html
    assert 'hx-trigger="every 3s"' in html


def test_it_serves_the_lists_as_a_fragment_without_the_page_around_them(outsider_client, open_match):
    response = outsider_client.get(FRAGMENT)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="match-lists"')
    assert "<html" not in html
    assert join_button(open_match) in html


def test_it_answers_204_while_nothing_changed_and_the_new_list_once_it_has(outsider_client, host, open_match):
    html = outsider_client.get(FRAGMENT).content.decode()
    digest = html.split("?digest=", 1)[1].split('"', 1)[0]
    assert outsider_client.get(FRAGMENT, {"digest": digest}).status_code == 204

    second = create_match(host)
    response = outsider_client.get(FRAGMENT, {"digest": digest})
    assert response.status_code == 200
    assert join_button(second) in response.content.decode()


def test_it_never_shows_a_hidden_fish(outsider_client, guest_client, live_match):
    hide_teams_in(live_match)
    for client in (outsider_client, guest_client):
        assert_no_species(client.get(LOBBY).content.decode())
        assert_no_species(client.get(FRAGMENT).content.decode())


def test_its_news_socket_names_the_open_matches_the_host_waits_on(host_client, outsider_client, host, guest, open_match):
    """For a join its socket did not hear (lobby/consumers.py): only the person's own open matches."""
    joined = create_match(host)
    join_match(joined, guest)
    html = host_client.get(LOBBY).content.decode()
    assert f'ws-connect="/ws/lobby/?waiting={open_match.pk}"' in html
    assert 'ws-connect="/ws/lobby/"' in outsider_client.get(LOBBY).content.decode()
