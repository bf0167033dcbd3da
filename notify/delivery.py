"""Sending notices by mail and Web Push, off the web processes (notify/jobs.py runs it in a worker's
thread). A notice is sent by whoever holds its lease; a failed send is tried again on a later sweep,
``ATTEMPTS`` times in all, then dropped with a log line. Nothing here is in a move's way: the moves
are long committed when a notice is found."""
import json
import logging
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from game.models import Match, MatchEvent

from . import links
from .models import Notice, PushSubscription

logger = logging.getLogger(__name__)

ATTEMPTS = 3
# A sender holds a notice this long; a sender that died lets it go to the next sweep's.
LEASE = timedelta(seconds=60)
# Waited after a failure before the next try (times the attempts so far).
BACKOFF = timedelta(seconds=30)
BATCH = 100
PUSH_TTL = 24 * 60 * 60


def pending(now):
    free = Q(lease_until=None) | Q(lease_until__lte=now)
    return Notice.objects.filter(Q(mail_due=True) | Q(push_due=True)).filter(free)


def pending_exist(now=None):
    return pending(now or timezone.now()).exists()


def deliver_pending(now=None):
    """Send every notice due and free; returns how many were sent in full."""
    now = now or timezone.now()
    return sum(deliver(pk, now) for pk in list(pending(now).values_list("pk", flat=True)[:BATCH]))


def _lease(pk, now):
    return pending(now).filter(pk=pk).update(lease_until=now + LEASE) == 1


# {kind: stale(notice)} of the notices about something other than a match, registered by the app
# that makes them (sanguo/apps.py), so this module need not know it.
STALE_CHECKS = {}


def stale(notice):
    """Whether the notice no longer says anything true: the match ended, the move was made, the
    deadline moved. Such a notice is never sent."""
    if notice.kind == Notice.Kind.VERIFY:
        return False
    if notice.kind in STALE_CHECKS:
        return STALE_CHECKS[notice.kind](notice)
    match = Match.objects.filter(pk=notice.match_id).first()
    if match is None or match.status != Match.Status.LIVE:
        return True
    if notice.kind == Notice.Kind.YOUR_MOVE:
        moved = MatchEvent.objects.filter(match=match, seat=notice.seat, version__gt=notice.version).exists()
        return moved or match.deadlines[notice.seat] is None
    return match.deadlines[notice.seat] != notice.deadline


def deliver(pk, now=None):
    """Send notice ``pk`` if this process gets its lease; True once nothing of it is left to send."""
    now = now or timezone.now()
    if not _lease(pk, now):
        return False
    notice = Notice.objects.select_related("user").get(pk=pk)
    if stale(notice):
        Notice.objects.filter(pk=pk).update(mail_due=False, push_due=False, lease_until=None)
        return False
    left, failed = {}, False
    with translation.override(settings.LANGUAGE_CODE):
        for channel, send in (("mail_due", send_mail), ("push_due", send_push)):
            left[channel] = False
            if not getattr(notice, channel):
                continue
            try:
                send(notice)
            except Exception as error:
                logger.warning("Sending notice %s by %s failed: %s", pk, channel, error)
                left[channel] = failed = True
    attempts = notice.attempts + failed
    if failed and attempts >= ATTEMPTS:
        logger.error("Dropped notice %s to user %s after %d attempts", pk, notice.user_id, attempts)
        left = {"mail_due": False, "push_due": False}
    # After a failure the lease stays as a pause before the next try.
    Notice.objects.filter(pk=pk).update(**left, attempts=attempts, lease_until=now + BACKOFF * attempts if failed else None)
    return not failed


def _text(notice):
    """(subject, body, link) of ``notice``, for mail and push alike."""
    context = {"notice": notice, "site": settings.SITE_URL}
    if notice.kind == Notice.Kind.VERIFY:
        link = links.absolute(reverse("notify:verify", args=[links.verify_token(notice.user_id, notice.user.email)]))
    else:
        link = links.absolute(notice.link or reverse("game:match", args=[notice.match_id]))
    context["link"] = link
    subject = render_to_string(f"notify/mail/{notice.kind}_subject.txt", context).strip()
    body = render_to_string(f"notify/mail/{notice.kind}.txt", context)
    return subject, body, link


def send_mail(notice):
    subject, body, _link = _text(notice)
    unsubscribe = links.absolute(reverse("notify:unsubscribe", args=[links.unsubscribe_token(notice.user_id)]))
    body += "\n" + render_to_string("notify/mail/footer.txt", {"unsubscribe": unsubscribe})
    EmailMessage(
        subject, body, to=[notice.user.email],
        # One-click unsubscribing from the mail program itself (RFC 8058).
        headers={"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    ).send()


def send_push(notice):
    from pywebpush import WebPushException, webpush

    subject, _body, link = _text(notice)
    data = json.dumps({"title": subject, "url": link})
    for subscription in PushSubscription.objects.filter(user_id=notice.user_id):
        info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
        try:
            webpush(
                info, data, vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT}, timeout=10,
                # Kept by the push service while the device is off, up to a day: the move waits days.
                ttl=PUSH_TTL,
            )
        except WebPushException as error:
            if error.response is not None and error.response.status_code in (404, 410):
                # The browser dropped the subscription: so do we.
                subscription.delete()
                continue
            raise
