"""Who plays a seat when it is not a person in the browser, and the tokens programs log in with.

Imported by ``game.models`` so Django registers these models with the game app.
"""
from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    """A named credential for the bot socket. Only a SHA-256 digest is kept: a leaked database
    does not leak working tokens. ``prefix`` (the token's first characters) lets people tell them apart."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=64)
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"


class BotAccount(models.Model):
    """The account a built-in level plays under, so it holds a seat like anyone else (``seat_of``).

    Looked up by level, never by username: a person may already own the name we would like.
    """

    level = models.CharField(max_length=16, unique=True)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_account")

    def __str__(self):
        return f"{self.level} bot"


class BotSeat(models.Model):
    """A seat played by a machine: a built-in ``level``, or a program over the bot socket (level "").

    ``deadline`` is set exactly while the seat is to move. A program that lets it pass loses the
    match; for a built-in level it is when the periodic sweep takes over a move the runner missed
    (after a restart, say).
    """

    PROGRAM = ""

    match = models.ForeignKey("game.Match", on_delete=models.CASCADE, related_name="bot_seats")
    seat = models.PositiveSmallIntegerField()
    level = models.CharField(max_length=16, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="game_bot_seat_unique")]

    def __str__(self):
        return f"match {self.match_id} seat {self.seat} ({self.level or 'program'})"

    @property
    def is_program(self):
        return self.level == self.PROGRAM


class BotConnection(models.Model):
    """An open bot socket, in the database so that every server process counts an account's (the
    per-account cap). Its socket refreshes ``seen`` like a match socket's ``Presence`` row, so the
    rows of a process that died stop counting (game/live/presence.py).

    ``match_id`` and ``seat``: the match the socket plays now and its seat there, so that a program
    playing over this socket counts as present on that match as a player's match socket does. A
    plain number, not a foreign key: the socket's own writes (opening, heartbeats, closing) then
    never lock anything of the match's."""

    channel_name = models.CharField(max_length=200, primary_key=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seen = models.DateTimeField(db_index=True)
    match_id = models.BigIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
