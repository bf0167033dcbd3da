"""The runner: a tournament starts at its time, each round's matches are started when the last one
ended, the results go in, the final table is written — exactly once, however many processes try."""
import threading
from datetime import timedelta

import pytest
from django.db import connections, transaction
from django.utils import timezone

from game import games
from game import services as match_services
from game.models import Match
from game.programs.models import BotSeat
from tournaments import runner, services, tables
from tournaments.models import Entry, Pairing, Tournament

from .conftest import new_tournament, race, start_now

DISPATCH_UID = "tournaments.on_match_ended"

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def advance_by_hand():
    """The tests call ``runner.advance`` themselves: the end of a match must not also advance the
    tournament in a worker thread, racing them for the lock (on PostgreSQL the loser skips it).
    The one test of that automatic path puts it back."""
    match_services.match_ended.disconnect(dispatch_uid=DISPATCH_UID)
    yield
    match_services.match_ended.connect(runner.on_match_ended, dispatch_uid=DISPATCH_UID)


def entered(tournament, players):
    for player in players:
        services.register(tournament.pk, player)
    start_now(tournament)


def finish_round(tournament, loser_of=lambda pairing: pairing.second):
    """Every live match of the current round ends: ``loser_of(pairing)`` resigns it."""
    tournament.refresh_from_db()
    for pairing in Pairing.objects.filter(tournament=tournament, round=tournament.round, match__status="live"):
        match_services.resign(pairing.match, loser_of(pairing))


def test_nothing_happens_before_the_start_time(host, people):
    cup = new_tournament(host)
    services.register(cup.pk, people[0])
    services.register(cup.pk, people[1])
    assert runner.advance(cup.pk) == 0
    cup.refresh_from_db()
    assert cup.status == "registration" and not Pairing.objects.exists()


def test_a_tournament_with_fewer_than_two_players_is_cancelled_at_its_start(host, people):
    cup = new_tournament(host)
    entered(cup, people[:1])
    runner.run_due()
    cup.refresh_from_db()
    assert (cup.status, cup.end_reason) == ("cancelled", "too_few")


def test_a_round_robin_of_five_plays_to_its_final_table(host, people):
    cup = new_tournament(host, kind="round_robin", rounds=None, rated=True)
    entered(cup, people[:5])
    runner.run_due()
    cup.refresh_from_db()
    assert (cup.status, cup.round, cup.rounds) == ("running", 1, 5)
    for round_number in range(1, 6):
        pairings = list(Pairing.objects.filter(tournament=cup, round=round_number))
        assert len(pairings) == 3 and sum(p.second_id is None for p in pairings) == 1
        matches = [p.match for p in pairings if p.match]
        assert all(m.status == "live" and m.rated and m.move_seconds == 60 and m.game == "aquawar" for m in matches)
        # The round is not over until every match is: nothing new yet.
        match_services.resign(matches[0], matches[0].guest)
        assert runner.advance(cup.pk) == round_number
        # Seat 0 wins every match: a known table.
        finish_round(cup)
        runner.advance(cup.pk)
    cup.refresh_from_db()
    assert cup.status == "finished" and cup.finished is not None
    met = [frozenset((p.first_id, p.second_id)) for p in Pairing.objects.filter(tournament=cup).exclude(second=None)]
    assert len(met) == len(set(met)) == 10
    entries = list(Entry.objects.filter(tournament=cup).order_by("final_rank"))
    assert sum(e.final_score for e in entries) == 10 + 5  # ten matches, five byes
    assert all(e.final_rank and e.final_tiebreak is not None for e in entries)
    # The table is kept as it was written, even if pairings' points were to change afterwards.
    Pairing.objects.filter(tournament=cup).update(first_points=0, second_points=0)
    assert [row.score for row, _ in tables.standings(cup)] == [e.final_score for e in entries]


def test_a_swiss_plays_its_rounds_and_called_off_matches_score_nothing(host, people):
    cup = new_tournament(host, rounds=3)
    entered(cup, people[:4])
    runner.advance(cup.pk)
    first = list(Pairing.objects.filter(tournament=cup, round=1))
    # One match is called off (say both clocks ran out at once): 0-0, and the round still ends.
    Match.objects.filter(pk=first[0].match_id).update(status="cancelled", end_reason="timeout")
    match_services.resign(first[1].match, first[1].first)
    assert runner.advance(cup.pk) == 2
    first = {p.pk: p for p in Pairing.objects.filter(tournament=cup, round=1)}
    points = sorted((p.first_points, p.second_points) for p in first.values())
    assert points == [(0.0, 0.0), (0.0, 1.0)]
    for _ in range(2):
        finish_round(cup)
        runner.advance(cup.pk)
    cup.refresh_from_db()
    assert cup.status == "finished" and cup.round == 3
    met = [frozenset((p.first_id, p.second_id)) for p in Pairing.objects.filter(tournament=cup)]
    assert len(met) == len(set(met)) == 6


