"""/users/<username>/history/: one player's finished matches, with a won/lost filter."""
import re

import pytest

from game.models import Match

from .helpers import clone_finished

pytestmark = pytest.mark.django_db


def listed(response):
    assert response.status_code == 200
    return sorted(int(pk) for pk in re.findall(r'<tr data-match="(\d+)">', response.content.decode()))


def test_it_lists_only_that_players_matches(finished, host, guest, outsider, outsider_client):
    other = clone_finished(finished, outsider, guest)
    assert listed(outsider_client.get("/users/host/history/")) == [finished.pk]
    assert listed(outsider_client.get("/users/guest/history/")) == sorted([finished.pk, other.pk])


def test_it_shows_the_players_result_in_each_row(finished, host, guest, outsider_client):
    html = outsider_client.get("/users/host/history/").content.decode()
    expected = "won" if finished.winner == 0 else "lost"
    assert re.findall(r'data-result="(\w+)"', html) == [expected]


def test_it_filters_by_result(finished, host, guest, outsider_client):
    swapped = clone_finished(finished, guest, host)
    won_by_host = finished if finished.winner == 0 else swapped
    lost_by_host = swapped if won_by_host == finished else finished
    assert listed(outsider_client.get("/users/host/history/?result=won")) == [won_by_host.pk]
    assert listed(outsider_client.get("/users/host/history/?result=lost")) == [lost_by_host.pk]
    # The path names the player; a "player" parameter cannot widen it to someone else's matches.
    assert listed(outsider_client.get("/users/host/history/?player=guest")) == sorted([finished.pk, swapped.pk])


def test_it_404s_for_an_unknown_user(outsider_client):
    assert outsider_client.get("/users/nobody/history/").status_code == 404


def test_it_leaves_out_imported_matches(finished, outsider_client):
    Match.objects.filter(pk=finished.pk).update(imported=True, host=None, guest=None, player_names=["host", "guest"])
    assert listed(outsider_client.get("/users/host/history/")) == []


def test_it_names_the_opponent(finished, outsider, guest, outsider_client):
    clone_finished(finished, outsider, guest)
    html = outsider_client.get("/users/guest/history/").content.decode()
    assert '<th scope="col">Opponent</th>' in html
    opponents = re.findall(r'<a href="/users/(\w+)/">\w+</a>', html.split("<tbody>")[1].split("</tbody>")[0])
    assert sorted(opponents) == ["host", "outsider"]
