"""The pure pairing and standings module: round robin by the circle method, Swiss without repeats
and with the byes where they belong, and the tiebreaks on hand-checked tables."""
import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments import pairing
from tournaments.pairing import ROUND_ROBIN, SWISS, NoPairing, Played

# Each example plays a whole tournament (up to ~10 matchings of up to 15 players): kept small.
swiss_settings = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def result(a, b, rng):
    """Random points of a decided match: a win, a loss, rarely a draw, rarely called off (0-0)."""
    roll = rng.random()
    if roll < 0.05:
        return 0.0, 0.0
    if roll < 0.12:
        return 0.5, 0.5
    return (1.0, 0.0) if roll < 0.56 else (0.0, 1.0)


def can_pair_without_repeats(players, met):
    """Brute force: is there a perfect matching of ``players`` avoiding ``met``?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        frozenset((first, other)) not in met and can_pair_without_repeats([p for p in rest if p != other], met)
        for other in rest
    )


@pytest.mark.parametrize("count", [2, 3, 4, 5, 8, 9])
def test_round_robin_meets_everyone_once_with_one_bye_each_when_odd(count):
    players = [f"p{i}" for i in range(count)]
    rounds = [pairing.round_robin(players, r) for r in range(pairing.round_robin_rounds(count))]
    meetings = Counter(frozenset(pair) for pairs in rounds for pair in pairs if pair[1] is not None)
    assert set(meetings) == {frozenset(pair) for pair in itertools.combinations(players, 2)}
    assert set(meetings.values()) == {1}
    for pairs in rounds:
        seated = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seated) == sorted(players)
    byes = Counter(pair[0] for pairs in rounds for pair in pairs if pair[1] is None)
    assert byes == (Counter(players) if count % 2 else Counter())
    # Seats alternate: nobody holds either seat in more than one more than half of their matches.
    firsts = Counter(pair[0] for pairs in rounds for pair in pairs if pair[1] is not None)
    assert all(abs(2 * firsts[p] - (count - 1)) <= 2 for p in players), firsts


@swiss_settings
@given(count=st.integers(min_value=2, max_value=15), seed=st.integers(0, 2**32), extra=st.integers(0, 3))
def test_swiss_never_repeats_a_pairing_and_gives_byes_to_the_lowest_ranked_without_one(count, seed, extra):
    """Up to ceil(n/2) rounds a repeat-free round always exists (Dirac: what is left of the complete
    graph is regular of degree at least half): the pairing must find it. Beyond that, rounds run
    until ``NoPairing``, which must be true (no perfect matching avoiding the repeats)."""
    rng = random.Random(seed)
    ratings = {f"p{i}": rng.choice([1500.0, rng.uniform(1000, 2000)]) for i in range(count)}
    played = []
    guaranteed = (count + 1) // 2
    for round_number in range(1, guaranteed + extra + 1):
        total = pairing.scores(played)
        met = {frozenset((g.first, g.second)) for g in played if g.second is not None}
        had_bye = {g.first for g in played if g.second is None}
        try:
            pairs = pairing.swiss(ratings, played)
        except NoPairing:
            assert round_number > guaranteed
            options = [p for p in ratings if p not in had_bye] if count % 2 else [None]
            for bye in options:
                assert not can_pair_without_repeats([p for p in ratings if p != bye], met)
            return
        seated = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seated) == sorted(ratings)
        for a, b in pairs:
            assert b is None or frozenset((a, b)) not in met, (a, b)
        byes = [a for a, b in pairs if b is None]
        assert len(byes) == count % 2
        if byes:
            bye = byes[0]
            assert bye not in had_bye
            ranked = sorted(ratings, key=lambda p: (-total[p], -ratings[p], p))
            # Everyone ranked below the bye had one already, or could not be given it.
            for lower in ranked[ranked.index(bye) + 1:]:
                rest = [p for p in ratings if p != lower]
                assert lower in had_bye or not can_pair_without_repeats(rest, met)
        for a, b in pairs:
            points = (1.0, None) if b is None else result(a, b, rng)
            played.append(Played(a, b, *points))


def test_swiss_pairs_winners_with_winners_and_the_seat_goes_to_who_had_it_less():
    ratings = {"a": 1900, "b": 1800, "c": 1700, "d": 1600}
    first = pairing.swiss(ratings, [])
    assert sorted(map(frozenset, first)) == sorted(map(frozenset, [("a", "b"), ("c", "d")]))
    played = [Played("a", "b", 0.0, 1.0), Played("c", "d", 1.0, 0.0)]
    second = pairing.swiss(ratings, played)
    # b and c won; a and d lost. a and b held seat 0 once already against… b's and c's opponents.
    assert set(map(frozenset, second)) == {frozenset(("b", "c")), frozenset(("a", "d"))}
    assert ("b", "c") in second  # c had seat 0 in round 1, b did not
    assert ("d", "a") in second


def test_swiss_with_an_odd_number_gives_the_bye_to_the_lowest_ranked_then_the_next():
    ratings = {"a": 1900, "b": 1800, "c": 1700}
    first = pairing.swiss(ratings, [])
    assert ("c", None) in first
    played = [Played("a", "b", 1.0, 0.0), Played("c", None, 1.0, None)]
    # c now has 1 point with a; b, with none, is the lowest-ranked and has had no bye.
    assert ("b", None) in pairing.swiss(ratings, played)


def test_round_robin_standings_use_sonneborn_berger():
    """A beat B and C, lost to D; B beat C and D; C beat D. Scores A 2, B 2, C 1, D 1.
    SB: A = 2 (B) + 1 (C) = 3; B = 1 (C) + 1 (D) = 2; C = 1 (D); D = 2 (A).
    With a draw: half the drawn opponent's score (checked on E below)."""
    ratings = {"A": 1500, "B": 1600, "C": 1500, "D": 1400}
    played = [
        Played("A", "B", 1, 0), Played("A", "C", 1, 0), Played("D", "A", 1, 0),
        Played("B", "C", 1, 0), Played("B", "D", 1, 0), Played("C", "D", 1, 0),
    ]
    rows = pairing.standings(ratings, played, ROUND_ROBIN)
    assert [(r.rank, r.player, r.score, r.tiebreak) for r in rows] == [
        (1, "A", 2, 3), (2, "B", 2, 2), (3, "D", 1, 2), (4, "C", 1, 1),
    ]
    drawn = pairing.standings({"A": 1500, "E": 1500}, [Played("A", "E", 0.5, 0.5), Played("A", None, 1, None)],
                              ROUND_ROBIN)
    assert [(r.player, r.score, r.tiebreak) for r in drawn] == [("A", 1.5, 0.25), ("E", 0.5, 0.75)]