def test_a_swiss_with_too_many_rounds_for_its_players_ends_when_no_new_pairing_is_left(host, people):
    cup = new_tournament(host, rounds=5)
    entered(cup, people[:2])
    runner.advance(cup.pk)
    finish_round(cup)
    runner.advance(cup.pk)
    cup.refresh_from_db()
    assert (cup.status, cup.end_reason, cup.round) == ("finished", "no_pairing", 1)
    assert [e.final_rank for e in Entry.objects.filter(tournament=cup).order_by("final_rank")] == [1, 2]


def test_the_end_of_a_rounds_last_match_starts_the_next_round_at_once(host, people, monkeypatch):
    cup = new_tournament(host, rounds=2)
    entered(cup, people[:2] + people[2:4])
    runner.advance(cup.pk)
    pairings = list(Pairing.objects.filter(tournament=cup, round=1))
    match_services.resign(pairings[0].match, pairings[0].second)
    assert Tournament.objects.get(pk=cup.pk).round == 1
    done = threading.Event()
    original = runner.advance

    def advance_and_tell(tournament_id, **options):
        try:
            return original(tournament_id, **options)
        finally:
            done.set()

    monkeypatch.setattr(runner, "advance", advance_and_tell)
    match_services.match_ended.connect(runner.on_match_ended, dispatch_uid=DISPATCH_UID)
    # No sweep runs in the tests: only the match's end can have set the round off.
    match_services.resign(pairings[1].match, pairings[1].second)
    assert done.wait(15)
    assert Tournament.objects.get(pk=cup.pk).round == 2


def test_the_end_of_a_rounds_last_match_is_seen_though_another_advance_holds_the_lock(host, people):
    """The last two matches of a round end at once: the first's advance, which looked before the
    second's end, still holds the lock when the second's advance comes. That one waits for the lock
    and starts the next round; skipping it would leave the round to the next sweep."""
    cup = new_tournament(host, rounds=2)
    entered(cup, people[:4])
    runner.advance(cup.pk)
    for pairing in Pairing.objects.filter(tournament=cup, round=1):
        match_services.resign(pairing.match, pairing.second)
    holding, release = threading.Event(), threading.Event()

    def first_advance_still_running():
        try:
            with transaction.atomic():
                Tournament.objects.select_for_update().get(pk=cup.pk)
                holding.set()
                release.wait(10)
        finally:
            connections.close_all()

    holder = threading.Thread(target=first_advance_still_running)
    holder.start()
    assert holding.wait(10)
    threading.Timer(0.5, release.set).start()
    assert runner.advance_after_end(cup.pk) == 2
    holder.join(10)
    assert Pairing.objects.filter(tournament=cup, round=2).count() == 2


def test_three_processes_advancing_at_once_start_a_round_once(host, people):
    cup = new_tournament(host, rounds=2)
    entered(cup, people)
    errors = race(lambda: runner.advance(cup.pk))
    assert not errors
    assert Pairing.objects.filter(tournament=cup).count() == 3
    assert Match.objects.count() == 3
    assert Tournament.objects.get(pk=cup.pk).round == 1


def test_every_clock_of_a_new_round_leaves_time_to_show_up(host, people, programs, settings):
    """A round's matches are made in one transaction, and their players must first hear of them:
    no clock runs out before ``SHOW_UP_SECONDS`` (a longer clock of the player's own counts)."""
    settings.SHOW_UP_SECONDS = 300
    settings.BOT_MOVE_SECONDS = 3
    cup = new_tournament(host, move_seconds=60)
    entered(cup, people[:2])
    bots = new_tournament(host, for_programs=True)
    entered(bots, programs[:2])
    before = timezone.now()
    runner.run_due()
    people_match = Pairing.objects.get(tournament=cup).match
    assert all(d >= before + timedelta(seconds=300) for d in people_match.deadlines)
    program_match = Pairing.objects.get(tournament=bots).match
    deadlines = list(BotSeat.objects.filter(match=program_match).values_list("deadline", flat=True))
    assert len(deadlines) == 2 and all(d >= before + timedelta(seconds=300) for d in deadlines)
    settings.SHOW_UP_SECONDS = 10
    later = new_tournament(host, move_seconds=120)
    entered(later, people[2:4])
    runner.advance(later.pk)
    assert all(d >= timezone.now() + timedelta(seconds=100) for d in Pairing.objects.get(tournament=later).match.deadlines)


