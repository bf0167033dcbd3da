"""What the lobby's lists say of each match (issue #29): both players' ratings in the match's game,
the game and time control, a live match's score and turn in its game's words (nothing hidden), and
how many players are online now, counted from the sockets' presence once per ``ONLINE_FOR``."""
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from game import services
from game.games.aquawar.engine import legal_commands
from game.models import Presence
from lobby import connections
from lobby.models import LobbyConnection
from lobby.views import described
from ratings.models import Rating

from .helpers import fresh

pytestmark = pytest.mark.django_db

LOBBY = reverse("lobby")
FRAGMENT = reverse("lobby_matches")


def rate(user, game, rating, deviation):
    Rating.objects.create(user=user, game=game, rating=rating, deviation=deviation, played=12, last_played=timezone.now())


def test_live_and_open_matches_show_both_ratings_in_their_own_game(host, guest, outsider, outsider_client):
    rate(host, "aquawar", 1712.4, 60)
    rate(host, "miracle", 1400, 60)
    rate(guest, "aquawar", 1588, 200)
    live = services.join_match(services.create_match(host, move_seconds=30), guest)
    services.create_match(guest, game="miracle", move_seconds=60)
    page = outsider_client.get(LOBBY).content.decode()
    live_part = page[page.index('id="live-matches-heading"'):]
    open_part = page[page.index('id="open-matches-heading"'):page.index('id="live-matches-heading"')]
    # Established: whole points; provisional: with "?".
    assert 'data-rating="1712"' in live_part and 'data-rating="1588?"' in live_part
    # The guest's open match of the other game: their (default, provisional) rating there.
    assert 'data-rating="1500?"' in open_part and "1712" not in open_part
    assert "Aquawar" in live_part and "30 s" in live_part and f'id="watch-{live.pk}"' in live_part


def test_a_live_matchs_score_and_turn_follow_its_moves(host, guest, outsider_client):
    live = services.join_match(services.create_match(host), guest)
    page = outsider_client.get(LOBBY).content.decode()
    assert "Round 1 · 0–0 · picking fish" in page
    digest = page.split("?digest=")[1].split('"')[0]
    for seat, player in ((0, host), (1, guest)):
        match = fresh(live)
        state = match.game_object.load(match.state)
        services.apply_command(match.pk, player, f"pick-{seat}", match.version, legal_commands(state, seat)[0])
    response = outsider_client.get(FRAGMENT, {"digest": digest})
    # A move changes what the list says, so the poll brings it.
    assert response.status_code == 200
    assert "Round 1 · 0–0 · turn" in response.content.decode()


def test_a_miracle_match_says_its_turn_and_the_miracles_hp(host, guest):
    live = services.join_match(services.create_match(host, game="miracle"), guest)
    described({"my_matches": [], "open_matches": [], "live_matches": [live]})
    assert live.progress == "Turn 0 · miracles 30–30 HP"
    assert live.ratings[0].rating == live.ratings[1].rating == 1500


def test_the_online_count_counts_each_account_with_a_socket_once(host, guest, outsider, client):
    now = timezone.now()
    LobbyConnection.objects.create(channel_name="a", user=host, seen=now)
    LobbyConnection.objects.create(channel_name="b", user=host, seen=now)
    match = services.join_match(services.create_match(host), guest)
    Presence.objects.create(channel_name="c", match=match, user=guest, seat=1, seen=now)
    Presence.objects.create(channel_name="d", match=match, user=None, seen=now)  # an anonymous spectator
    # A socket of a process that died long ago no longer counts.
    LobbyConnection.objects.create(channel_name="e", user=outsider, seen=now - timedelta(hours=1))
    assert "2 players online now" in client.get(LOBBY).content.decode()
    # Counted once per ONLINE_FOR, not per view: a new socket shows after that.
    LobbyConnection.objects.create(channel_name="f", user=outsider, seen=now)
    assert connections.online_count() == 2
    cache.delete(connections.ONLINE_KEY)
    assert connections.online_count() == 3


def test_the_online_count_reads_the_database_once_per_period(client, django_assert_num_queries):
    connections.online_count()
    with django_assert_num_queries(0):
        connections.online_count()
