"""The lobby's profile page: played / won / lost totals (ranked matches only) and a history link."""
import re

import pytest

from game.models import Match

from .helpers import clone_finished

pytestmark = pytest.mark.django_db


def stats(response):
    assert response.status_code == 200
    return {k: int(v) for k, v in re.findall(r'<dd data-stat="(\w+)">(\d+)</dd>', response.content.decode())}


def test_it_counts_played_won_and_lost(finished, host, guest, outsider_client):
    clone_finished(finished, guest, host)
    clone_finished(finished, guest, host)
    won = 1 if finished.winner == 0 else 2
    assert stats(outsider_client.get("/users/host/")) == {"played": 3, "won": won, "lost": 3 - won}


def test_it_leaves_imported_matches_out_of_the_totals(finished, host, guest, outsider_client):
    imported = clone_finished(finished, host, guest)
    Match.objects.filter(pk=imported.pk).update(imported=True)
    assert stats(outsider_client.get("/users/host/"))["played"] == 1


def test_it_links_to_the_players_history(host, outsider_client):
    assert 'href="/users/host/history/"' in outsider_client.get("/users/host/").content.decode()
