"""Matches and their append-only event log.

``Match.state`` is the game's state at ``Match.version`` (``Game.dump``), so loading a match never
replays history; ``MatchEvent`` rows are the history itself (one row per applied command, gap-free).
"""
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q

from . import games


def new_invite_token():
    return secrets.token_urlsafe(16)


def new_seed():
    # The engine keeps a 64-bit generator; a signed 63-bit seed fits every database's BigInteger.
    return secrets.randbits(63)


# The reverse accessors on an account that make it a program's (the BOT badge; no limit on the
# matches it plays at once): a built-in level's ``BotAccount``, and the ratings app's
# ``ProgramAccount`` (named, not imported: ratings depends on game).
PROGRAM_MARKS = ("bot_account", "program_account")


def program_marked():
    """A filter on accounts: those a program plays under (``ratings.api.is_program``)."""
    marked = Q()
    for accessor in PROGRAM_MARKS:
        marked |= Q(**{f"{accessor}__isnull": False})
    return marked


def hold_account(user_id):
    """Lock ``user_id``'s account row for the rest of the transaction. Whatever counts a user's
    things against a limit and then adds one holds it first, so two requests at once can't both
    see room for the last one (SQLite's IMMEDIATE transactions are serial anyway)."""
    list(get_user_model().objects.select_for_update().filter(pk=user_id).values_list("pk", flat=True))


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "open"
        LIVE = "live", "live"
        FINISHED = "finished", "finished"
        CANCELLED = "cancelled", "cancelled"
        # Ended without a result, as lichess aborts a game nobody really started (game/fairness.py):
        # nobody won, nobody lost, no rating moves.
        ABORTED = "aborted", "aborted"

    # The game played (a name in the registry, game.games); ``state``, the events' contents and the
    # commands are that game's. Checked by the services, not by choices, so adding a game needs no
    # migration.
    game = models.CharField(max_length=32, default=games.DEFAULT)

    # Null only for an imported match, whose players are names in ``player_names``, not accounts.
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_matches", null=True, blank=True
    )
    guest = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="joined_matches",
        null=True,
        blank=True,
    )
    private = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    seed = models.BigIntegerField(default=new_seed)
    version = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    end_reason = models.CharField(max_length=32, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)
    # An uploaded record (game.history.imports): unranked, never counted in anyone's won/lost totals.
    imported = models.BooleanField(default=False)
    # Rated (changes both players' ratings when it finishes; ratings/) or casual. Only ever set
    # between two accounts with no built-in level in a seat, never on an imported match (services).
    rated = models.BooleanField(default=False)
    # A game's tutorial (game/tutorials.py): a fixed start against its scripted bot, whose page
    # explains each step. Never rated, like every match against a built-in level.
    tutorial = models.BooleanField(default=False)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, related_name="uploaded_matches", null=True, blank=True
    )
    player_names = models.JSONField(default=list, blank=True)
    # The record's round-1 first mover override; None (every live match) means drawn from the seed.
    first_mover = models.PositiveSmallIntegerField(null=True, blank=True)
    # What an imported file said beyond the seed and the first mover, both JSON its game wrote
    # (``Record.setup`` and ``Record.source``, game/games/base.py); None for every match played here
    # but a tutorial, whose ``setup`` is its fixed start (``Tutorial.setup``).
    # ``setup``: how the match starts, given back to ``Game.new_match`` whenever it is played again.
    # ``source``: what the file was when not the game's own record, described by the game's pages.
    setup = models.JSONField(null=True, blank=True)
    source = models.JSONField(null=True, blank=True)
    # A finished match's rematch: offered by one seat, then accepted (``rematch_of`` on the new
    # match points back here, one rematch per match) or declined. See game/rematch.py.
    rematch_status = models.CharField(max_length=16, blank=True)
    rematch_offer = models.PositiveSmallIntegerField(null=True, blank=True)
    rematch_of = models.OneToOneField(
        "self", on_delete=models.SET_NULL, related_name="rematch", null=True, blank=True
    )
    # The time control for people (game/time_controls.py): ``bank_seconds`` 0, ``move_seconds`` per
    # decision (turn), days of them for correspondence; else each player's bank for the whole match,
    # and ``move_seconds`` the increment. A seat a machine plays keeps its own clock
    # (``BotSeat.deadline``: a program always has the contest's 3 s), whatever this says.
    move_seconds = models.PositiveIntegerField(default=0)
    bank_seconds = models.PositiveIntegerField(default=0)
    # Under a bank: what is left of each seat's bank while its bank is not running (null: all of
    # it). While it runs, the seat's deadline is when it runs out (game/live/clocks.py).
    bank_0 = models.DurationField(null=True, blank=True)
    bank_1 = models.DurationField(null=True, blank=True)
    # When each seat's person must have made the decision they owe, or lose the match; null while they
    # owe none, under no time control, or when a machine plays the seat. Set in the transaction of the
    # change that made the seat due (game/live/clocks.py), on the match row so that every view of the
    # match carries its clocks without another query; indexed for the sweep.
    deadline_0 = models.DateTimeField(null=True, blank=True, db_index=True)
    deadline_1 = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["status", "private"])]

    def __str__(self):
        return f"match {self.pk} ({self.status})"

    @property
    def game_object(self):
        """The ``Game`` (game.games.base) of this match."""
        return games.get(self.game)

    @property
    def deadlines(self):
        return [self.deadline_0, self.deadline_1]

    @property
    def banks(self):
        return [self.bank_0, self.bank_1]

    def seat_of(self, user):
        """0 for the host, 1 for the guest, None for anyone else (anonymous users included)."""
        user_id = getattr(user, "pk", None)
        if user_id is None:
            return None
        if user_id == self.host_id:
            return 0
        if self.guest_id is not None and user_id == self.guest_id:
            return 1
        return None


