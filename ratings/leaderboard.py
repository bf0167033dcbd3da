"""Who a game's leaderboard lists: established ratings of accounts active lately, people and programs apart."""
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from game.models import BotAccount

from .api import PROVISIONAL_DEVIATION
from .models import ProgramAccount, Rating

# An account with no rated match of the game for this long drops off its leaderboard until it plays again.
INACTIVE_AFTER = timedelta(days=90)
PAGE_SIZE = 50
PEOPLE, PROGRAMS = "people", "programs"


def ranked(game, kind, now=None):
    """The leaderboard's rows (``Rating`` with its user), best first: ``kind`` PEOPLE or PROGRAMS."""
    since = (now or timezone.now()) - INACTIVE_AFTER
    programs = Q(user__in=ProgramAccount.objects.values("user")) | Q(user__in=BotAccount.objects.values("user"))
    rows = Rating.objects.filter(game=game, deviation__lte=PROVISIONAL_DEVIATION, last_played__gte=since)
    rows = rows.filter(programs) if kind == PROGRAMS else rows.exclude(programs).filter(user__is_active=True)
    return rows.select_related("user").order_by("-rating", "user__username")
