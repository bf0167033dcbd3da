"""How much one account may have going at once, checked where a seat is taken or a match is made.

Each check runs in the transaction that seats the person, with their account held
(``hold_account``), so two requests at once cannot both pass it. How many matches an account may
make per window of time (``MATCH_CREATION_RATE``) is counted in the cache instead, as sign-ups
are: Redis in production, shared by every process, and the counts expire by themselves.
"""
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .errors import ServiceError
from .windows import admit
from .programs import dispatch
from .models import Match, hold_account, program_marked

# Enough to wait in public and invite a friend or two; more would only crowd the lobby.
MAX_OPEN_MATCHES = 5
# Matches against the computer cost the bot workers thinking time; a few at once is plenty for a
# person. For a person it counts every level together: each such match has at most one decision in
# flight, so it caps the thinking one account can ask of the workers at once (a program's account,
# which the ladder pairs with every level, has it per level).
MAX_LIVE_VS_COMPUTER = 5
# Live matches a person may be seated in at once: each one joined starts clocks, and someone waits
# on the other side. Programs (tournaments, the ladder) play as many as they are paired in.
MAX_LIVE_MATCHES = 10


def require_member(user):
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required", _("Log in to play."))


def check_vs_computer_limit(user_id, level):
    """Refuse one more live match of ``user_id`` against the computer beyond the limit (a person:
    all levels together; a program's account: against ``level``), or any such match of a person's
    while no bot worker is up; call it with the account held (``hold_account``), where such a match
    is made."""
    playing = Q(host_id=user_id) | Q(guest_id=user_id)
    program = get_user_model().objects.filter(program_marked(), pk=user_id).exists()
    if not program and not dispatch.available():
        # No bot worker is up: the computer would never move, and the person would wait for nothing.
        raise ServiceError("computer_unavailable", _("The computer is unavailable right now: try again in a minute."))
    # A built-in level's seat has its level's name; a program's seat has none.
    against = Q(bot_seats__level=level) if program else Q(bot_seats__level__gt="")
    live = Match.objects.filter(playing, against, status=Match.Status.LIVE).distinct().count()
    if live >= MAX_LIVE_VS_COMPUTER:
        if program:
            message = _("You already play %(count)d matches against this level.")
        else:
            message = _("You already play %(count)d matches against the computer.")
        raise ServiceError("too_many", message % {"count": live})


def check_live_limit(user_id, opponent=False):
    """Refuse seating the person ``user_id`` in one more live match beyond ``MAX_LIVE_MATCHES``
    (``opponent``: they are the other player of whoever asked), in the transaction that seats them.
    Holds the person's account (``hold_account``) for the rest of it. A program's account is neither
    refused nor held: every match against a built-in level seats one, and must not wait for another."""
    if get_user_model().objects.filter(program_marked(), pk=user_id).exists():
        return
    hold_account(user_id)
    live = Match.objects.filter(Q(host_id=user_id) | Q(guest_id=user_id), status=Match.Status.LIVE).count()
    if live >= MAX_LIVE_MATCHES:
        if opponent:
            message = _("Your opponent already plays %(count)d matches at once.")
        else:
            message = _("You already play %(count)d matches at once: finish one first.")
        raise ServiceError("too_many_live", message % {"count": live})


def check_open_limit(user_id):
    """Refuse one more open match hosted by ``user_id`` beyond ``MAX_OPEN_MATCHES``, with the account held."""
    if Match.objects.filter(host_id=user_id, status=Match.Status.OPEN).count() >= MAX_OPEN_MATCHES:
        message = _("You already have %(count)d open matches: cancel one first.")
        raise ServiceError("too_many_open", message % {"count": MAX_OPEN_MATCHES})


def check_creation_rate(user_id):
    """Count one more match made for ``user_id`` (by the lobby, against the computer, by a program's
    ``create``/``play``, by a rematch, by a quick-pairing seek); refuse it beyond
    ``MATCH_CREATION_RATE``. Call it after the other checks, so that a match refused for another
    reason costs no place."""
    if admit(f"matches-made:{user_id}", settings.MATCH_CREATION_RATE):
        return
    limit, seconds = settings.MATCH_CREATION_RATE
    minutes = max(1, round(seconds / 60))
    message = ngettext(
        "You started too many matches just now (at most %(count)d in %(minutes)d minute): wait a little, then try again.",
        "You started too many matches just now (at most %(count)d in %(minutes)d minutes): wait a little, then try again.",
        minutes,
    ) % {"count": limit, "minutes": minutes}
    raise ServiceError("too_many_new", message)
