"""A 神迹之战 clock counts a whole turn: a person's time control runs from the moment the turn falls to
them, through every summon and move, until they end it; a program gets 10 s for its deck and 3 s
per turn. Running out loses the match."""
from datetime import timedelta

import pytest
from django.utils import timezone

from game import games, services
from game.models import Match

from .helpers import DECK_A, DECK_B

pytestmark = pytest.mark.django_db

GAME = games.get("miracle")


def live(host, guest, seconds=60):
    return services.join_match(services.create_match(host, game="miracle", move_seconds=seconds), guest)


def send(match, user, command):
    current = Match.objects.get(pk=match.pk)
    services.apply_command(match.pk, user, f"c{current.version}", current.version, command)
    return Match.objects.get(pk=match.pk)


def state_of(match):
    return GAME.load(Match.objects.get(pk=match.pk).state)


def a_command_within_the_turn(match, seat):
    """A summon or a move (not the end of the turn) of ``seat``, legal now."""
    return next(c for c in GAME.legal_commands(state_of(match), seat) if "summon" in c or "move" in c)


def deadlines(match):
    return match.deadline_0, match.deadline_1


def test_a_turn_shares_one_period_and_ending_it_stops_the_clock(host, guest):
    match = live(host, guest)
    users = (host, guest)
    assert match.deadline_0 is not None and match.deadline_1 is not None  # both owe a deck
    match = send(match, host, {"deck": DECK_A})
    assert match.deadline_0 is None and match.deadline_1 is not None
    match = send(match, guest, {"deck": DECK_B})
    first = state_of(match).current
    start = deadlines(match)[first]
    assert start is not None and deadlines(match)[1 - first] is None
    # A summon inside the turn leaves the turn's deadline where it was.
    match = send(match, users[first], a_command_within_the_turn(match, first))
    assert deadlines(match)[first] == start
    # Ending the turn stops this clock and starts the other side's.
    match = send(match, users[first], {"end_turn": {}})
    assert deadlines(match)[first] is None and deadlines(match)[1 - first] > start


def test_a_person_whose_turn_runs_out_loses(host, guest):
    match = live(host, guest)
    send(match, host, {"deck": DECK_A})
    match = send(match, guest, {"deck": DECK_B})
    first = state_of(match).current
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(**{f"deadline_{first}": past})
    services.forfeit_overdue(match.pk)
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.FINISHED and match.winner == 1 - first and match.end_reason == "timeout"


def test_a_program_gets_ten_seconds_for_its_deck_and_three_per_turn(host, guest):
    state = GAME.new_match(4)
    assert GAME.program_seconds(None) == 3 and GAME.program_seconds(state) == 10
    state, _ = GAME.apply(state, 0, {"deck": DECK_A})
    state, _ = GAME.apply(state, 1, {"deck": DECK_B})
    assert GAME.program_seconds(state) == 3
    assert GAME.restarts_clock({"deck": DECK_A}) and not GAME.restarts_clock({"end_turn": {}})
    assert not GAME.restarts_clock({"move": {"unit": 1, "to": [0, 0, 0]}})
