"""A time bank with an increment: each player's bank for the whole match, kept on the match row,
exact across reloads (a restart keeps nothing in memory), running out of it loses; picks have their
own allowance. Time is a fake clock here: every change happens at a moment the test sets."""
from datetime import timedelta

import pytest

from game import fairness, games, services, time_controls
from game.games.aquawar import engine
from game.live import clocks, frames, presenter
from game.models import Match
from game.programs import seats
from game.time_controls import TimeControl

from ..games.miracle.helpers import DECK_A, DECK_B
from .fake_clock import START, clock  # noqa: F401 (a fixture)
from .helpers import GUEST_TEAMS, HOST_TEAMS

pytestmark = pytest.mark.django_db

BANK, INCREMENT, PICK = 180, 5, 60


def fresh(match):
    return Match.objects.get(pk=match.pk)


def s(seconds):
    return timedelta(seconds=seconds)


def banked(host, guest, game="aquawar", bank=BANK, increment=INCREMENT):
    match = services.create_match(host, game=game, move_seconds=increment, bank_seconds=bank)
    return services.join_match(match, guest)


def send(match, user, command):
    current = fresh(match)
    services.apply_command(match.pk, user, f"c{current.version}", current.version, command)
    return fresh(match)


def test_it_adds_the_increment_to_what_is_left_after_each_decision(host, guest, clock):
    match = banked(host, guest)
    # Both owe a pick, on the pick allowance: the banks are full and not running.
    assert match.deadlines == [START + s(PICK)] * 2 and match.banks == [s(BANK)] * 2
    clock.at(20)
    send(match, host, HOST_TEAMS[1])
    clock.at(50)
    match = send(match, guest, GUEST_TEAMS[1])
    mover = match.state["to_move"]
    players = (host, guest)
    # Play starts: the mover's bank runs, the whole of it (50 s of picking took nothing from it).
    assert match.deadlines[mover] == START + s(50 + BANK) and match.deadlines[1 - mover] is None
    clock.at(60)
    match = send(match, players[mover], {"assert": None})
    # 10 s spent, 5 s back: 175 s left, still running.
    assert match.deadlines[mover] == START + s(60 + BANK - 10 + INCREMENT)
    clock.at(100)
    action = engine.legal_commands(engine.MatchState.from_json(match.state), mover)[0]
    match = send(match, players[mover], action)
    # 40 s more, 5 s back: 140 s kept on the row while the other side thinks on a full bank.
    assert match.deadlines[mover] is None and match.banks[mover] == s(BANK - 50 + 2 * INCREMENT)
    assert match.deadlines[1 - mover] == START + s(100 + BANK)


def test_a_reload_from_the_database_alone_goes_on_exactly(host, guest, clock):
    match = banked(host, guest)
    send(match, host, HOST_TEAMS[1])
    match = send(match, guest, GUEST_TEAMS[1])
    mover = match.state["to_move"]
    clock.at(30)
    action = engine.legal_commands(engine.MatchState.from_json(send(match, (host, guest)[mover], {"assert": None}).state), mover)[0]
    clock.at(70)
    match = send(match, (host, guest)[mover], action)
    left = s(BANK - 70 + 2 * INCREMENT)
    # What a restarted server (or a reconnecting page) reads is the row: the same bank, to the microsecond.
    payload = frames.payload(frames.load_match(match.pk), 1 - mover)
    assert fresh(match).banks[mover] == left
    assert payload["clock"]["banks"][mover] == left.total_seconds() * 1000
    shown = presenter.countdown(payload, mover)
    assert shown["text"] == "2:00" and shown["deadline"] is None


