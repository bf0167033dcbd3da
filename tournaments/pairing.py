"""Pairings and standings of a tournament: pure, no Django, players are any hashable ids.

- Round robin: the circle method (one player fixed, the others turning round him), with a bye for an
  odd number of players; everyone meets everyone once.
- Swiss: players ranked by score then rating; a bye (if the number is odd) to the lowest-ranked
  player who has not had one; the others paired so that nobody meets an opponent twice, pairs as
  close in score (then in rank) as possible. Finding a repeat-free pairing is a perfect matching
  problem: a backtracking search can take exponential time when late rounds leave few choices,
  so the minimum-cost perfect matching comes from Edmonds' blossom algorithm (networkx), which
  also says for certain when no repeat-free pairing exists.
- Standings: score (a win 1, a draw ½, a bye 1, a loss or a match that was called off 0), then
  the tiebreak — Sonneborn–Berger for round robin (the scores of the opponents beaten, plus half of
  those drawn with), Buchholz for Swiss (the sum of the opponents' scores; a bye adds nothing) —
  then rating.
"""
from collections import defaultdict
from typing import NamedTuple

import networkx

ROUND_ROBIN, SWISS = "round_robin", "swiss"


class Played(NamedTuple):
    """One pairing with its result: ``second`` None for a bye; points None while undecided."""

    first: object
    second: object
    first_points: float = None
    second_points: float = None


class Row(NamedTuple):
    rank: int
    player: object
    score: float
    tiebreak: float
    rating: float
    played: int


class NoPairing(Exception):
    """No round without a repeated pairing exists (too many rounds for too few players)."""


def round_robin_rounds(count):
    """Rounds of a round robin of ``count`` players: everyone meets everyone once."""
    return count - 1 if count % 2 == 0 else count


def round_robin(players, round_index):
    """Pairs ``(seat 0, seat 1)`` of round ``round_index`` (0-based) of a round robin of
    ``players`` (in seeding order); ``(player, None)`` is a bye."""
    circle = list(players) + ([None] if len(players) % 2 else [])
    size = len(circle)
    if size < 2:
        return []
    turn = round_index % (size - 1)
    rest = circle[1:]
    arranged = [circle[0]] + rest[-turn:] + rest[:-turn] if turn else circle
    pairs = []
    for i in range(size // 2):
        a, b = arranged[i], arranged[size - 1 - i]
        # The others move one place a round, so seats by table parity alternate for each of them;
        # the fixed player alternates by round.
        if (round_index if i == 0 else i) % 2:
            a, b = b, a
        pairs.append((b, None) if a is None else (a, b))
    return pairs


def scores(played):
    totals = defaultdict(float)
    for game in played:
        if game.first_points is not None:
            totals[game.first] += game.first_points
        if game.second is not None and game.second_points is not None:
            totals[game.second] += game.second_points
    return totals


def standings(ratings, played, tiebreak):
    """``ratings``: {player: rating} of everyone in the tournament. ``played``: every ``Played``
    so far (undecided ones count for nothing). ``tiebreak``: ``ROUND_ROBIN`` (Sonneborn–Berger) or
    ``SWISS`` (Buchholz). Rows best first; equal score, tiebreak and rating share a rank."""
    total = scores(played)
    breaks = defaultdict(float)
    games = defaultdict(int)
    for game in played:
        if game.first_points is None:
            continue
        games[game.first] += 1
        if game.second is None:
            continue
        games[game.second] += 1
        for me, them, mine in ((game.first, game.second, game.first_points),
                               (game.second, game.first, game.second_points)):
            if tiebreak == SWISS:
                breaks[me] += total[them]
            else:
                breaks[me] += total[them] * mine
    order = sorted(ratings, key=lambda p: (-total[p], -breaks[p], -ratings[p], str(p)))
    rows = []
    for index, player in enumerate(order):
        key = (total[player], breaks[player], ratings[player])
        same = rows and (rows[-1].score, rows[-1].tiebreak, rows[-1].rating) == key
        rank = rows[-1].rank if same else index + 1
        rows.append(Row(rank, player, total[player], breaks[player], ratings[player], games[player]))
    return rows


def swiss(ratings, played):
    """Pairs ``(seat 0, seat 1)`` of the next Swiss round of the players in ``ratings``
    ({player: rating}), given every ``Played`` so far; ``(player, None)`` is the bye.
    Raises ``NoPairing`` when every possible round would repeat a pairing."""
    total = scores(played)
    ranked = sorted(ratings, key=lambda p: (-total[p], -ratings[p], str(p)))
    met = {frozenset((g.first, g.second)) for g in played if g.second is not None}
    had_bye = {g.first for g in played if g.second is None}
    firsts = defaultdict(int)
    for game in played:
        if game.second is not None:
            firsts[game.first] += 1
            firsts[game.second] -= 1
    if len(ranked) % 2 == 0:
        pairs = _match(ranked, total, met)
        if pairs is None:
            raise NoPairing
        return [_seat(a, b, firsts) for a, b in pairs]
    # The bye goes to the lowest-ranked player without one for whom the others can still be paired.
    for bye in reversed(ranked):
        if bye in had_bye:
            continue
        pairs = _match([p for p in ranked if p != bye], total, met)
        if pairs is not None:
            return [_seat(a, b, firsts) for a, b in pairs] + [(bye, None)]
    raise NoPairing


def _match(ranked, total, met):
    """Repeat-free pairs of ``ranked`` (best first) with the least cost, or None if there are none.

    Cost of a pair: the square of its score gap, weighed so that it always outweighs the rank
    gaps of a whole round, plus its rank gap: close scores first, then neighbours in rank.
    """
    count = len(ranked)
    graph = networkx.Graph()
    graph.add_nodes_from(range(count))
    scale = count * count + 1
    ceiling = 4 * (max(total.values(), default=0) + 1) ** 2 * scale + count
    for i in range(count):
        for j in range(i + 1, count):
            if frozenset((ranked[i], ranked[j])) in met:
                continue
            gap = total[ranked[i]] - total[ranked[j]]
            # Half points: doubled, the costs stay integers and the matching exact.
            cost = int(round(2 * gap) ** 2) * scale + (j - i)
            graph.add_edge(i, j, weight=ceiling - cost)
    matching = networkx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != count:
        return None
    pairs = sorted((min(i, j), max(i, j)) for i, j in matching)
    return [(ranked[i], ranked[j]) for i, j in pairs]


def _seat(a, b, firsts):
    """Seat 0 to whichever of the two has had it less often; the higher-ranked ``a`` on a tie."""
    return (b, a) if firsts[b] < firsts[a] else (a, b)
