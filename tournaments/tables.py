"""A tournament's standings and rounds as the pages and the runner read them."""
from game.models import Match, MatchEvent

from . import pairing
from .models import Pairing, Tournament

DRAW = 0.5


def points_of(match):
    """(seat 0's, seat 1's) points of a tournament match, or None while it is being played.

    A finished match: 1 to the winner, ½ each for a draw. A match called off (cancelled, or aborted
    because a person's clock ran out before their first move): 1 to a player who made a move
    against one who never did — who came beats who didn't — else 0 each, so that nobody gains from
    a match nobody played. A match that is gone: 0 each."""
    if match is None:
        return 0.0, 0.0
    if match.status == Match.Status.FINISHED:
        if match.winner is None:
            return DRAW, DRAW
        return (1.0, 0.0) if match.winner == 0 else (0.0, 1.0)
    if match.status in (Match.Status.OPEN, Match.Status.LIVE):
        return None
    moved = set(MatchEvent.objects.filter(match_id=match.pk).values_list("seat", flat=True))
    if len(moved & {0, 1}) == 1:
        return (1.0, 0.0) if 0 in moved else (0.0, 1.0)
    return 0.0, 0.0


def played_of(pairings):
    return [pairing.Played(p.first_id, p.second_id, p.first_points, p.second_points) for p in pairings]


def tiebreak_kind(tournament):
    return pairing.ROUND_ROBIN if tournament.kind == Tournament.Kind.ROUND_ROBIN else pairing.SWISS


def standings(tournament, entries=None, pairings=None):
    """``pairing.Row`` per entry, best first, with ``entry`` alongside: [(row, entry)].
    A finished tournament's table is the one written at its end."""
    entries = list(tournament.entries.select_related("player")) if entries is None else entries
    by_player = {entry.player_id: entry for entry in entries}
    if tournament.status == Tournament.Status.FINISHED and all(e.final_rank for e in entries):
        rows = [
            pairing.Row(e.final_rank, e.player_id, e.final_score, e.final_tiebreak, e.rating or 0.0, None)
            for e in sorted(entries, key=lambda e: (e.final_rank, e.pk))
        ]
        return [(row, by_player[row.player]) for row in rows]
    if pairings is None:
        pairings = Pairing.objects.filter(tournament=tournament)
    ratings = {entry.player_id: entry.rating or 0.0 for entry in entries}
    rows = pairing.standings(ratings, played_of(pairings), tiebreak_kind(tournament))
    return [(row, by_player[row.player]) for row in rows]


def rounds(tournament):
    """[(round number, [Pairing…])], the latest round first, players and matches loaded."""
    pairings = Pairing.objects.filter(tournament=tournament).select_related("first", "second", "match")
    grouped = {}
    for row in pairings.order_by("-round", "table"):
        grouped.setdefault(row.round, []).append(row)
    return list(grouped.items())
