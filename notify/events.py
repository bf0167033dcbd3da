"""Finding what to tell people: in a correspondence match, that it became their move, and that a
deadline is near. Run by every sweep (notify/jobs.py); a notice's unique key makes each event one
row however many processes sweep at once."""
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from game.models import Match, MatchEvent
from game.time_controls import DAY

from .models import Notice, Preferences, PushSubscription

# Reminded this long before a deadline; for a period this short or shorter, halfway through it
# (a day's period starts a day before its deadline: the reminder would come with the move).
REMIND_BEFORE = timedelta(days=1)
# A change this recent is looked at for a move newly owed (sweeps come every few seconds; this is for
# workers that were all down a while).
RECENT = timedelta(hours=1)


def remind_before(period_seconds):
    period = timedelta(seconds=period_seconds)
    return REMIND_BEFORE if period > REMIND_BEFORE else period / 2


def wants(user_ids):
    """{user id: (by mail, by push)} for ``user_ids``: mail only to a verified address."""
    preferences = {p.user_id: p for p in Preferences.objects.filter(user_id__in=user_ids)}
    pushing = set(PushSubscription.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True))
    emails = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "email"))
    found = {}
    for user_id in user_ids:
        chosen = preferences.get(user_id) or Preferences(user_id=user_id)
        verified = bool(emails.get(user_id)) and chosen.verified_email == emails[user_id]
        found[user_id] = (chosen.by_mail and verified, chosen.by_push and user_id in pushing)
    return found


def _events(now):
    """[(key, kind, match, seat, deadline)] of every event of the live correspondence matches."""
    last_seat = MatchEvent.objects.filter(match=OuterRef("pk"), version=OuterRef("version")).values("seat")[:1]
    # Only what can have news: a match changed lately (a move now owed), or a deadline within the
    # reminder's reach; not every correspondence match on every sweep.
    soon = now + REMIND_BEFORE
    news = Q(updated__gte=now - RECENT) | Q(deadline_0__lte=soon) | Q(deadline_1__lte=soon)
    live = (
        Match.objects.filter(news, status=Match.Status.LIVE, bank_seconds=0, move_seconds__gte=DAY)
        .exclude(deadline_0=None, deadline_1=None)
        .annotate(last_seat=Subquery(last_seat))
        .only("pk", "version", "move_seconds", "deadline_0", "deadline_1", "host_id", "guest_id")
    )
    events = []
    for match in live:
        for seat, deadline in enumerate(match.deadlines):
            if deadline is None:
                continue
            # One clock period, one deadline: a new one is a move newly owed, unless the seat's own
            # decision started it (an assertion before the action: it was their move already).
            period = f"{match.pk}:{seat}:{int(deadline.timestamp())}"
            if match.last_seat != seat:
                events.append((f"your_move:{period}", Notice.Kind.YOUR_MOVE, match, seat, deadline))
            if deadline - remind_before(match.move_seconds) <= now < deadline:
                events.append((f"deadline:{period}", Notice.Kind.DEADLINE, match, seat, deadline))
    return events


def find(now=None):
    """Make a notice of every event not told of yet; returns the new ones' count."""
    now = now or timezone.now()
    events = _events(now)
    if not events:
        return 0
    known = set(Notice.objects.filter(key__in=[e[0] for e in events]).values_list("key", flat=True))
    fresh = [e for e in events if e[0] not in known]
    users = {key: (match.host_id, match.guest_id)[seat] for key, _kind, match, seat, _deadline in fresh}
    choices = wants(set(users.values()))
    notices = [
        Notice(
            user_id=users[key], match=match, kind=kind, key=key, seat=seat, version=match.version,
            deadline=deadline, mail_due=choices[users[key]][0], push_due=choices[users[key]][1],
        )
        for key, kind, match, seat, deadline in fresh
    ]
    # Another process may have made some meanwhile: theirs stand, these are skipped.
    Notice.objects.bulk_create(notices, ignore_conflicts=True)
    return len(notices)
