"""A 三国 game, its seats and its append-only event log.

Beside ``game.Match`` rather than in it: a match there has two seats (host/guest, a bank and a
deadline per seat, audiences 0/1); here 3 to 33 seats, a game master, and one deadline per phase
(docs/three-kingdoms-site.md). The shape is the same: ``Game.state`` is the engine's state at
``Game.version``, ``Event`` rows are the history (one per applied command, gap-free), so a game is
never replayed to be loaded and always can be.
"""
import json

from django.conf import settings
from django.db import models
from django.db.models import Q

from game.chat.models import MAX_LENGTH
from game.models import new_invite_token, new_seed

MODES = ("standard", "solo", "nine", "crowd")
# Human seats per mode (rulings 1–4); 群英荟萃局's follows its character count.
SEATS = {"standard": 3, "solo": 4, "nine": 9}
SIZES = (27, 30, 33)


class OrderedJSONField(models.TextField):
    """JSON kept as its text, so objects come back with their keys in the order they were written.

    The 三国 engine's state is a Python dict whose insertion orders carry meaning (who submitted
    first, the order of the night's deaths), and its luck draws walk those dicts in that order.
    PostgreSQL's jsonb stores object keys sorted by length, so a game loaded there would go on
    differently from the same game on SQLite, or from its record replayed in memory.
    """

    def from_db_value(self, value, expression, connection):
        return None if value is None else json.loads(value)

    def to_python(self, value):
        return json.loads(value) if isinstance(value, str) else value

    def get_prep_value(self, value):
        return None if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def seats_for(mode, characters):
    return characters if mode == "crowd" else SEATS[mode]


class Game(models.Model):
    class Status(models.TextChoices):
        # Seats being filled; the game master may already enter the game data.
        RECRUITING = "recruiting", "recruiting"
        LIVE = "live", "live"
        FINISHED = "finished", "finished"
        CANCELLED = "cancelled", "cancelled"

    gm = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanguo_hosted")
    # The account the game master shares the 天庭 console with: it is the game master's audience
    # and acts as the game master (sanguo.services.actor_of); set and cleared by the game master only.
    co_gm = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="sanguo_co_hosted")
    title = models.CharField(max_length=80, blank=True)
    mode = models.CharField(max_length=16)
    characters = models.PositiveSmallIntegerField(default=27)
    private = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RECRUITING)
    seed = models.BigIntegerField(default=new_seed)
    version = models.PositiveIntegerField(default=0)
    state = OrderedJSONField()
    # When the running phase (or the revision window) closes by itself; null while none runs, before
    # the start and after the end. Kept in step with the state by every change, indexed for the sweep.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # The seats owing something at the last change, and since which version: the reminder an hour
    # before a deadline goes only to a seat that has not acted since the phase opened.
    phase_opened = models.PositiveIntegerField(default=0)
    winner = models.CharField(max_length=16, blank=True)
    # Made from an uploaded record (sanguo/records.py): finished, nobody seated, its uploader its GM.
    imported = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "private"])]

    def __str__(self):
        return f"三国 {self.pk} ({self.status})"

    @property
    def seat_count(self):
        return seats_for(self.mode, self.characters)


class Seat(models.Model):
    """A person signed up for a game; ``seat`` is the engine's seat once given (by the game master,
    or drawn at the start)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanguo_seats")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="sanguo_one_seat_each"),
            models.UniqueConstraint(fields=["game", "seat"], condition=Q(seat__isnull=False),
                                    name="sanguo_seat_taken_once"),
        ]
        ordering = ["game", "seat", "joined"]


class Event(models.Model):
    """One applied command (``actor``: a seat's number, "gm" or "server") and the engine's full
    events; each audience sees them only through the engine's ``project``."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    actor = models.CharField(max_length=8)
    client_id = models.CharField(max_length=64, blank=True)
    command = models.JSONField()
    events = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="sanguo_event_unique_version"),
            models.UniqueConstraint(fields=["game", "actor", "client_id"], condition=~Q(client_id=""),
                                    name="sanguo_event_unique_client_id"),
        ]
        ordering = ["game", "version"]


class Message(models.Model):
    """A line of a game's chat (sanguo/chat.py). ``channel`` names who it was written to: "public",
    "spectators", "gm:<seat>" (a seat and the game master) or "seats:<a>,<b>,…" (a group the rules
    let talk, by its seats when the line was written). Who may read it follows from that name
    alone, so no list of members is stored that could go stale."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # 33 seats' numbers and their commas fit.
    channel = models.CharField(max_length=120)
    text = models.CharField(max_length=MAX_LENGTH)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["game", "channel", "id"]), models.Index(fields=["game", "user", "created"])]

    def __str__(self):
        return f"三国 {self.game_id} {self.channel} #{self.pk}"