def test_a_called_off_match_goes_to_whoever_moved_against_an_opponent_who_never_did(host, people):
    """A person whose clock runs out before their first move gets the match aborted (no rating
    changes): in a tournament the opponent who came and moved still scores the point."""
    cup = new_tournament(host, rounds=1)
    entered(cup, people[:4])
    runner.advance(cup.pk)
    came, nobody = Pairing.objects.filter(tournament=cup)
    aquawar = games.get("aquawar")
    team = aquawar.legal_commands(aquawar.load(came.match.state), 1)[0]
    match_services.apply_command(came.match_id, came.second, "pick", 0, team)
    Match.objects.filter(pk__in=[came.match_id, nobody.match_id]).update(status="cancelled", end_reason="timeout")
    runner.advance(cup.pk)
    came.refresh_from_db()
    nobody.refresh_from_db()
    assert (came.first_points, came.second_points) == (0.0, 1.0)
    assert (nobody.first_points, nobody.second_points) == (0.0, 0.0)


def spy_on_starts(monkeypatch):
    """Count the runner's tries at starting a round's matches (each still made by the services)."""
    tries = []
    original = match_services.start_many

    def start_many(*args, **kwargs):
        tries.append(timezone.now())
        return original(*args, **kwargs)

    monkeypatch.setattr(runner.services, "start_many", start_many)
    return tries


def retry_now(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(retry_at=timezone.now() - timedelta(seconds=1))


def test_a_round_that_cannot_start_waits_longer_after_each_failure_instead_of_every_sweep(host, people, monkeypatch):
    tries = spy_on_starts(monkeypatch)
    cup = new_tournament(host, rounds=2)
    entered(cup, people[:2])
    # A time control the game no longer offers (as after a deploy that dropped it): refused.
    Tournament.objects.filter(pk=cup.pk).update(move_seconds=45)
    before = timezone.now()
    for _sweep in range(3):
        runner.run_due()
        runner.advance(cup.pk)
    cup.refresh_from_db()
    assert len(tries) == 1
    assert (cup.status, cup.round, cup.start_failures) == ("registration", 0, 1)
    assert cup.retry_at >= before + runner.FIRST_RETRY
    # Nothing of the failed start is kept: no match, no pairing, no frozen rating.
    assert not Match.objects.exists() and not Pairing.objects.exists()
    assert not Entry.objects.filter(tournament=cup, rating__isnull=False).exists()

    retry_now(cup)
    before = timezone.now()
    runner.run_due()
    runner.run_due()
    cup.refresh_from_db()
    assert len(tries) == 2 and cup.start_failures == 2
    assert cup.retry_at >= before + 2 * runner.FIRST_RETRY

    # Once the cause is gone, the next try starts the round and the count starts again.
    Tournament.objects.filter(pk=cup.pk).update(move_seconds=60)
    retry_now(cup)
    runner.run_due()
    cup.refresh_from_db()
    assert (cup.status, cup.round, cup.start_failures, cup.retry_at) == ("running", 1, 0, None)
    assert Pairing.objects.get(tournament=cup).match.move_seconds == 60


def test_a_next_round_that_never_starts_ends_the_tournament_with_the_rounds_played(host, people, monkeypatch):
    tries = spy_on_starts(monkeypatch)
    cup = new_tournament(host, rounds=3)
    entered(cup, people[:4])
    runner.advance(cup.pk)
    finish_round(cup)
    Tournament.objects.filter(pk=cup.pk).update(move_seconds=45)
    for attempt in range(1, runner.START_TRIES + 1):
        runner.run_due()
        cup.refresh_from_db()
        assert cup.start_failures == attempt and len(tries) == 1 + attempt
        if attempt < runner.START_TRIES:
            assert cup.status == "running" and cup.retry_at is not None
            retry_now(cup)
    assert (cup.status, cup.end_reason, cup.round, cup.retry_at) == ("finished", "start_failed", 1, None)
    # Round 1's results were recorded before the failed starts, and make the final table.
    assert sorted(e.final_score for e in Entry.objects.filter(tournament=cup)) == [0.0, 0.0, 1.0, 1.0]
    runner.run_due()
    assert len(tries) == 1 + runner.START_TRIES


def test_a_tournament_that_never_starts_is_cancelled_after_the_last_try(host, people, monkeypatch):
    spy_on_starts(monkeypatch)
    cup = new_tournament(host, rounds=2)
    entered(cup, people[:2])
    Tournament.objects.filter(pk=cup.pk).update(move_seconds=45)
    for _attempt in range(runner.START_TRIES):
        retry_now(cup)
        runner.run_due()
    cup.refresh_from_db()
    assert (cup.status, cup.end_reason, cup.start_failures) == ("cancelled", "start_failed", runner.START_TRIES)
    assert not Match.objects.exists()
