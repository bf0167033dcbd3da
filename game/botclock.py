"""Move clocks of bot seats, kept in the database so they survive a restart.

``arm`` runs inside the transaction of every change (``game.services``), so a clock and the position
it belongs to are always committed together. Nothing here imports the services: they import us.
"""
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from .botmodels import BotSeat

# The contest rule: a program has this long for each pick, assertion and action.
DEFAULT_MOVE_SECONDS = 3.0
# A built-in bot moves as soon as the change that made it due commits; only if that was lost (a
# restart) does the sweep take over, this long after the move fell due.
DEFAULT_TAKEOVER_SECONDS = 10.0


def move_seconds():
    return float(getattr(settings, "BOT_MOVE_SECONDS", DEFAULT_MOVE_SECONDS))


def takeover_seconds():
    return float(getattr(settings, "BOT_TAKEOVER_SECONDS", DEFAULT_TAKEOVER_SECONDS))


def seats_to_move(seen):
    """The seats that owe a command, from ``engine.view(state, "all")`` (None: nobody, not live)."""
    if seen is None or seen["phase"] == "over":
        return set()
    if seen["phase"] == "pick":
        # Both sides pick at once, blind: whoever has not locked a team in owes one.
        return {seat for seat in (0, 1) if not seen["picked"][seat]}
    return {seen["to_move"]}


def arm(match_id, seen, actor=None):
    """Set or clear every bot seat's clock after a change by ``actor``; True if the match has any.

    A seat's clock starts when it falls due and restarts after each of its own commands (every
    pick, assertion and action gets the full time). The other side's pick does not restart it:
    that is not a decision of this seat.
    """
    bot_seats = list(BotSeat.objects.filter(match_id=match_id))
    due = seats_to_move(seen)
    now = timezone.now()
    for bot_seat in bot_seats:
        deadline = bot_seat.deadline
        if bot_seat.seat not in due:
            deadline = None
        elif deadline is None or bot_seat.seat == actor:
            allowance = move_seconds() if bot_seat.is_program else takeover_seconds()
            deadline = now + timedelta(seconds=allowance)
        if deadline != bot_seat.deadline:
            BotSeat.objects.filter(pk=bot_seat.pk).update(deadline=deadline)
    return bool(bot_seats)


def overdue_program_seat(match_id, now=None):
    """The program seat of the match whose clock has run out, or None. Call it under the match lock."""
    now = now or timezone.now()
    overdue = BotSeat.objects.filter(match_id=match_id, level=BotSeat.PROGRAM, deadline__lte=now)
    return overdue.order_by("deadline").values_list("seat", flat=True).first()
