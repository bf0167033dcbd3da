"""/match/<id>/aid/: beside each hidden enemy, the species it can still be, from the player's own
projection only (engine.deduction), and only for the players of a live match."""
import re

import pytest

from game.games.aquawar import engine
from game import services
from game.games.aquawar.engine.deduction import candidates
from game.models import Match, MatchEvent
from game.games.aquawar.texts import name as species_name
from tests.accounts import client_for

from .helpers import live_match

pytestmark = pytest.mark.django_db

HOST_PICK = {"pick": ["archerfish", "sea_wolf", "octopus", "sunfish"]}
GUEST_PICK = {"pick": ["electric_eel", "manta_ray", "great_white_shark", "clownfish"]}


def play(match, user, command):
    version = Match.objects.get(pk=match.pk).version
    services.apply_command(match.pk, user, f"c{version}", version, command)


@pytest.fixture
def in_play(host, guest):
    """Round 1 under way: the guest's Electric Eel has used its AoE on the host's team."""
    match = live_match(host, guest)
    play(match, host, HOST_PICK)
    play(match, guest, GUEST_PICK)
    users = (host, guest)
    first = Match.objects.get(pk=match.pk).state["to_move"]
    play(match, users[first], {"assert": None})
    if first == 0:
        play(match, host, {"act": {"actor": 1, "kind": "attack", "enemy": 1}})
        play(match, guest, {"assert": None})
    play(match, guest, {"act": {"actor": 0, "kind": "skill"}})
    return Match.objects.get(pk=match.pk)


def aid_of(html):
    return {int(pos): text for pos, text in re.findall(r'id="aid-(\d)"[^>]*>(.*?)</div>', html)}


def test_it_lists_what_each_hidden_enemy_can_be_as_the_engine_deduces_it(in_play, host):
    html = client_for(host).get(f"/match/{in_play.pk}/aid/").content.decode()
    seen = engine.view(engine.MatchState.from_json(in_play.state), 0)
    rows = MatchEvent.objects.filter(match=in_play).order_by("version").values_list("events", flat=True)
    projected = engine.project([event for events in rows for event in events], 0)
    expected = candidates(seen, projected, 0)
    aid = aid_of(html)
    assert sorted(aid) == [0, 1, 2, 3]
    for pos, species in enumerate(expected):
        assert aid[pos].count(", ") == len(species) - 1
        assert all(str(species_name(s)) in aid[pos] for s in species)
    # The Eel's AoE showed: only AoE species (or a Mimic) remain for it, and its true species is there.
    assert str(species_name("electric_eel")) in aid[0] and str(species_name("sea_turtle")) not in aid[0]


def test_it_offers_the_aid_on_the_board_of_a_player_only(in_play, host, outsider):
    assert "What could they be?" in client_for(host).get(f"/match/{in_play.pk}/").content.decode()
    assert "What could they be?" not in client_for(outsider).get(f"/match/{in_play.pk}/").content.decode()


def test_it_is_not_found_for_spectators_and_needs_a_login(in_play, outsider, client):
    assert client_for(outsider).get(f"/match/{in_play.pk}/aid/").status_code == 404
    assert client.get(f"/match/{in_play.pk}/aid/").status_code == 302
    assert client_for(outsider).get("/match/9999/aid/").status_code == 404


def test_it_has_nothing_to_say_before_the_teams_are_on_the_board(host, guest):
    match = live_match(host, guest)
    html = client_for(host).get(f"/match/{match.pk}/aid/").content.decode()
    assert aid_of(html) == {}
