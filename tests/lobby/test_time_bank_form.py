"""Choosing a time bank (a preset or one's own within the game's limits) or a correspondence control
in the lobby, and Play now pools and tournaments keyed by the whole control."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from game.models import Match
from game.time_controls import DAY
from ratings import pairing
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

NEW = reverse("match_new")


def select_of(page, field_id):
    return page.split(f'id="{field_id}"', 1)[1].split("</select>", 1)[0]


def test_the_lobby_offers_banks_and_correspondence_beside_the_clocks_per_decision(host_client):
    select = select_of(host_client.get(reverse("lobby")).content.decode(), "id_move_seconds")
    for value, label in (
        ("aquawar:180+5", "3 min + 5 s per decision"),
        ("miracle:600+30", "10 min + 30 s per turn"),
        (f"aquawar:{DAY}", "1 day per decision"),
        (f"miracle:{7 * DAY}", "7 days per turn"),
        ("aquawar:30", "30 s per decision"),
    ):
        assert f'<option value="{value}">{label}</option>' in select


def test_a_preset_bank_makes_a_match_with_that_bank_and_increment(host_client):
    host_client.post(NEW, {"visibility": "open", "game": "miracle", "move_seconds": "miracle:600+30"})
    match = Match.objects.get()
    assert (match.game, match.bank_seconds, match.move_seconds) == ("miracle", 600, 30)


def test_a_bank_of_ones_own_within_the_limits_is_taken(host_client):
    host_client.post(NEW, {"visibility": "open", "move_seconds": "0", "bank_minutes": "4", "increment": "3"})
    match = Match.objects.get()
    assert (match.bank_seconds, match.move_seconds) == (240, 3)


@pytest.mark.parametrize("minutes, increment", [("61", "5"), ("0", "5"), ("5", "61"), ("5", "-1"), ("x", "5")])
def test_a_bank_outside_the_limits_is_refused_saying_what_is_allowed(host_client, minutes, increment):
    response = host_client.post(
        NEW, {"visibility": "open", "bank_minutes": minutes, "increment": increment}, follow=True
    )
    assert not Match.objects.exists()
    assert "A time bank is 1 min to 60 min, plus 0 to 60 s per decision." in response.content.decode()


def test_a_bank_from_another_game_is_refused(host_client):
    response = host_client.post(NEW, {"visibility": "open", "move_seconds": "miracle:600+30"}, follow=True)
    assert not Match.objects.exists() and "Choose a time control" in response.content.decode()


def test_the_lobby_remembers_the_bank_chosen_last(host_client):
    host_client.post(NEW, {"visibility": "open", "move_seconds": "aquawar:300+5"})
    select = select_of(host_client.get(reverse("lobby")).content.decode(), "id_move_seconds")
    assert '<option value="aquawar:300+5" selected>' in select


def test_play_now_pairs_only_seekers_of_the_same_bank(host, guest, outsider):
    pairing.seek(host, move_seconds=5, bank_seconds=180)
    pairing.seek(guest, move_seconds=5, bank_seconds=300)
    assert not Match.objects.exists()
    pairing.seek(outsider, move_seconds=5, bank_seconds=180)
    match = Match.objects.get()
    assert {match.host, match.guest} == {host, outsider} and (match.bank_seconds, match.move_seconds) == (180, 5)


def test_a_tournament_plays_under_its_bank(host):
    tournament = tournaments.create(
        host, name="Bank cup", game="aquawar", kind="swiss", for_programs=False, rated=True,
        move_seconds=5, bank_seconds=180, starts=timezone.now() + timedelta(hours=1), rounds=3,
    )
    assert (tournament.bank_seconds, tournament.move_seconds) == (180, 5)
    with pytest.raises(tournaments.ServiceError) as refused:
        tournaments.create(
            host, name="Bad cup", game="aquawar", kind="swiss", for_programs=False, rated=True,
            move_seconds=5, bank_seconds=10, starts=timezone.now() + timedelta(hours=1), rounds=3,
        )
    assert refused.value.code == "bad_time_control"
