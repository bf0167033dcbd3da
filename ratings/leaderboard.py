"""Who a game's leaderboard lists: established ratings of accounts active lately, people and programs
apart; and below them, apart, the provisional ones (the players still on their way to a rank)."""
from datetime import timedelta
from functools import cache

from django.db.models import Q
from django.utils import timezone

from game.models import BotAccount

from . import glicko2
from .api import PROVISIONAL_DEVIATION
from .models import ProgramAccount, Rating

# An account with no rated match of the game for this long drops off its leaderboard until it plays again.
INACTIVE_AFTER = timedelta(days=90)
PAGE_SIZE = 50
PEOPLE, PROGRAMS = "people", "programs"


def _active(game, kind, now):
    since = (now or timezone.now()) - INACTIVE_AFTER
    programs = Q(user__in=ProgramAccount.objects.values("user")) | Q(user__in=BotAccount.objects.values("user"))
    rows = Rating.objects.filter(game=game, last_played__gte=since)
    rows = rows.filter(programs) if kind == PROGRAMS else rows.exclude(programs).filter(user__is_active=True)
    return rows.select_related("user")


def ranked(game, kind, now=None):
    """The leaderboard's rows (``Rating`` with its user), best first: ``kind`` PEOPLE or PROGRAMS."""
    rows = _active(game, kind, now).filter(deviation__lte=PROVISIONAL_DEVIATION)
    return rows.order_by("-rating", "user__username")


def provisional(game, kind, now=None):
    """The active accounts whose rating is still provisional: those nearest to a rank (most rated
    matches) first, at most a page of them."""
    rows = _active(game, kind, now).filter(deviation__gt=PROVISIONAL_DEVIATION)
    return rows.order_by("-played", "-rating", "user__username")[:PAGE_SIZE]


@cache
def matches_to_establish(opponent_deviation):
    """How many rated matches, one a period, bring a new account's deviation down to
    ``PROVISIONAL_DEVIATION`` against opponents of ``opponent_deviation`` (at its own rating,
    winning and losing in turn): the leaderboard's "about N rated matches", worked out by the
    system itself, so it stays true if its constants change."""
    player = glicko2.Glicko(glicko2.DEFAULT_RATING, glicko2.DEFAULT_DEVIATION, glicko2.DEFAULT_VOLATILITY)
    count = 0
    while player.deviation > PROVISIONAL_DEVIATION:
        count += 1
        opponent = glicko2.Glicko(player.rating, opponent_deviation, glicko2.DEFAULT_VOLATILITY)
        player = glicko2.update(player, [(opponent, count % 2)])
    return count
