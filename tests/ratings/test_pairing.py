"""Quick pairing: closest rating in a widening window, exactly once under racing seekers, limits."""
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from game.models import Match
from game.services import ServiceError
from ratings import pairing
from ratings.api import mark_program
from ratings.models import Rating, Seek
from tests.game.helpers import seat_at_the_live_limit
from tests.game.test_services import race

pytestmark = pytest.mark.django_db(transaction=True)


def rated_at(user, rating):
    Rating.objects.create(user=user, game="aquawar", rating=rating, deviation=60)
    return user


def waited(seconds):
    """Make every open seek look ``seconds`` old (its window that much wider), still fresh."""
    Seek.objects.filter(match=None).update(created=timezone.now() - timedelta(seconds=seconds))


def test_two_seekers_are_paired_into_one_live_match_and_both_taken_there(host, guest):
    first = pairing.seek(host, rated=True)
    assert first.match_id is None and pairing.poll(host) == ("waiting", None)
    second = pairing.seek(guest, rated=True)
    match = Match.objects.get()
    assert second.match_id == match.pk and (match.status, match.rated) == ("live", True)
    assert {match.host, match.guest} == {host, guest}
    assert pairing.poll(host) == ("paired", match.pk) and pairing.poll(guest) == ("paired", match.pk)
    assert pairing.poll(host) == ("none", None) and not Seek.objects.exists()


def test_one_open_seek_per_account(host):
    pairing.seek(host)
    with pytest.raises(ServiceError) as refused:
        pairing.seek(host)
    assert refused.value.code == "already_seeking" and Seek.objects.count() == 1


def test_seekers_of_another_game_time_control_or_kind_are_not_paired(host, guest, outsider):
    pairing.seek(host, move_seconds=30)
    pairing.seek(guest, move_seconds=60)
    pairing.seek(outsider, move_seconds=30, rated=True)
    waited(600)
    assert pairing.pair_waiting() == 0 and not Match.objects.exists()


def test_the_window_widens_with_waiting(host, guest):
    rated_at(host, 1500)
    rated_at(guest, 1900)
    pairing.seek(host)
    pairing.seek(guest)
    assert not Match.objects.exists()
    waited(5)  # 100 + 50 × 5 = 350 points: not yet
    assert pairing.pair_waiting() == 0
    waited(7)  # 450 points: both windows reach
    assert pairing.pair_waiting() == 1


def test_after_a_while_anyone_in_the_pool_will_do(host, guest):
    rated_at(host, 1000)
    rated_at(guest, 2600)
    pairing.seek(host)
    pairing.seek(guest)
    waited(9)  # 550 points
    assert pairing.pair_waiting() == 0
    waited(pairing.OPEN_AFTER.total_seconds())
    assert pairing.pair_waiting() == 1


def test_the_closest_rating_is_taken(make_user):
    far, near, other = rated_at(make_user("far"), 1300), rated_at(make_user("near"), 1530), rated_at(make_user("x"), 1700)
    for user in (far, near, other):
        pairing.seek(user)
    waited(60)
    me = rated_at(make_user("me"), 1500)
    seek = pairing.seek(me)
    assert {seek.match.host, seek.match.guest} == {me, near}


def test_a_seek_nobody_polls_any_more_is_not_paired_and_swept(host, guest):
    pairing.seek(host)
    Seek.objects.update(seen=timezone.now() - pairing.STALE_AFTER - timedelta(seconds=1))
    pairing.seek(guest)
    assert not Match.objects.exists()
    pairing.pair_waiting()
    assert list(Seek.objects.values_list("user__username", flat=True)) == ["guest"]


def test_cancel_leaves_the_pool_and_a_cancel_after_pairing_goes_to_the_match(host, guest, outsider):
    pairing.seek(host)
    assert pairing.cancel(host) is None and not Seek.objects.exists()
    pairing.seek(guest)
    match = pairing.seek(outsider).match
    assert pairing.cancel(guest) == match.pk


def test_racing_seekers_are_each_paired_at_most_once(make_user):
    users = [make_user(f"s{number}") for number in range(8)]
    results = race(*[lambda user=user: pairing.seek(user) for user in users])
    assert all(isinstance(result, Seek) for result in results)
    waited(600)
    race(pairing.pair_waiting, pairing.pair_waiting)
    # Seeks skipped because the other thread held them are paired on their next try.
    pairing.pair_waiting()
    matches = list(Match.objects.all())
    assert len(matches) == 4
    seats = Counter(user_id for match in matches for user_id in (match.host_id, match.guest_id))
    assert set(seats) == {user.pk for user in users} and set(seats.values()) == {1}
    assert not Seek.objects.filter(match=None).exists()


def test_two_processes_pairing_the_same_two_seeks_make_one_match(host, guest):
    ids = [pairing.seek(host).pk]
    Seek.objects.create(
        user=guest, game="aquawar", rating=1500, created=timezone.now(), seen=timezone.now()
    )
    ids.append(Seek.objects.get(user=guest).pk)
    race(lambda: pairing.pair(ids[0]), lambda: pairing.pair(ids[1]))
    # On PostgreSQL each may find the other's row locked and skip it (no match yet, paired at the
    # next poll); never two matches.
    assert Match.objects.count() <= 1
    pairing.pair(ids[0])
    assert Match.objects.count() == 1
    assert set(Seek.objects.values_list("match_id", flat=True)) == {Match.objects.get().pk}


def test_a_bad_time_control_is_refused(host):
    with pytest.raises(ServiceError) as refused:
        pairing.seek(host, move_seconds=7)
    assert refused.value.code == "bad_time_control" and not Seek.objects.exists()


def test_a_person_past_the_live_limit_does_not_enter_the_pool(host, guest, outsider):
    seat_at_the_live_limit(host, outsider)
    with pytest.raises(ServiceError) as caught:
        pairing.seek(host)
    assert caught.value.code == "too_many_live"
    assert not Seek.objects.exists()
    # A program's account seeks whatever it plays already (its tournaments, the ladder).
    mark_program(guest)
    seat_at_the_live_limit(guest, outsider)
    assert pairing.seek(guest, program=True).match_id is None
