from django.conf import settings
from django.db import models

# A line of chat, not a letter; long enough for a sentence or two in either language.
MAX_LENGTH = 300


class ChatMessage(models.Model):
    PLAYERS = "players"
    SPECTATORS = "spectators"

    match = models.ForeignKey("game.Match", on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # Who may read it while the match is on: its two players, or everyone else (see service.rooms_for).
    room = models.CharField(max_length=16)
    text = models.CharField(max_length=MAX_LENGTH)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["match", "room", "id"]), models.Index(fields=["user", "created"])]

    def __str__(self):
        return f"match {self.match_id} {self.room} #{self.pk}"


class ChatMute(models.Model):
    """``user`` no longer reads ``muted``'s messages, in any match (nobody else is affected)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="game_chat_mute_unique")]
