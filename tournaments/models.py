"""Tournaments (round robin and Swiss, for people or for programs) and the programs' ladder.

A tournament's rounds are ``Pairing`` rows: made by the runner (tournaments/runner.py) under the
tournament's lock, each with the match it started (none for a bye), and its points once that match
is over. Standings are computed from them (tournaments/pairing.py); when the last round is over the
final table is written onto the entries, so it stays as it was whatever happens to ratings later.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from game import games
from game.models import Match

# A finished match decided by the loser's forfeit, not by play: its clock ran out (an absent
# program's always does) or its program broke the rules of play (docs/bot-api.md).
FORFEITS = {"timeout": _("time ran out"), "illegal": _("an illegal move")}


class Tournament(models.Model):
    class Kind(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=80)
    # A name in the game registry (game.games), checked by the services as for matches.
    game = models.CharField(max_length=32)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # Programs play every seat over the bot socket (under the contest clock); otherwise people do.
    for_programs = models.BooleanField(default=False)
    rated = models.BooleanField(default=False)
    # People's time control (one of the game's, game/time_controls.py; never none: an absent player
    # must lose on time, or a round would wait for ever). Programs keep the contest's clock: 0.
    move_seconds = models.PositiveIntegerField(default=0)
    bank_seconds = models.PositiveIntegerField(default=0)
    starts = models.DateTimeField(db_index=True)
    # Swiss: as chosen, fewer if the players run out of new opponents. Round robin: set at the start.
    rounds = models.PositiveSmallIntegerField()
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organized_tournaments")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION, db_index=True)
    # The round being played; 0 before the start.
    round = models.PositiveSmallIntegerField(default=0)
    # Why it ended other than by playing every round: "too_few" players at the start, "no_pairing"
    # (every next round would repeat a pairing), "organizer" (called off before the start),
    # "start_failed" (the server could not start its next round, however often it tried).
    end_reason = models.CharField(max_length=16, blank=True)
    # Failed tries in a row to start the next round (or the first), and when the runner may try
    # again: a round that cannot start now is not tried again on every sweep of every process.
    start_failures = models.PositiveSmallIntegerField(default=0)
    retry_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts", "-pk"]

    def __str__(self):
        return self.name

    @property
    def game_object(self):
        return games.get(self.game)

    @property
    def tiebreak_name(self):
        return _("Sonneborn–Berger") if self.kind == self.Kind.ROUND_ROBIN else _("Buchholz")

    @property
    def tiebreak_abbreviation(self):
        """The standings' column heading on a phone, where the whole name would squeeze the names."""
        if self.kind == self.Kind.ROUND_ROBIN:
            return pgettext_lazy("the tiebreak, abbreviated", "SB")
        return pgettext_lazy("the tiebreak, abbreviated", "Buch.")


class Entry(models.Model):
    """A player registered in a tournament: a person, or a program's account."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    created = models.DateTimeField(auto_now_add=True)
    # The rating the tournament started with: seeding, and the last tiebreak, for every round.
    rating = models.FloatField(null=True, blank=True)
    # The final table, written when the last round is over.
    final_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    final_score = models.FloatField(null=True, blank=True)
    final_tiebreak = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="tournament_entry_once")]
        ordering = ["final_rank", "-rating", "pk"]


class Pairing(models.Model):
    """One table of one round: ``first`` in seat 0, ``second`` in seat 1 — or no ``second``: a bye."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", null=True, blank=True)
    match = models.OneToOneField(
        "game.Match", on_delete=models.SET_NULL, related_name="tournament_pairing", null=True, blank=True
    )
    # Null until the match is over: a win 1, a draw ½, a loss or a called-off match 0, a bye 1.
    first_points = models.FloatField(null=True, blank=True)
    second_points = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "table"], name="tournament_pairing_table"),
            models.UniqueConstraint(fields=["tournament", "round", "first"], name="tournament_pairing_first"),
        ]
        ordering = ["round", "table"]

    @property
    def forfeit(self):
        """Why the loser of this table lost by forfeit, in words; None if the points were played for
        (or it is a draw, a bye, or not over). Read with ``match`` loaded."""
        if self.second_id is None or self.match is None or self.first_points in (None, self.second_points):
            return None
        if self.match.status == Match.Status.FINISHED:
            return FORFEITS.get(self.match.end_reason)
        # Called off with only one side having moved: who came beats who didn't (tables.points_of).
        return _("did not play")


class LadderEntry(models.Model):
    """A program's account on its game's ladder: paired continuously while its bot socket is open."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_entries")
    game = models.CharField(max_length=32)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="ladder_entry_once")]


class LadderMatch(models.Model):
    """A match the ladder started (so the ladder counts each program's matches at once)."""

    match = models.OneToOneField("game.Match", on_delete=models.CASCADE, related_name="ladder_match")
    game = models.CharField(max_length=32)
    created = models.DateTimeField(auto_now_add=True)
