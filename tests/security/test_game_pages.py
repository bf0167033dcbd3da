"""A game's own pages on a match (``Presentation.player_views``: Aquawar's deduction aid at
``/match/<id>/aid/``) answer only for a match of that game. The outside review (issue #30 item 8):
the aid was routed for every game, and ``/match/<id>/aid/`` on a 神迹之战 match answered 500."""
import pytest

from game import games, services
from tests.accounts import client_for

pytestmark = pytest.mark.django_db


def suffixes(name):
    return {suffix for suffix, _name, _view in games.get(name).web.player_views}


def test_a_page_of_one_game_is_a_404_on_a_match_of_another(host, guest):
    every_suffix = set().union(*(suffixes(name) for name in games.NAMES))
    assert "aid/" in every_suffix
    for name in games.NAMES:
        match = services.join_match(services.create_match(host, game=name), guest)
        for user in (host, guest):
            client = client_for(user)
            for suffix in every_suffix:
                status = client.get(f"/match/{match.pk}/{suffix}").status_code
                assert status == (200 if suffix in suffixes(name) else 404), (name, suffix, status)


def test_the_miracle_aid_of_the_review_is_a_404(host, guest):
    match = services.join_match(services.create_match(host, game="miracle"), guest)
    assert client_for(host).get(f"/match/{match.pk}/aid/").status_code == 404


def test_only_the_players_see_a_games_page(host, guest, outsider):
    match = services.join_match(services.create_match(host), guest)
    assert client_for(host).get(f"/match/{match.pk}/aid/").status_code == 200
    assert client_for(outsider).get(f"/match/{match.pk}/aid/").status_code == 404
