"""Telling people when a correspondence match waits for them: what each person wants, their
browsers' push subscriptions, and one row per event to tell of (``Notice``).

A notice's ``key`` is unique: however many processes find the same event, one row is made, and it
is delivered by whoever holds its lease (notify/delivery.py).
"""
from django.conf import settings
from django.db import models


class Preferences(models.Model):
    """How a person wants to be told. No row: the defaults (mail and the site, no push)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notify_preferences")
    by_mail = models.BooleanField(default=True)
    by_push = models.BooleanField(default=False)
    in_site = models.BooleanField(default=True)
    # The address the person proved they read (a link mailed to it was opened); mail goes to
    # ``user.email`` only while it is this one.
    verified_email = models.EmailField(blank=True)


class PushSubscription(models.Model):
    """One browser's Web Push subscription (the Push API's endpoint and keys)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created = models.DateTimeField(auto_now_add=True)


class Notice(models.Model):
    class Kind(models.TextChoices):
        YOUR_MOVE = "your_move", "your move"
        DEADLINE = "deadline", "deadline soon"
        VERIFY = "verify", "verify your address"
        # 三国 (sanguo/notices.py): a phase opened in which the seat may act, its deadline is an
        # hour off and the seat has not acted, the game master asks the seat for a choice.
        SANGUO_PHASE = "sanguo_phase", "phase opened"
        SANGUO_DEADLINE = "sanguo_deadline", "phase ends soon"
        SANGUO_ASKED = "sanguo_asked", "asked for a choice"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    match = models.ForeignKey("game.Match", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # What makes the event one: its kind, match, seat and version (your move) or deadline.
    key = models.CharField(max_length=120, unique=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Where a notice of something other than a match leads (a site path; a match's is its page).
    link = models.CharField(max_length=200, blank=True)
    # The match's version when it was found: a notice of a move already made is not sent.
    version = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # When the match's deadline falls (shown and mailed as time left).
    deadline = models.DateTimeField(null=True, blank=True)
    # Still to be sent by mail / push; cleared once sent, or dropped after ``delivery.ATTEMPTS``.
    mail_due = models.BooleanField(default=False)
    push_due = models.BooleanField(default=False)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Held by the process delivering it until then (a lease: one sender at a time).
    lease_until = models.DateTimeField(null=True, blank=True)
    # Shown in the site until seen.
    seen = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["mail_due", "push_due", "lease_until"])]
