"""Fairness at the edges of a match, as lichess does it: ending without a result, and claiming one.

- A casual match against a built-in level may be aborted by its person at any time: the computer
  does not mind, and nobody's record changes (``abort``, end_reason "aborted").
- A person whose opponent (a person) has had no socket on the match for longer than the match's
  clock allows (``claim_after``) may claim the win (the opponent loses, "abandon") or abort the
  match instead (end_reason "opponent_left").
- A clock that runs out before its person's first command aborts the match (services.forfeit_overdue).
  Without a clock the same holds for a claim: an opponent who left before their first command
  cannot be beaten, only aborted (``claim_win`` refuses; the page offers the abort alone).

An aborted match has status "aborted": no winner, no loser, no rating change. Every decision is made
under the match's lock, like every other change (game/services.py).
"""
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from . import offloop, time_controls
from .models import Match, MatchEvent, Presence
from .programs.models import BotSeat
from .services import ABORTED, Result, ServiceError, _call_off, _change, _locked, forfeit_command
from .live import presence
from .live.frames import epoch_ms


def claim_after(control):
    """How long an opponent must have been away before the other player may claim, under the time
    control ``control`` (game/time_controls.py); None under correspondence, where being away for
    days is how the game is played: only its clock decides."""
    if control.correspondence:
        return None
    # Under a bank the increment is no measure of a player's absence.
    return timedelta(seconds=(not control.bank and control.seconds) or settings.CLAIM_AFTER_SECONDS)


def machines(match_id):
    """{seat: level} of the match's seats played by machines (level "" for a program)."""
    offloop.need_database()
    return dict(BotSeat.objects.filter(match_id=match_id).values_list("seat", "level"))


def away_since(match_id, seat):
    """When ``seat``'s player was last on the match (a socket's heartbeat or its leaving); None
    while they have a socket on it. Someone never seen there counts from the match's last change."""
    offloop.need_database()
    if presence.players(match_id)[seat]:
        return None
    seen = Presence.objects.filter(match_id=match_id, seat=seat).aggregate(last=Max("seen"))["last"]
    return seen or Match.objects.filter(pk=match_id).values_list("updated", flat=True).first()


def opponent(match_id, seat, status, control, players, levels=None):
    """What the status line tells ``seat`` of their opponent, and what they may do about them:
    ``connected``; ``computer`` (a built-in level: the match may be aborted); ``claim_at`` (epoch
    ms from which the win may be claimed from an opponent who is away). ``players``: which seats
    have a socket open; ``control``: the match's ``TimeControl``; ``levels``: ``machines(match_id)``
    if the caller read it with the match (None: read here). None for a spectator or a match not
    being played."""
    if seat is None or players is None or status not in ("live", "finished"):
        return None
    other = 1 - seat
    info = {
        "match": match_id, "connected": players[other], "computer": False,
        "claim_at": None, "claimable": False, "winnable": False,
    }
    if status != "live":
        return info
    level = (machines(match_id) if levels is None else levels).get(other)
    if level is not None:
        # A machine is always at its seat, whatever sockets it has.
        info.update(connected=True, computer=level != BotSeat.PROGRAM)
    elif not players[other] and claim_after(control) is not None:
        since = away_since(match_id, other)
        if since is not None:
            at = since + claim_after(control)
            info.update(claim_at=epoch_ms(at), claimable=at <= timezone.now(), winnable=moved(match_id, other))
    return info


def _claimable(current, seat):
    """Refuse unless ``seat``'s opponent is a person who has been away for ``claim_after``."""
    other = 1 - seat
    if other in machines(current.pk):
        raise ServiceError("not_claimable", _("The computer never leaves: abort or resign instead."))
    since, wait = away_since(current.pk, other), claim_after(time_controls.of(current))
    if since is None or wait is None or since + wait > timezone.now():
        raise ServiceError(
            "not_claimable", _("Your opponent is still here, or has not been away long enough: keep playing.")
        )


def moved(match_id, seat):
    """Whether ``seat`` made any command of the match (a forfeit by the server counts too)."""
    offloop.need_database()
    return MatchEvent.objects.filter(match_id=match_id, seat=seat).exists()


def _player_seat(current, user):
    seat = current.seat_of(user)
    if seat is None:
        raise ServiceError("not_a_player", _("Only the two players can act in this match."))
    if current.status != Match.Status.LIVE:
        raise ServiceError("not_live", _("This match is not being played."))
    return seat


def abort(match_id, user):
    """End the match without a result: against a built-in level at any time; against a person
    only once they have been away for ``claim_after``."""
    with transaction.atomic():
        current = _locked(match_id)
        seat = _player_seat(current, user)
        level = machines(current.pk).get(1 - seat)
        if level is None:
            _claimable(current, seat)
            reason = "opponent_left"
        elif level == BotSeat.PROGRAM:
            raise ServiceError("not_abortable", _("A match against a program can only be resigned."))
        else:
            reason = "aborted"
        if not _call_off(current, reason, ABORTED):
            raise ServiceError("stale_version", _("The match changed meanwhile; try again."))
    return Result(current.version, False)


def claim_win(match_id, user):
    """Win the match from an opponent who has been away for ``claim_after`` (they lose, "abandon")."""
    with transaction.atomic():
        current = _locked(match_id)
        seat = _player_seat(current, user)
        _claimable(current, seat)
        other = 1 - seat
        if not moved(current.pk, other):
            # As a clock's running out before the first command aborts (services.forfeit_overdue):
            # nobody played a match that could be won, with or without a clock.
            raise ServiceError(
                "no_first_move",
                _("Your opponent left before making a move: there is no win to claim. Abort the match instead."),
            )

        def run(game, state, _seat, _current):
            return game.resign(state, other, "abandon")

        return _change(match_id, None, None, forfeit_command("abandon"), run, seat=other)


def call_off_broken_bot(match_id):
    """Abort the live ``match_id`` because its built-in bot failed to decide twice ("bot_error"):
    the site's fault, so nobody wins and nothing is counted."""
    with transaction.atomic():
        current = _locked(match_id)
        if current.status == Match.Status.LIVE:
            _call_off(current, "bot_error", ABORTED)
