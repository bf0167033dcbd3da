"""The programs' ladder: connected ladder programs are paired by closest rating, never twice in a row
against the same opponent, at most two ladder matches each at once; a program left without an
opponent waits for one, and plays a built-in level (the reference: rated, but only the program's
rating moves) once it has waited long enough, or at once if no program can come; nothing for
programs that are not connected; exactly once when several processes pair."""
from datetime import timedelta

import pytest
from django.utils import timezone

from game import services as match_services
from game.models import Match
from game.programs.models import BotAccount, BotConnection, BotSeat
from game import games
from ratings.api import anchor, ratings_of
from ratings.models import Rating
from tournaments import ladder, runner, services
from tournaments.models import LadderEntry, LadderMatch

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


def programs_of(match):
    return {match.host_id, match.guest_id}


@pytest.mark.django_db
def test_closest_ratings_meet_and_the_odd_one_out_waits_for_a_program(programs):
    p0, p1, p2 = programs[:3]
    on_ladder(programs[:3], [1500, 1530, 1900])
    (first,) = runner.pair_ladder(GAME)
    assert programs_of(first) == {p0.pk, p1.pk}
    assert first.rated and set(BotSeat.objects.filter(match=first).values_list("level", flat=True)) == {""}
    # p2 waits: p0 and p1 may each play one more at once. The closest of them first, then the other
    # (p0 and p1 have just met: no second match between them).
    (second,) = runner.pair_ladder(GAME)
    assert programs_of(second) == {p1.pk, p2.pk}
    (third,) = runner.pair_ladder(GAME)
    assert programs_of(third) == {p0.pk, p2.pk}
    assert runner.pair_ladder(GAME) == []
    assert LadderMatch.objects.count() == 3


def level_of(match):
    return BotSeat.objects.get(match=match, seat=1).level


def closest_level(rating):
    """The built-in level whose rating (measured, or the conventional anchor) is nearest ``rating``."""
    return min(games.get(GAME).levels, key=lambda level: abs(anchor(level, GAME).rating - rating))


@pytest.mark.django_db
def test_a_program_left_over_plays_the_closest_built_in_level_once_it_has_waited(programs):
    p0, p1, p2 = programs[:3]
    on_ladder(programs[:3], [1500, 1530, 1900])
    for _ in range(3):
        runner.pair_ladder(GAME)  # the three matches between them
    Match.objects.filter(host__in=[p0, p2], guest__in=[p0, p2]).update(status="finished", finished=timezone.now())
    # Both have room. p2's last opponents were p0 and (for p1) p2 itself: no program can be its
    # next, so it plays the closest level at once. p0 waits: p1 is busy, but may finish and meet it.
    (reference,) = runner.pair_ladder(GAME)
    assert (reference.host_id, level_of(reference), reference.rated) == (p2.pk, closest_level(1900), True)
    assert runner.pair_ladder(GAME) == []
    later = timezone.now() - timedelta(seconds=ladder.LEVEL_AFTER_SECONDS + 1)
    Match.objects.filter(host__in=[p0, p2], guest__in=[p0, p2]).update(finished=later)
    LadderEntry.objects.update(joined=later)
    (waited,) = runner.pair_ladder(GAME)
    assert (waited.host_id, level_of(waited)) == (p0.pk, closest_level(1500))


@pytest.mark.django_db
def test_a_program_no_other_program_can_meet_plays_a_level_at_once(programs):
    on_ladder(programs[:2], [1500, 1510])
    runner.pair_ladder(GAME)
    # They have just met, and nobody else is on the ladder: a level each, without waiting.
    started = runner.pair_ladder(GAME)
    assert len(started) == 2 and [level_of(m) for m in started] == [closest_level(1500), closest_level(1510)]


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
