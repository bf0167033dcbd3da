"""A rated match changes both ratings once, in the transaction that ends it; nothing else does."""
import pytest

from game import games, services
from game.models import Match
from game.programs.seats import bot_account, start_vs_computer
from game.services import ServiceError
from ratings.api import changes_of, mark_program, rating_of
from ratings.models import Rating, RatingChange
from tests.game.test_services import race

pytestmark = pytest.mark.django_db(transaction=True)


def rated_match(host, guest):
    return services.join_match(services.create_match(host, rated=True), guest)


def test_a_rated_match_moves_the_winner_up_and_the_loser_down_by_the_same_amount(host, guest):
    match = rated_match(host, guest)
    services.resign(match, guest)
    winner, loser = rating_of(host, "aquawar"), rating_of(guest, "aquawar")
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert (winner.played, loser.played) == (1, 1) and winner.deviation < 350
    changes = changes_of(Match.objects.get(pk=match.pk))
    assert changes[0].delta > 0 > changes[1].delta and changes[0].user_id == host.pk


def test_a_casual_match_changes_no_rating(host, guest):
    match = services.join_match(services.create_match(host), guest)
    services.resign(match, guest)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_an_aborted_rated_match_changes_nothing(host, guest):
    match = rated_match(host, guest)
    services.cancel_match(match, host)
    assert Match.objects.get(pk=match.pk).status == "cancelled"
    assert not RatingChange.objects.exists()


def test_two_processes_ending_one_match_at_once_change_the_ratings_once(host, guest):
    match = rated_match(host, guest)
    results = race(lambda: services.resign(match, host), lambda: services.resign(match, guest))
    assert sorted(map(str, results))[-1] == "match_over"
    assert RatingChange.objects.filter(match=match).count() == 2
    assert sorted(Rating.objects.values_list("played", flat=True)) == [1, 1]
    ended = Match.objects.get(pk=match.pk)
    winner = (host, guest)[ended.winner]
    assert rating_of(winner, "aquawar").rating > 1500


def test_two_rated_matches_of_one_player_ending_at_once_both_count(host, guest, outsider):
    first, second = rated_match(host, guest), rated_match(host, outsider)
    race(lambda: services.resign(first, guest), lambda: services.resign(second, outsider))
    assert rating_of(host, "aquawar").played == 2
    assert RatingChange.objects.filter(user=host).count() == 2


def test_a_second_change_for_one_match_is_refused_by_the_database(host, guest):
    from django.db import IntegrityError, transaction

    from ratings.changes import apply_result

    match = rated_match(host, guest)
    services.resign(match, guest)
    with pytest.raises(IntegrityError), transaction.atomic():
        apply_result(Match.objects.get(pk=match.pk))
    assert rating_of(host, "aquawar").played == 1


def test_no_rated_match_against_the_computer(host):
    with pytest.raises(ServiceError) as refused:
        services.create_match(host, rated=True, level="random")
    assert refused.value.code == "rated_vs_computer"
    with pytest.raises(ServiceError):
        services.start_between(host, bot_account("random"), rated=True)
    assert not Match.objects.filter(rated=True).exists()
    start_vs_computer(host, "random")
    assert not Match.objects.filter(rated=True).exists()


def test_start_between_makes_a_live_match_and_refuses_oneself(host, guest):
    match = services.start_between(host, guest, rated=True)
    assert (match.status, match.host, match.guest, match.rated) == ("live", host, guest, True)
    with pytest.raises(ServiceError) as refused:
        services.start_between(host, host)
    assert refused.value.code == "own_match"


def test_a_rematch_of_a_rated_match_is_rated(host, guest):
    from game import rematch

    match = rated_match(host, guest)
    services.resign(match, guest)
    rematch.answer(match.pk, host, "offer")
    rematch.answer(match.pk, guest, "accept")
    assert Match.objects.get(rematch_of=match).rated


def test_a_programs_rated_match_against_a_built_in_level_moves_only_the_program(host):
    mark_program(host)
    match = start_vs_computer(host, "expert", program=True, rated=True)
    assert match.rated
    reference = rating_of(match.guest, "aquawar")
    # The expert's measured rating (bots/level_ratings.json), known: the small deviation.
    measured = games.get("aquawar").level_ratings["expert"]
    assert (reference.rating, reference.deviation) == (measured, 50)
    services.forfeit(match.pk, host, "illegal")
    assert rating_of(match.guest, "aquawar").rating == measured
    assert rating_of(match.guest, "aquawar").played == 1
    assert rating_of(host, "aquawar").rating < 1500
    assert RatingChange.objects.filter(match=match).count() == 1


def test_a_person_never_plays_the_computer_rated(host):
    with pytest.raises(ServiceError) as refused:
        start_vs_computer(host, "random", rated=True)
    assert refused.value.code == "rated_vs_computer" and not Match.objects.exists()
