from django.conf import settings
from django.db import models


class LobbyConnection(models.Model):
    """An open lobby socket (lobby/consumers.py), in the database so every server process counts it
    against the socket caps. ``seen`` is refreshed by the socket's heartbeat, as a match socket's
    presence row is, so a killed process's rows go stale instead of counting forever."""

    channel_name = models.CharField(max_length=200, primary_key=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The client's address (aquawar_site/security.py), for the per-address cap.
    address = models.CharField(max_length=64, blank=True, db_index=True)
    seen = models.DateTimeField(db_index=True)
