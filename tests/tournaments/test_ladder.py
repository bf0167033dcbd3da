"""The programs' ladder: connected ladder programs are paired by closest rating, at most two ladder
matches each at once; a program left without a free opponent plays a built-in level (the reference:
rated, but only the program's rating moves); nothing for programs that are not connected; exactly once when several processes pair."""
from datetime import timedelta

import pytest
from django.utils import timezone

from game import services as match_services
from game.models import Match
from game.programs.models import BotAccount, BotConnection, BotSeat
from ratings.api import ratings_of
from ratings.models import Rating
from tournaments import runner, services
from tournaments.models import LadderMatch

from .conftest import race

GAME = "aquawar"


def connect(user, name="a"):
    BotConnection.objects.create(channel_name=f"bot-{user.pk}-{name}", user=user, seen=timezone.now())


def on_ladder(programs, ratings, connected=True):
    for program, rating in zip(programs, ratings):
        Rating.objects.create(user=program, game=GAME, rating=rating, deviation=60)
        services.join_ladder(program, GAME)
        if connected:
            connect(program)


def live_counts():
    return runner.live_ladder_counts(GAME)


@pytest.mark.django_db
def test_closest_ratings_meet_and_the_odd_one_out_plays_a_built_in_level(programs):
    on_ladder(programs[:3], [1500, 1530, 1900])
    started = runner.pair_ladder(GAME)
    assert len(started) == 2
    between = [m for m in started if not BotAccount.objects.filter(user__in=[m.host, m.guest]).exists()]
    assert len(between) == 1
    assert {between[0].host, between[0].guest} == {programs[0], programs[1]}
    assert between[0].rated and set(BotSeat.objects.filter(match=between[0]).values_list("level", flat=True)) == {""}
    reference = next(m for m in started if m not in between)
    assert reference.host == programs[2] and reference.rated
    seats = dict(BotSeat.objects.filter(match=reference).values_list("seat", "level"))
    assert seats[0] == "" and seats[1] in ("random", "greedy", "expert")
    assert LadderMatch.objects.count() == 2 and all(m.status == "live" for m in started)


@pytest.mark.django_db
def test_a_built_in_level_is_a_fixed_reference_only_the_programs_rating_moves(programs):
    on_ladder(programs[:1], [1500])
    (reference,) = runner.pair_ladder(GAME)
    level = reference.guest
    before = ratings_of([programs[0].pk, level.pk], GAME)
    match_services.resign(reference, programs[0])
    after = ratings_of([programs[0].pk, level.pk], GAME)
    assert after[programs[0].pk].rating < before[programs[0].pk].rating
    assert after[level.pk].rating == before[level.pk].rating


@pytest.mark.django_db
def test_a_program_plays_at_most_two_ladder_matches_at_once(programs):
    on_ladder(programs[:2], [1500, 1510])
    for _ in range(4):
        runner.pair_ladder(GAME)
    assert live_counts()[programs[0].pk] == runner.LADDER_MATCHES_AT_ONCE
    assert live_counts()[programs[1].pk] == runner.LADDER_MATCHES_AT_ONCE
    # One ends: room for one more.
    Match.objects.filter(pk=LadderMatch.objects.first().match_id).update(status="finished")
    assert len(runner.pair_ladder(GAME)) == 1


@pytest.mark.django_db
def test_programs_that_are_not_connected_or_not_on_the_ladder_are_left_alone(programs, host):
    on_ladder(programs[:2], [1500, 1510], connected=False)
    connect(programs[2])  # connected, but not on the ladder
    assert runner.pair_ladder(GAME) == []
    # A stale connection (its process died) counts for nothing either.
    BotConnection.objects.create(channel_name="old", user=programs[0], seen=timezone.now() - timedelta(hours=1))
    assert runner.pair_ladder(GAME) == []
    assert not Match.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_three_processes_pairing_the_ladder_at_once_never_overshoot(programs):
    on_ladder(programs, [1500, 1510, 1520, 1530])

    def pair_three_times():
        for _ in range(3):
            runner.pair_ladder(GAME)

    errors = race(pair_three_times)
    assert not errors
    counts = live_counts()
    assert all(counts[p.pk] == runner.LADDER_MATCHES_AT_ONCE for p in programs), counts
