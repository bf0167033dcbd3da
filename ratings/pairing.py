"""Quick pairing ("Play now"): a pool of seekers per game, time control and rated-or-casual; each is
paired with the closest rating within a window that widens the longer either of them has waited.

Exactly once across processes: a pairing is one transaction that locks the seeker's row and its
candidates' with ``SELECT … FOR UPDATE SKIP LOCKED`` (PostgreSQL: a row another process is pairing
right now is skipped, never waited for, so two processes never take the same seeker and never
deadlock; SQLite's IMMEDIATE transactions run one at a time anyway), re-checks that each is still
unpaired, starts the match (``game.services.start_between``) and records it on both rows. A seek
with a match is never paired again.

Nothing runs in the background: a seeker's own request, and every poll while it waits (a page every
``POLL_SECONDS``, a program's socket more often), tries to pair it; widening windows make that
succeed sooner or later. ``pair_waiting`` pairs the whole pool a batch at a time, closest neighbours
first (the benchmark's loop, and what a server would run to drain a crowded pool).
"""
import math
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.db.models.functions import Abs
from django.utils import timezone
from django.utils.translation import gettext as _

from game import games, limits, services, time_controls
from game.services import ServiceError

from .api import rating_of
from .models import Seek

# The window starts at ±BASE_WINDOW rating points and widens by WIDEN_PER_SECOND each second a seek
# waits; after OPEN_AFTER it takes anyone in the pool (a game now beats a closer one later). Two
# seekers are paired when each one's window reaches the other.
BASE_WINDOW = 100
WIDEN_PER_SECOND = 50
OPEN_AFTER = timedelta(seconds=10)
# A seek nobody has polled for this long is not waited for any more (the page was closed).
STALE_AFTER = timedelta(seconds=15)
# How often the waiting page asks; well within STALE_AFTER.
POLL_SECONDS = 2
# The closest unpaired seekers in the window looked at per attempt (the nearest acceptable is taken).
CANDIDATES = 8
# Seeks locked and paired per transaction by a pass over the pool (``pair_waiting``).
BATCH = 100


def window(seek, now):
    waited = now - seek.created
    if waited >= OPEN_AFTER:
        return math.inf
    return BASE_WINDOW + WIDEN_PER_SECOND * max(waited.total_seconds(), 0)


def seek(user, *, game=games.DEFAULT, move_seconds=0, bank_seconds=0, rated=False, program=False):
    """Put ``user`` in the pool and try to pair them at once; returns the ``Seek`` (its ``match`` set
    if paired already). One open seek per account."""
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required", _("Log in to play."))
    chosen = services.game_named(game)
    time_controls.check(chosen, move_seconds, bank_seconds)
    now = timezone.now()
    fields = dict(
        game=chosen.name, move_seconds=move_seconds, bank_seconds=bank_seconds, rated=bool(rated),
        program=bool(program),
        rating=rating_of(user, chosen.name).rating, created=now, seen=now,
    )
    try:
        with transaction.atomic():
            if Seek.objects.filter(user=user, match=None).exists():
                raise ServiceError("already_seeking", _("You are already waiting for an opponent."))
            # Checked here, not when the pairing starts the match (``services.start_many``, which
            # tournaments share): a seeker past the limit never enters the pool.
            limits.check_live_limit(user.pk)
            # A seek asks for a match: counted as one made, so seek-resign loops are paced too.
            limits.check_creation_rate(user.pk)
            row = Seek.objects.create(user=user, **fields)
    except IntegrityError:
        # Another request of this account made its seek at the same moment.
        raise ServiceError("already_seeking", _("You are already waiting for an opponent.")) from None
    pair(row.pk)
    row.refresh_from_db()
    return row


def pair(seek_id, now=None):
    """Try to pair the seek ``seek_id``; returns the new match, or None (nobody suitable, it was
    paired or cancelled meanwhile, or another process holds it right now)."""
    now = now or timezone.now()
    fresh = now - STALE_AFTER
    with transaction.atomic():
        locked = Seek.objects.select_for_update(skip_locked=True)
        me = next(iter(locked.filter(pk=seek_id, match=None, seen__gte=fresh)[:1]), None)
        if me is None:
            return None
        reach = window(me, now)
        candidates = locked.filter(
            game=me.game, move_seconds=me.move_seconds, bank_seconds=me.bank_seconds, rated=me.rated, match=None,
            seen__gte=fresh,
        )
        if reach != math.inf:
            candidates = candidates.filter(rating__gte=me.rating - reach, rating__lte=me.rating + reach)
        candidates = (
            candidates.exclude(user_id=me.user_id)
            .annotate(distance=Abs(F("rating") - me.rating))
            .order_by("distance", "created")[:CANDIDATES]
        )
        other = next((c for c in candidates if c.distance <= window(c, now)), None)
        if other is None:
            return None
        return _start([(me, other)])[0]


