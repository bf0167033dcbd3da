"""A rating per account and game, one change per player per rated match, and program accounts."""
from django.conf import settings
from django.db import models

from .glicko2 import DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY


class Rating(models.Model):
    """An account's current Glicko-2 rating in one game (a registry name); no row: never rated."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=32)
    rating = models.FloatField(default=DEFAULT_RATING)
    deviation = models.FloatField(default=DEFAULT_DEVIATION)
    volatility = models.FloatField(default=DEFAULT_VOLATILITY)
    played = models.PositiveIntegerField(default=0)
    # When the account last finished a rated match of the game: leaderboards leave out the inactive.
    last_played = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="ratings_one_per_game")]
        indexes = [models.Index(fields=["game", "-rating"])]

    def __str__(self):
        return f"{self.user_id} {self.game} {self.rating:.0f}±{self.deviation:.0f}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating. The unique pair (match, user) is the last
    guard of "exactly once": a second write for the same match fails and rolls its transaction back."""

    match = models.ForeignKey("game.Match", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    deviation = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="ratings_one_change_per_match")]
        indexes = [models.Index(fields=["user", "game", "created"])]

    @property
    def delta(self):
        return self.after - self.before


class ProgramAccount(models.Model):
    """An account a program plays under, shown with a BOT badge and ranked among programs.

    The built-in levels' accounts (``game.programs.models.BotAccount``) are programs too, without a row here.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="program_account")
    created = models.DateTimeField(auto_now_add=True)


class Seek(models.Model):
    """A player waiting in quick pairing's pool for an opponent (ratings/pairing.py).

    ``rating`` is the seeker's rating when the seek was made (pairing compares these, no join);
    ``seen`` is refreshed while someone waits for it (a page's polls, a program's socket), and a seek
    not seen lately is nobody's any more: never paired, swept away. ``match`` is set once, under the
    row's lock, by the one pairing that takes it.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks")
    game = models.CharField(max_length=32)
    # The time control (game/time_controls.py): the pool is keyed by both.
    move_seconds = models.PositiveIntegerField(default=0)
    bank_seconds = models.PositiveIntegerField(default=0)
    rated = models.BooleanField(default=False)
    rating = models.FloatField()
    # Played over the bot socket: the match gets a program seat (contest clock) for this side.
    program = models.BooleanField(default=False)
    created = models.DateTimeField()
    seen = models.DateTimeField(db_index=True)
    match = models.ForeignKey("game.Match", on_delete=models.CASCADE, null=True, blank=True, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user"], condition=models.Q(match=None), name="ratings_one_open_seek")
        ]
        indexes = [models.Index(fields=["game", "move_seconds", "rated", "rating"])]
