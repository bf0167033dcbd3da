import json
import random
import re

import pytest
from django.test import Client
from django.utils.html import escape

from game.games.aquawar import engine
from game import games, services
from game.live import frames
from game.programs import seats
from game.games.aquawar.engine import SPECIES
from game.games.aquawar.engine.randomplay import players_to_move, random_command
from game.models import Match
from game.games.aquawar.texts import NAMES
from ratings.models import ProgramAccount

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


def test_a_player_done_with_a_match_listens_for_their_next_one_there(host, guest, outsider):
    """Once it is over, a player's match page opens the lobby's socket (a tournament's next round,
    an open match of theirs joined, takes them there); not while it is played, nor for a watcher."""
    lobby_socket = 'ws-connect="/ws/lobby/"'
    match = picked_match(host, guest)
    assert lobby_socket not in client_for(host).get(f"/match/{match.pk}/").content.decode()
    services.resign(match, host)
    for player in (host, guest):
        page = client_for(player).get(f"/match/{match.pk}/").content.decode()
        assert lobby_socket in page and 'id="lobby-joined"' in page and "lobby/lobby.js" in page
    watched = client_for(outsider).get(f"/match/{match.pk}/").content.decode()
    assert lobby_socket not in watched and "lobby/lobby.js" not in watched


def test_its_move_forms_work_without_javascript_as_plain_posts(host, guest):
    """The board's clicks need JavaScript; the move list beside it posts to the server without."""
    match = live_match(host, guest)
    page = controls_of(client_for(host).get(f"/match/{match.pk}/").content.decode())
    assert f'action="/match/{match.pk}/move/"' in page and "csrfmiddlewaretoken" in page
    pick = {"type": "form", "form": "pick", "id": "p1", "version": "0", "fish": HOST_TEAMS[1]["pick"]}
    response = client_for(host).post(f"/match/{match.pk}/move/", pick)
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"
    match.refresh_from_db()
    assert match.state["picks"][0] is not None


def test_a_refused_posted_move_says_why_and_changes_nothing(host, guest, outsider):
    match = live_match(host, guest)
    too_few = {"type": "form", "form": "pick", "id": "p1", "version": "0", "fish": "archerfish"}
    response = client_for(host).post(f"/match/{match.pk}/move/", too_few, follow=True)
    assert "Pick exactly 4 fish." in response.content.decode()
    nonsense = {"type": "form", "form": "act", "id": "p2", "version": "0", "move": "{"}
    response = client_for(host).post(f"/match/{match.pk}/move/", nonsense, follow=True)
    assert "That form was not filled in completely." in response.content.decode()
    assert client_for(outsider).post(f"/match/{match.pk}/move/", too_few).status_code == 404
    assert client_for(host).get(f"/match/{match.pk}/move/").status_code == 405
    assert client_for(host, enforce_csrf_checks=True).post(f"/match/{match.pk}/move/", too_few).status_code == 403
    match.refresh_from_db()
    assert match.version == 0 and match.state["picks"] == [None, None]


def play_until_a_round_is_won(match, users):
    rng = random.Random(7)
    n = 0
    while True:
        match.refresh_from_db()
        state = engine.MatchState.from_json(match.state)
        if sum(state.score) == 1:
            return state.score.index(1)
        seat = players_to_move(state)[0]
        n += 1
        services.apply_command(match.pk, users[seat], f"r{n}", match.version, random_command(state, seat, rng))


def test_each_player_reads_the_result_from_their_own_side(host, guest, outsider):
    match = live_match(host, guest)
    users = (host, guest)
    winner = play_until_a_round_is_won(match, users)
    services.resign(match, users[1 - winner])
    pages = {seat: client_for(users[seat]).get(f"/match/{match.pk}/").content.decode() for seat in (0, 1)}
    assert "You won the match 1–0!" in pages[winner] and "You lost" not in pages[winner]
    assert "You lost the match 0–1." in pages[1 - winner]
    watching = client_for(outsider).get(f"/match/{match.pk}/").content.decode()
    assert f"{users[winner].username} won the match." in watching
    assert "Final score " + ("1–0" if winner == 0 else "0–1") in watching


def test_it_tells_the_page_whose_move_it_is(host, guest, outsider):
    match = live_match(host, guest)

    def your_move(user):
        page = client_for(user).get(f"/match/{match.pk}/").content.decode()
        return re.search(r'id="match-status"[^>]*data-your-move="(\w+)"', page).group(1)

    # Both owe a pick; once the host has locked in, only the guest does.
    assert your_move(host) == your_move(guest) == "true"
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    assert your_move(host) == "false" and your_move(guest) == "true"
    assert your_move(outsider) == "false"
    services.apply_command(match.pk, guest, "g", 1, GUEST_TEAMS[1])
    match.refresh_from_db()
    mover = match.state["to_move"]
    assert your_move((host, guest)[mover]) == "true" and your_move((host, guest)[1 - mover]) == "false"


def test_the_rematch_box_carries_where_an_accepted_rematch_is(host, guest):
    from game import rematch

    match = picked_match(host, guest)
    services.resign(match, host)
    rematch.answer(match.pk, host, "offer")
    before = client_for(guest).get(f"/match/{match.pk}/").content.decode()
    assert 'id="match-rematch" data-state="offered"' in before and "data-href" not in before
    rematch.answer(match.pk, guest, "accept")
    new = rematch.info(Match.objects.get(pk=match.pk))["match"]
    after = client_for(host).get(f"/match/{match.pk}/").content.decode()
    assert f'id="match-rematch" data-state="accepted" data-href="/match/{new}/"' in after


def player_names(page):
    """The status line's two player entries (host, guest) as HTML."""
    status = page.split('id="match-status"', 1)[1].split("</p>", 1)[0]
    return [part.split("</span>\n", 1)[0] for part in status.split('class="match-player"')[1:]]


def rated_badge(page):
    return re.search(r'class="badge [\w-]+ match-rated">([^<]+)<', page).group(1)


@pytest.mark.parametrize("game", games.NAMES)
def test_the_match_page_marks_a_built_in_levels_side_as_a_program_and_says_casual(host, outsider, game):
    level = next(iter(games.get(game).levels))
    match = seats.start_vs_computer(host, level, game=game)
    for viewer in (host, outsider):
        page = client_for(viewer).get(f"/match/{match.pk}/").content.decode()
        mine, computers = player_names(page)
        assert "badge--bot" not in mine and "badge--bot" in computers
        assert rated_badge(page) == "Casual"
    frame = frames.payload(frames.load_match(match.pk), None)
    assert frame["programs"] == [False, True] and frame["rated"] is False


def test_the_match_page_marks_a_program_accounts_side_and_says_rated_while_live(host, guest, outsider):
    ProgramAccount.objects.create(user=guest)
    match = services.start_between(host, guest, rated=True)
    assert match.status == "live"
    page = client_for(outsider).get(f"/match/{match.pk}/").content.decode()
    persons, programs = player_names(page)
    assert "badge--bot" not in persons and "badge--bot" in programs
    assert rated_badge(page) == "Rated"


def test_the_match_page_marks_nobody_between_two_people(host, guest):
    page = client_for(host).get(f"/match/{live_match(host, guest).pk}/").content.decode()
    assert [("badge--bot" in name) for name in player_names(page)] == [False, False]
    assert rated_badge(page) == "Casual"
