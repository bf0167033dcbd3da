"""Challenges: one person asks another, by name, to play a match; the other accepts or declines.

Nothing is made until the answer: a challenge is a question (``Challenge``), and accepting it starts
the live match between the two (``services.start_between``), the challenger hosting. Both sides
hear of every step at once over their lobby sockets (``groups.tell_user``, after the commit): the
challenged of a new or withdrawn challenge, the challenger of the answer, and on "accept" the
challenger is taken to the match as when someone joins a match they host (static/lobby/lobby.js).
A page without its socket sees the same in the lobby's lists, which are polled.

Asking costs what making a match costs: it counts against ``MATCH_CREATION_RATE``, and a person
has at most ``MAX_PENDING`` challenges waiting for an answer. Accepting checks both players' live
matches as joining does. A challenge nobody answers lapses after ``LAPSES_AFTER``.
"""
from datetime import timedelta
from functools import partial

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from game import time_controls
from game.errors import ServiceError
from game.limits import check_creation_rate, check_live_limit, require_member
from game.live import clocks, groups
from game.models import hold_account
from game.services import game_named, start_between
from ratings.api import is_program

from .models import Challenge

MAX_PENDING = 5
LAPSES_AFTER = timedelta(minutes=15)
# The challenger hears of the answer on the lobby and is taken to the match within a second or
# two; their first clock gets at least this long, as a tournament's players get to show up.
SHOW_UP_SECONDS = 30


def _open():
    return Q(status=Challenge.Status.PENDING, created__gte=timezone.now() - LAPSES_AFTER)


def _tell(user_id, news):
    transaction.on_commit(partial(groups.tell_user, user_id, news), robust=True)


def opponent_named(name):
    """The active account called ``name`` (any case: sign-up refuses names differing only in case)."""
    found = get_user_model().objects.filter(username__iexact=(name or "").strip(), is_active=True).first()
    if found is None:
        raise ServiceError("no_such_player", _("There is no player called “%(name)s”.") % {"name": (name or "").strip()})
    return found


def challenge(challenger, opponent, *, game, move_seconds=0, bank_seconds=0, rated=False):
    """``challenger`` asks ``opponent`` (an account) to play; returns the new ``Challenge``."""
    require_member(challenger)
    chosen = game_named(game)
    time_controls.check(chosen, move_seconds, bank_seconds)
    if opponent.pk == challenger.pk:
        raise ServiceError("own_challenge", _("You can't challenge yourself."))
    if is_program(opponent) or is_program(challenger):
        raise ServiceError(
            "program_challenge", _("Programs play over the bot API, in quick pairing and tournaments: they can't be challenged.")
        )
    with transaction.atomic():
        hold_account(challenger.pk)
        mine = Challenge.objects.filter(challenger=challenger, status=Challenge.Status.PENDING)
        # Lapsed ones are closed here, so they neither count nor block a new one to the same person.
        mine.filter(created__lt=timezone.now() - LAPSES_AFTER).update(status=Challenge.Status.CANCELLED)
        if mine.filter(challenged=opponent).exists():
            raise ServiceError("already_challenged", _("You already challenged %(name)s: wait for the answer.") % {"name": opponent.username})
        if mine.count() >= MAX_PENDING:
            message = _("You already have %(count)d challenges waiting for an answer: cancel one first.")
            raise ServiceError("too_many_challenges", message % {"count": MAX_PENDING})
        check_creation_rate(challenger.pk)
        try:
            with transaction.atomic():
                made = Challenge.objects.create(
                    challenger=challenger, challenged=opponent, game=chosen.name, move_seconds=move_seconds,
                    bank_seconds=bank_seconds, rated=bool(rated), created=timezone.now(),
                )
        except IntegrityError:
            raise ServiceError("already_challenged", _("You already challenged %(name)s: wait for the answer.") % {"name": opponent.username}) from None
        _tell(opponent.pk, {"type": "challenge.changed", "news": "received", "name": challenger.username})
    return made


def _answered(challenge_id, user, side):
    """The open challenge ``challenge_id`` of ``user`` (``side``: "challenged" or "challenger"),
    locked for the rest of the transaction; a ServiceError if it is not open (any more)."""
    found = (
        Challenge.objects.select_for_update()
        .filter(_open(), pk=challenge_id, **{side: user})
        .select_related("challenger", "challenged")
        .first()
    )
    if found is None:
        raise ServiceError("challenge_gone", _("This challenge is no longer open."))
    return found


def accept(challenge_id, user):
    """``user`` accepts the challenge made to them: the live match it starts."""
    require_member(user)
    with transaction.atomic():
        found = _answered(challenge_id, user, "challenged")
        check_live_limit(user.pk)
        check_live_limit(found.challenger_id, opponent=True)
        match = start_between(
            found.challenger, user, game=found.game, move_seconds=found.move_seconds,
            bank_seconds=found.bank_seconds, rated=found.rated,
        )
        clocks.grant([match.pk], SHOW_UP_SECONDS)
        found.status, found.match = Challenge.Status.ACCEPTED, match
        found.save(update_fields=["status", "match"])
        _tell(found.challenger_id, {"type": "challenge.accepted", "match": match.pk, "name": user.username})
    return match


def decline(challenge_id, user):
    require_member(user)
    with transaction.atomic():
        found = _answered(challenge_id, user, "challenged")
        found.status = Challenge.Status.DECLINED
        found.save(update_fields=["status"])
        _tell(found.challenger_id, {"type": "challenge.changed", "news": "declined", "name": user.username})


def cancel(challenge_id, user):
    """The challenger takes the challenge back before it is answered."""
    require_member(user)
    with transaction.atomic():
        found = _answered(challenge_id, user, "challenger")
        found.status = Challenge.Status.CANCELLED
        found.save(update_fields=["status"])
        _tell(found.challenged_id, {"type": "challenge.changed", "news": "cancelled", "name": user.username})


def challenge_lists(user):
    """The open challenges the lobby shows ``user``: those made to them, and those they made."""
    if not user.is_authenticated:
        return {"challenges_received": [], "challenges_sent": []}
    rows = Challenge.objects.filter(_open()).select_related("challenger", "challenged").order_by("-created")
    return {
        "challenges_received": list(rows.filter(challenged=user)[:MAX_PENDING * 4]),
        "challenges_sent": list(rows.filter(challenger=user)[:MAX_PENDING]),
    }
