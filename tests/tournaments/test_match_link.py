"""A tournament's match links back to its round: on the match page (for players and spectators
alike) and on its summary; any other match has no such link."""
import pytest
from django.test import Client
from django.urls import reverse

from game import services as match_services
from tests.accounts import client_for
from tests.game.helpers import live_match, tournament_match
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def links_of(page):
    return page.split('id="match-links"', 1)[1].split("</p>", 1)[0]


def test_a_tournament_match_page_links_to_its_round_for_players_and_spectators(host, guest):
    match = tournament_match(host, guest, name="Spring <cup>")
    cup = Tournament.objects.get()
    link = f'<a href="{reverse("tournaments:detail", args=[cup.pk])}" class="match-tournament">Spring &lt;cup&gt;, round 1</a>'
    for viewer in (client_for(host), Client()):
        page = viewer.get(reverse("game:match", args=[match.pk])).content.decode()
        assert link in links_of(page)


def test_the_summary_of_a_finished_tournament_match_links_to_its_round(host, guest):
    match = tournament_match(host, guest)
    match_services.resign(match, guest)
    cup = Tournament.objects.get()
    page = Client().get(reverse("history:summary", args=[match.pk])).content.decode()
    summary_links = page.split('class="summary-links"', 1)[1].split("</p>", 1)[0]
    assert f'href="{reverse("tournaments:detail", args=[cup.pk])}"' in summary_links
    assert "Spring cup, round 1" in summary_links


def test_any_other_match_has_no_tournament_link(host, guest):
    match = live_match(host, guest)
    match_services.resign(match, guest)
    for url in (reverse("game:match", args=[match.pk]), reverse("history:summary", args=[match.pk])):
        assert "match-tournament" not in client_for(host).get(url).content.decode()