class MatchEvent(models.Model):
    """One applied command and the game's full (unredacted) events; projected on the way out."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    client_id = models.CharField(max_length=64, blank=True)
    command = models.JSONField(null=True, blank=True)
    events = models.JSONField(default=list)
    # The host's chance to win after this command, estimated by the workers from the spectator's view
    # (game/programs/winchances.py, docs/win-chances.md): engine help, read only for spectators of
    # the live match and for everyone once it is over. Null until estimated.
    win_chance = models.FloatField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="game_event_unique_version"),
            models.UniqueConstraint(
                fields=["match", "seat", "client_id"],
                condition=~Q(client_id=""),
                name="game_event_unique_client_id",
            ),
        ]
        ordering = ["match", "version"]

    def __str__(self):
        return f"match {self.match_id} v{self.version}"


class Presence(models.Model):
    """A connected match socket. Rows live in the database so every server process counts them.

    ``seat`` is null for a spectator; ``user`` is whoever is logged in (for the per-user socket
    cap), ``address`` where the socket comes from; ``seen`` is refreshed by the socket's heartbeat, so a killed process's rows go stale.
    A row with ``connected`` off is no socket: it remembers when a seat's player last left
    (for the abandoned-match sweep).
    """

    channel_name = models.CharField(max_length=200, primary_key=True)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="presences")
    created = models.DateTimeField(auto_now_add=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    seen = models.DateTimeField(null=True, blank=True, db_index=True)
    connected = models.BooleanField(default=True)
    # The client's address (aquawar_site/security.py): for the per-address socket cap, and to count
    # anonymous spectators once per address.
    address = models.CharField(max_length=64, blank=True, db_index=True)


# Bot seats and API tokens live in their own module; importing them here registers them with the app.
from .programs.models import ApiToken, BotAccount, BotConnection, BotSeat  # noqa: E402,F401
from .chat.models import ChatMessage, ChatMute  # noqa: E402,F401
