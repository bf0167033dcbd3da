"""What the rest of the site (lobby, history, tournaments) asks of ratings; import only these."""
from typing import NamedTuple

from django.db import transaction
from django.utils.translation import gettext as _

from game import games
from game.models import BotAccount, Match
from game.services import ServiceError

from .glicko2 import DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY
from .models import ProgramAccount, Rating, RatingChange

# A deviation above this marks a rating provisional: shown with a "?", left off the leaderboards
# (lichess's threshold; an unknown account starts at 350, and a handful of games bring it below).
PROVISIONAL_DEVIATION = 110
# A built-in level is a fixed reference for programs (its rating never moves): its rating measured
# by the levels' round robin (``Game.level_ratings``, bench/bot_ratings.py), else ANCHOR_LOW for the
# game's weakest level and ANCHOR_STEP more for each stronger one (``Game.levels`` is weakest first),
# a convention that spaces them apart. Known either way, hence the small deviation.
ANCHOR_LOW = 1000
ANCHOR_STEP = 500
ANCHOR_DEVIATION = 50


class Standing(NamedTuple):
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY
    played: int = 0

    @property
    def provisional(self):
        return self.deviation > PROVISIONAL_DEVIATION

    @property
    def shown(self):
        """The rating as people read it: whole points, with "?" while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


def _standing(row):
    return Standing(row.rating, row.deviation, row.volatility, row.played)


def anchor(level, game):
    """The fixed ``Standing`` of the built-in ``level`` in ``game`` (a registry name)."""
    the_game = games.get(game)
    if level in the_game.level_ratings:
        return Standing(float(the_game.level_ratings[level]), float(ANCHOR_DEVIATION))
    levels = list(the_game.levels)
    index = levels.index(level) if level in levels else 0
    return Standing(float(ANCHOR_LOW + ANCHOR_STEP * index), float(ANCHOR_DEVIATION))


def rating_of(user, game):
    """``user``'s ``Standing`` in ``game`` (a registry name); the default one if never rated (a
    built-in level's account: its anchor)."""
    return ratings_of([user.pk], game)[user.pk]


def ratings_of(user_ids, game):
    """{user id: ``Standing``} in ``game`` for every id in ``user_ids``, in two queries at most."""
    ids = set(user_ids)
    found = {row.user_id: _standing(row) for row in Rating.objects.filter(user_id__in=ids, game=game)}
    missing = ids - set(found)
    if missing:
        for user_id, level in BotAccount.objects.filter(user_id__in=missing).values_list("user_id", "level"):
            found[user_id] = anchor(level, game)
    return {user_id: found.get(user_id, Standing()) for user_id in ids}


def program_ids(user_ids):
    """The ids among ``user_ids`` of accounts programs play under (marked, or a built-in level's)."""
    ids = set(user_ids)
    marked = ProgramAccount.objects.filter(user_id__in=ids).values_list("user_id", flat=True)
    builtin = BotAccount.objects.filter(user_id__in=ids).values_list("user_id", flat=True)
    return set(marked) | set(builtin)


def all_program_ids():
    """The ids of every program account (marked or built-in): few enough to read at once per page."""
    marked = ProgramAccount.objects.values_list("user_id", flat=True)
    return set(marked) | set(BotAccount.objects.values_list("user_id", flat=True))


def is_program(user):
    return getattr(user, "pk", None) is not None and bool(program_ids([user.pk]))


def mark_program(user):
    """Mark ``user``'s account as a program's, for good. Refused for an account that has played a
    rated match already: a person's rating must not become a program's."""
    with transaction.atomic():
        if RatingChange.objects.filter(user_id=user.pk).exists():
            raise ServiceError(
                "rated_person", _("This account has played rated matches as a person; make a new account for the program.")
            )
        ProgramAccount.objects.get_or_create(user=user)


def changes_of(match):
    """{seat: ``RatingChange``} of a finished rated ``match`` (empty for any other)."""
    if not match.rated or match.status != Match.Status.FINISHED:
        return {}
    return {change.seat: change for change in RatingChange.objects.filter(match_id=match.pk)}
