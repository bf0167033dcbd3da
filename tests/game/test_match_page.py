import json

import pytest
from django.test import Client
from django.utils.html import escape

from game.games.aquawar import engine
from game import services
from game.games.aquawar.engine import SPECIES
from game.models import Match
from game.games.aquawar.texts import NAMES

from .helpers import GUEST_TEAMS, HOST_TEAMS, TEAMS, live_match

pytestmark = pytest.mark.django_db


def client_for(user=None, **options):
    client = Client(**options)
    if user:
        client.force_login(user)
    return client


def controls_of(page):
    return page.split('id="match-controls"', 1)[1].split("</section>", 1)[0]


def picked_match(host, guest):
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    match.refresh_from_db()
    return match


def test_it_shows_a_player_their_team_and_hides_the_enemys(host, guest):
    match = picked_match(host, guest)
    # The one waiting for the first move has no form with a species list on the page.
    seat = 1 - match.state["to_move"]
    page = client_for((host, guest)[seat]).get(f"/match/{match.pk}/").content.decode()
    assert f'ws-connect="/ws/match/{match.pk}/?ui=html"' in page
    own, enemy = TEAMS[seat][1], TEAMS[1 - seat][1]
    for species in own["pick"]:
        assert str(NAMES[species]) in page
    assert page.count("ATK 100") == 4
    for species in set(enemy["pick"] + [enemy.get("mimic")]) - set(own["pick"]) - {None}:
        assert species not in page and str(NAMES[species]) not in page
    assert page.count('class="fish-hidden"') == 4
    assert "Turn 1/64" in page and f"You picked {NAMES[own['pick'][0]]}" in page


def test_it_offers_only_legal_moves(host, guest):
    match = picked_match(host, guest)
    seat = match.state["to_move"]
    mover = (host, guest)[seat]
    page = controls_of(client_for(mover).get(f"/match/{match.pk}/").content.decode())
    assert page.count('<option value="') == 4 + len(SPECIES)
    assert "Skip the assertion" in page
    services.apply_command(match.pk, mover, "skip", 2, {"assert": None})
    page = client_for(mover).get(f"/match/{match.pk}/").content.decode()
    state = engine.MatchState.from_json(Match.objects.get(pk=match.pk).state)
    legal = engine.legal_commands(state, seat)
    assert page.count('type="radio" name="move"') == len(legal)
    for command in legal:
        assert escape(json.dumps(command["act"], separators=(",", ":"))) in page


def test_it_shows_a_spectator_no_species_at_all(host, guest):
    match = picked_match(host, guest)
    page = client_for().get(f"/match/{match.pk}/").content.decode()
    assert page.count('class="fish-hidden"') == 8
    assert "Archerfish" not in page and "Sea Wolf" not in page and "ATK" not in page
    assert "resign-form" not in page


def test_it_offers_the_pick_form_with_only_unused_species(host, guest):
    match = live_match(host, guest)
    page = client_for(guest).get(f"/match/{match.pk}/").content.decode()
    assert page.count('name="fish" type="checkbox"') + page.count('type="checkbox" name="fish"') == 12
    assert 'name="mimic"' in page and "Lock in my team" in page


def test_it_hides_a_private_match_without_the_invite_link(host, guest, outsider):
    match = live_match(host, guest, private=True)
    assert client_for(outsider).get(f"/match/{match.pk}/").status_code == 404
    assert client_for().get(f"/match/{match.pk}/?invite=wrong").status_code == 404
    assert client_for().get(f"/match/{match.pk}/?invite=%C3%A9t%C3%A9").status_code == 404
    invited = client_for().get(f"/match/{match.pk}/?invite={match.invite_token}")
    assert invited.status_code == 200
    assert f"invite={match.invite_token}" in invited.content.decode()
    assert client_for(guest).get(f"/match/{match.pk}/").status_code == 200


def test_it_answers_404_for_a_missing_match():
    assert client_for().get("/match/987654/").status_code == 404


def test_it_shows_the_invite_link_to_the_host_of_an_open_match(host):
    match = services.create_match(host, private=True)
    page = client_for(host).get(f"/match/{match.pk}/").content.decode()
    assert f"/invite/{match.invite_token}/" in page


def test_it_shows_everything_once_the_match_is_over(host, guest, outsider):
    match = picked_match(host, guest)
    services.resign(match, host)
    page = client_for(outsider).get(f"/match/{match.pk}/").content.decode()
    assert "guest won the match." in page
    assert "Sea Wolf" in page and "Archerfish" in page