def test_swiss_standings_use_buchholz_and_a_bye_adds_nothing():
    """Same games as above: Buchholz A = 2+1+1 = 4, B = 2+1+1 = 4, C = 2+2+1 = 5, D = 2+2+1 = 5;
    A and B tie on score and Buchholz, so the higher rating (B) ranks first."""
    ratings = {"A": 1500, "B": 1600, "C": 1500, "D": 1400, "E": 1300}
    played = [
        Played("A", "B", 1, 0), Played("A", "C", 1, 0), Played("D", "A", 1, 0),
        Played("B", "C", 1, 0), Played("B", "D", 1, 0), Played("C", "D", 1, 0), Played("E", None, 1, None),
    ]
    rows = pairing.standings(ratings, played, SWISS)
    assert [(r.rank, r.player, r.score, r.tiebreak) for r in rows] == [
        (1, "B", 2, 4), (2, "A", 2, 4), (3, "C", 1, 5), (4, "D", 1, 5), (5, "E", 1, 0),
    ]


def test_undecided_games_count_for_nothing_and_equal_rows_share_a_rank():
    rows = pairing.standings({"a": 1500, "b": 1500}, [Played("a", "b")], SWISS)
    assert [(r.rank, r.score, r.played) for r in rows] == [(1, 0, 0), (1, 0, 0)]
