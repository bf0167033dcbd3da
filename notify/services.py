"""Changing what a person wants to be told, and proving an address (notify/views.py, sign-up)."""
import time

from django.db import transaction
from django.db.models import Q

from .models import Notice, Preferences, PushSubscription


def preferences_of(user):
    return Preferences.objects.filter(user=user).first() or Preferences(user=user)


def start_verification(user, email):
    """Set ``user``'s address to ``email`` and mail it a link that proves it (sent by a worker,
    notify/delivery.py). No mail goes anywhere else until the link is opened."""
    with transaction.atomic():
        user.email = email
        user.save(update_fields=["email"])
        if email:
            key = f"verify:{user.pk}:{time.time_ns()}"
            Notice.objects.create(user=user, kind=Notice.Kind.VERIFY, key=key, mail_due=True, seen=True)


def verify(user_id, email):
    """The link mailed to ``email`` was opened: it is ``user_id``'s proven address, if still theirs."""
    from django.contrib.auth import get_user_model

    if not get_user_model().objects.filter(pk=user_id, email=email).exists():
        return False
    Preferences.objects.update_or_create(user_id=user_id, defaults={"verified_email": email})
    return True


def save(user, *, email, by_mail, by_push, in_site):
    preferences = preferences_of(user)
    preferences.by_mail, preferences.by_push, preferences.in_site = by_mail, by_push, in_site
    preferences.save()
    # A new address, or the same one not confirmed yet (its link lost or expired): a fresh link.
    if email != user.email or (email and preferences.verified_email != email):
        start_verification(user, email)


def unsubscribe(user_id):
    Preferences.objects.update_or_create(user_id=user_id, defaults={"by_mail": False})


def subscribe_push(user, endpoint, p256dh, auth):
    PushSubscription.objects.update_or_create(endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth})
    Preferences.objects.update_or_create(user=user, defaults={"by_push": True})


def unseen_notices(user):
    """The notices of ``user``'s matches and other games (a 三国 game's, whose ``link`` is its page)
    not shown yet (none if they turned the site's off); shown now, so marked seen. A 三国 game's
    page shows its own notices too (sanguo/notices.py): whichever shows one first marks it seen."""
    if not preferences_of(user).in_site:
        return []
    games = Q(match__isnull=False) | ~Q(link="")
    found = list(Notice.objects.filter(games, user=user, seen=False).order_by("-created")[:20])
    Notice.objects.filter(pk__in=[notice.pk for notice in found]).update(seen=True)
    return found