def poll(user):
    """A waiting seeker checks in: ("paired", match id) once a match is found (the seek is then
    done with), ("waiting", None) while in the pool (tried for a pairing meanwhile), or
    ("none", None) when ``user`` has no seek."""
    now = timezone.now()
    paired = Seek.objects.filter(user=user).exclude(match=None).order_by("-created").first()
    if paired is not None:
        Seek.objects.filter(user=user).exclude(match=None).delete()
        return "paired", paired.match_id
    touched = Seek.objects.filter(user=user, match=None).update(seen=now)
    if not touched:
        return "none", None
    row = Seek.objects.filter(user=user, match=None).values_list("pk", flat=True).first()
    if row is not None and pair(row, now) is not None:
        return poll(user)
    return "waiting", None


def cancel(user):
    """Leave the pool. Returns the match id if a pairing took the seek first (it can't be undone:
    the player is taken there), else None."""
    with transaction.atomic():
        deleted, _rows = Seek.objects.filter(user=user, match=None).delete()
    if deleted:
        return None
    status, match_id = poll(user)
    return match_id if status == "paired" else None


def waiting(user):
    """``user``'s open seek, or None."""
    return Seek.objects.filter(user=user, match=None).first()


def _start(pairs):
    """The matches of ``pairs`` of locked, unpaired seeks (one pool), recorded on the seeks."""
    pairs = [sorted(pair, key=lambda s: (s.created, s.pk)) for pair in pairs]
    sample = pairs[0][0]
    # The one who waited longer hosts; who moves first is the game's (drawn from the seed).
    matches = services.start_many(
        [(first.user, second.user, [seat for seat, s in enumerate((first, second)) if s.program]) for first, second in pairs],
        game=sample.game, move_seconds=sample.move_seconds, bank_seconds=sample.bank_seconds, rated=sample.rated,
    )
    for (first, second), match in zip(pairs, matches):
        first.match = second.match = match
    # Every row is locked by this transaction and was unpaired when locked: none can be taken twice.
    Seek.objects.bulk_update([seek for pair in pairs for seek in pair], ["match"])
    return matches


def _pass(pool, cursor, now, batch):
    """Pair within the next ``batch`` open seeks of ``pool`` above ``cursor`` (rating, id) in
    rating order, locked with SKIP LOCKED (another process works on other rows meanwhile), closest
    neighbours first. Returns (matches made, the cursor after this batch or None at the end)."""
    fresh = now - STALE_AFTER
    with transaction.atomic():
        # of=self: lock the seeks only, not their accounts' rows (the join is only to read names).
        rows = Seek.objects.select_for_update(skip_locked=True, of=("self",)).filter(
            match=None, seen__gte=fresh, **pool
        )
        if cursor is not None:
            rows = rows.filter(Q(rating__gt=cursor[0]) | Q(rating=cursor[0], pk__gt=cursor[1]))
        rows = list(rows.select_related("user").order_by("rating", "pk")[:batch])
        if not rows:
            return 0, None
        neighbours = sorted(range(len(rows) - 1), key=lambda i: rows[i + 1].rating - rows[i].rating)
        taken, pairs = set(), []
        for i in neighbours:
            a, b = rows[i], rows[i + 1]
            if i in taken or i + 1 in taken or a.user_id == b.user_id:
                continue
            if b.rating - a.rating <= min(window(a, now), window(b, now)):
                taken.update((i, i + 1))
                pairs.append((a, b))
        if pairs:
            _start(pairs)
        last = rows[-1]
        return len(pairs), ((last.rating, last.pk) if len(rows) == batch else None)


def pair_waiting(now=None, batch=BATCH):
    """One pass over the whole pool, a batch at a time (each batch one transaction), after sweeping
    stale seeks away; returns how many matches were made. Seekers left over (nobody close enough
    yet, a neighbour in another batch or locked by another process) are tried again next time."""
    now = now or timezone.now()
    Seek.objects.filter(match=None, seen__lt=now - STALE_AFTER).delete()
    pools = Seek.objects.filter(match=None).values("game", "move_seconds", "bank_seconds", "rated").distinct().order_by()
    made = 0
    for pool in list(pools):
        cursor = None
        while True:
            count, cursor = _pass(pool, cursor, now, batch)
            made += count
            if cursor is None:
                break
    return made
