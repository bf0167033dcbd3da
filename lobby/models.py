from django.conf import settings
from django.db import models

from game import games


class LobbyConnection(models.Model):
    """An open lobby socket (lobby/consumers.py), in the database so every server process counts it
    against the socket caps. ``seen`` is refreshed by the socket's heartbeat, as a match socket's
    presence row is, so a killed process's rows go stale instead of counting forever."""

    channel_name = models.CharField(max_length=200, primary_key=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The client's address (aquawar_site/security.py), for the per-address cap.
    address = models.CharField(max_length=64, blank=True, db_index=True)
    seen = models.DateTimeField(db_index=True)


class Challenge(models.Model):
    """A direct invitation to a match (lobby/challenges.py): ``challenger`` asks ``challenged`` to
    play ``game`` under this time control; the match is made only when the challenged accepts."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        CANCELLED = "cancelled"

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent")
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    game = models.CharField(max_length=32)
    move_seconds = models.PositiveIntegerField(default=0)
    bank_seconds = models.PositiveIntegerField(default=0)
    rated = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(db_index=True)
    match = models.ForeignKey("game.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        constraints = [
            # One question at a time between two people: a second would only repeat it.
            models.UniqueConstraint(
                fields=["challenger", "challenged"], condition=models.Q(status="pending"), name="lobby_one_pending_challenge"
            )
        ]
        indexes = [models.Index(fields=["challenged", "status"]), models.Index(fields=["challenger", "status"])]

    @property
    def game_object(self):
        return games.get(self.game)