def test_running_out_of_the_bank_loses_the_match(host, guest, clock):
    match = banked(host, guest)
    send(match, host, HOST_TEAMS[1])
    match = send(match, guest, GUEST_TEAMS[1])
    mover = match.state["to_move"]
    match = send(match, (host, guest)[mover], {"assert": None})
    clock.at(BANK + INCREMENT - 1)
    assert services.forfeit_overdue(match.pk) is None
    clock.at(BANK + INCREMENT + 1)
    assert services.forfeit_overdue(match.pk) is not None
    over = fresh(match)
    assert (over.status, over.end_reason, over.winner) == (Match.Status.FINISHED, "timeout", 1 - mover)


def test_a_pick_that_runs_out_of_its_allowance_aborts_before_a_first_move(host, guest, clock):
    match = banked(host, guest)
    send(match, host, HOST_TEAMS[1])
    # The pick's allowance is its own: the bank is three minutes, the pick one.
    clock.at(PICK + 1)
    services.forfeit_overdue(match.pk)
    over = fresh(match)
    assert (over.status, over.end_reason) == (Match.Status.ABORTED, "no_first_move")


def test_a_turn_game_adds_the_increment_once_per_turn(host, guest, clock):
    match = banked(host, guest, game="miracle", bank=600, increment=30)
    send(match, host, {"deck": DECK_A})
    clock.at(40)
    match = send(match, guest, {"deck": DECK_B})
    game = games.get("miracle")
    first = game.load(match.state).current
    player = (host, guest)[first]
    assert match.deadlines[first] == START + s(40 + 600)
    clock.at(100)
    within = next(c for c in game.legal_commands(game.load(match.state), first) if "summon" in c or "move" in c)
    match = send(match, player, within)
    # A command within the turn: the bank runs on, no increment.
    assert match.deadlines[first] == START + s(40 + 600)
    clock.at(160)
    match = send(match, player, {"end_turn": {}})
    assert match.banks[first] == s(600 - 120 + 30) and match.deadlines[first] is None


def test_banks_and_increments_outside_the_limits_are_refused_with_what_is_allowed(host):
    for bank, increment in ((30, 5), (3601, 5), (180, 61), (180, -1), (True, 5)):
        with pytest.raises(services.ServiceError) as refused:
            services.create_match(host, move_seconds=increment, bank_seconds=bank)
        assert refused.value.code == "bad_time_control"
    with pytest.raises(services.ServiceError) as refused:
        services.create_match(host, move_seconds=61, bank_seconds=180)
    assert str(refused.value.message) == "A time bank is 1 min to 60 min, plus 0 to 60 s per decision."
    assert not Match.objects.exists()
    made = services.create_match(host, move_seconds=7, bank_seconds=420)
    assert time_controls.of(made) == TimeControl(7, 420)


def test_the_bank_arithmetic_on_its_own():
    control = TimeControl(INCREMENT, BANK)
    period = clocks.Period(due=True, picking=False, was_picking=False, acted=True, restart=True)
    deadline, bank = clocks.next_bank(START + s(100), None, period, START + s(30), control, PICK)
    # 70 s were left, 5 s more, and a fresh period runs on it at once.
    assert (deadline, bank) == (START + s(30 + 75), s(75))
    idle = period._replace(due=False)
    assert clocks.next_bank(START + s(100), s(80), idle, START + s(130), control, PICK) == (None, s(INCREMENT))


def test_against_the_computer_only_the_persons_bank_is_shown(host, clock):
    match = seats.start_vs_computer(host, "random", move_seconds=INCREMENT, bank_seconds=BANK)
    payload = frames.payload(frames.load_match(match.pk), 0)
    assert presenter.countdown(payload, 0) is not None and presenter.countdown(payload, 1) is None


def test_an_absent_opponent_may_be_claimed_against_after_a_minute_not_after_the_increment(settings):
    settings.CLAIM_AFTER_SECONDS = 60
    assert fairness.claim_after(TimeControl(INCREMENT, BANK)) == s(60)
    assert fairness.claim_after(TimeControl(120)) == s(120)
    assert fairness.claim_after(TimeControl(time_controls.DAY)) is None
