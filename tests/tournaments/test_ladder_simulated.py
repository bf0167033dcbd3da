"""The ladder run as the server runs it: its sweep every 5 s, a pairing each time a match ends,
matches lasting from half a minute to four, on a clock of the test's own, for 120 matches. Three
programs of the review's report (two close in rating, one far): every pair of programs meets, most
matches are between programs, each program meets a built-in level too, and a program's next match
is seldom against its last opponent. (Pairing whoever was free when a match
ended replayed the two that had just played, nearly always: 191 matches, two never met.)"""
import random
from collections import Counter
from datetime import timedelta
from itertools import combinations

import pytest
from django.utils import timezone

from game import services as match_services
from game.models import Match
from game.programs.models import BotAccount, BotConnection
from tournaments import runner

from .test_ladder import GAME, on_ladder

MATCHES = 120
SWEEP = timedelta(seconds=5)
# A program's matches against the opponent of its previous one: at most this share.
REMATCH_SHARE = 0.1


def opponents_in_order(players):
    """{program: the opponents of its ladder matches, in the order they started}."""
    seen = {player: [] for player in players}
    for host, guest in Match.objects.filter(ladder_match__isnull=False).order_by("pk").values_list("host_id", "guest_id"):
        for player, opponent in ((host, guest), (guest, host)):
            if player in seen:
                seen[player].append(opponent)
    return seen


def run_ladder(monkeypatch, rng, matches):
    """Sweeps and match ends in time order, on a clock that jumps from one to the next."""
    clock = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: clock[0])
    ends, ended = {}, 0
    while ended < matches:
        BotConnection.objects.update(seen=clock[0])  # their sockets stay open
        for match in runner.pair_ladder(GAME):
            ends[match] = clock[0] + timedelta(seconds=rng.uniform(30, 240))
        match = min(ends, key=ends.get, default=None)
        if match is None or ends[match] > clock[0] + SWEEP:
            clock[0] += SWEEP
            continue
        clock[0] = ends.pop(match)
        match_services.resign(match, rng.choice([match.host, match.guest]))
        ended += 1


@pytest.mark.django_db
def test_a_simulated_ladder_meets_every_pair_and_seldom_replays_one(programs, monkeypatch):
    players = [p.pk for p in programs[:3]]
    on_ladder(programs[:3], [1500, 1530, 1900])
    run_ladder(monkeypatch, random.Random(20), MATCHES)
    opponents = opponents_in_order(players)
    met = Counter(frozenset((player, o)) for player, seq in opponents.items() for o in seq if o in players)
    assert all(met[frozenset(pair)] for pair in combinations(players, 2)), met
    pairs = [(a, b) for seq in opponents.values() for a, b in zip(seq, seq[1:])]
    rematches = sum(a == b for a, b in pairs)
    assert rematches <= REMATCH_SHARE * len(pairs), (rematches, len(pairs))
    # The built-in levels as documented: for a program left over, not in place of the others.
    levels = set(BotAccount.objects.values_list("user_id", flat=True))
    assert all(set(seq) & levels for seq in opponents.values()), opponents
    between_programs = sum(met.values()) // 2
    assert between_programs >= Match.objects.filter(ladder_match__isnull=False).count() / 2
