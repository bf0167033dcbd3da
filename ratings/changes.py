"""Applying a rated match's result: once, in the transaction that ends the match.

``on_match_ended`` receives ``game.services.match_ended``, sent under the match's row lock by the one
change that finishes it; a second process that tries to end the same match finds it over under that
lock and is refused before it gets here. Both accounts' rating rows are locked too (in id order, so
two matches of one player ending at once queue instead of overwriting each other), and the unique
(match, user) of ``RatingChange`` would roll back a second write however it came about.
"""
from datetime import timedelta

from game.models import BotAccount, Match

from .api import Standing, anchor
from .glicko2 import Glicko, update
from .models import Rating, RatingChange

# Each whole rating period an account spends away from a game's rated matches widens its deviation
# once (Glicko-2's step 6 for a period without games), so a returning player's rating moves freely.
RATING_PERIOD = timedelta(days=7)
# More idle periods than this already take any deviation to the ceiling.
MAX_IDLE_PERIODS = 200


def on_match_ended(sender, match, **kwargs):
    if match.rated and match.status == Match.Status.FINISHED and not match.imported:
        apply_result(match)


def _score(winner, seat):
    if winner is None:
        return 0.5
    return 1.0 if winner == seat else 0.0


def _rested(row, now):
    """The row's rating with the deviation its idle periods since the last rated match add."""
    glicko = Glicko(row.rating, row.deviation, row.volatility)
    if row.last_played is None:
        return glicko
    idle = min(int((now - row.last_played) / RATING_PERIOD), MAX_IDLE_PERIODS)
    for _ in range(idle):
        glicko = update(glicko, [])
    return glicko


def apply_result(match):
    """Change both players' ratings for the finished, rated ``match``. An account of a built-in
    level is a fixed reference: the opponent's rating moves against it, its own never does."""
    seats = (match.host_id, match.guest_id)
    if None in seats or seats[0] == seats[1]:
        return
    levels = dict(BotAccount.objects.filter(user_id__in=seats).values_list("user_id", "level"))
    for user_id in sorted(seats):
        start = anchor(levels[user_id], match.game) if user_id in levels else Standing()
        Rating.objects.get_or_create(
            user_id=user_id, game=match.game, defaults={"rating": start.rating, "deviation": start.deviation}
        )
    rows = {
        row.user_id: row
        for row in Rating.objects.select_for_update().filter(user_id__in=seats, game=match.game).order_by("user_id")
    }
    now = match.finished
    before = {user_id: _rested(rows[user_id], now) for user_id in seats}
    changes = []
    for seat, user_id in enumerate(seats):
        if user_id in levels:
            # Played, so listed among the programs as the reference it is; its rating stays.
            Rating.objects.filter(pk=rows[user_id].pk).update(played=rows[user_id].played + 1, last_played=now)
            continue
        opponent = before[seats[1 - seat]]
        after = update(before[user_id], [(opponent, _score(match.winner, seat))])
        row = rows[user_id]
        changes.append(
            RatingChange(
                match_id=match.pk, user_id=user_id, game=match.game, seat=seat,
                before=row.rating, after=after.rating, deviation=after.deviation,
            )
        )
        Rating.objects.filter(pk=row.pk).update(
            rating=after.rating, deviation=after.deviation, volatility=after.volatility,
            played=row.played + 1, last_played=now,
        )
    RatingChange.objects.bulk_create(changes)
