"""Creating tournaments, registering and withdrawing, joining and leaving the ladder.

Each checks its limits under the account's lock (``hold_account``) or the tournament's, so two
requests at once cannot both take the last place. The rounds themselves are the runner's
(tournaments/runner.py).
"""
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from game import time_controls
from game.models import hold_account
from game.services import ServiceError, game_named
from ratings.api import is_program

from .models import Entry, LadderEntry, Tournament

MAX_PLAYERS = 64
MAX_ROUNDS = 20
# Tournaments an account may have organized that have not ended yet.
MAX_OPEN_TOURNAMENTS = 3
# Tournaments a player may be registered in that have not ended yet.
MAX_ENTRIES = 10
# How far ahead a tournament may be announced.
MAX_LEAD = timedelta(days=30)
MAX_NAME = 80

OPEN = (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING)


def _member(user):
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required", _("Log in to take part."))


def create(organizer, *, name, game, kind, for_programs, rated, move_seconds, starts, rounds, bank_seconds=0, enter=False):
    """A new tournament, open for registration until ``starts``. Round robin ignores ``rounds``
    (everyone meets everyone: the runner sets it at the start). ``enter``: the organiser registers
    as a player at once, checked as any registration; if that is refused, nothing is made."""
    _member(organizer)
    chosen = game_named(game)
    name = (name or "").strip()
    if not name or len(name) > MAX_NAME:
        raise ServiceError("bad_name", _("Give the tournament a name (up to %(count)d characters).") % {"count": MAX_NAME})
    if kind not in Tournament.Kind.values:
        raise ServiceError("bad_kind", _("Choose round robin or Swiss."))
    now = timezone.now()
    if starts is None or starts <= now or starts > now + MAX_LEAD:
        raise ServiceError("bad_start", _("Choose a start time in the next 30 days."))
    if kind == Tournament.Kind.SWISS and (isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS):
        raise ServiceError("bad_rounds", _("A Swiss tournament has 1 to %(count)d rounds.") % {"count": MAX_ROUNDS})
    if for_programs:
        # Programs play under the contest's clock, whatever the form said.
        move_seconds = bank_seconds = 0
    elif not time_controls.check(chosen, move_seconds, bank_seconds).timed:
        # Without a clock an absent player would hold up the round for good.
        raise ServiceError("bad_time_control", _("A tournament for people needs a time control."))
    with transaction.atomic():
        hold_account(organizer.pk)
        if Tournament.objects.filter(organizer=organizer, status__in=OPEN).count() >= MAX_OPEN_TOURNAMENTS:
            message = _("You already organize %(count)d tournaments that have not ended.")
            raise ServiceError("too_many_tournaments", message % {"count": MAX_OPEN_TOURNAMENTS})
        made = Tournament.objects.create(
            name=name,
            game=chosen.name,
            kind=kind,
            for_programs=bool(for_programs),
            rated=bool(rated),
            move_seconds=move_seconds,
            bank_seconds=bank_seconds,
            starts=starts,
            rounds=rounds if kind == Tournament.Kind.SWISS else 0,
            organizer=organizer,
        )
        if enter:
            register(made.pk, organizer)
    return made


def may_enter(user, player):
    """Whether ``user`` may register or withdraw ``player``: only themselves (a program account
    registers itself, logged in as the program or over the bot socket)."""
    return getattr(user, "pk", None) is not None and user.pk == player.pk


def _locked(tournament_id):
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise ServiceError("no_tournament", _("There is no such tournament."))
    return tournament


def _still_open(tournament):
    if tournament.status != Tournament.Status.REGISTRATION or tournament.starts <= timezone.now():
        raise ServiceError("registration_closed", _("Registration for this tournament is closed."))


def register(tournament_id, user, player=None):
    """``player`` (by default ``user``) enters the tournament."""
    _member(user)
    player = player or user
    if not may_enter(user, player):
        raise ServiceError("not_yours", _("You can only register yourself or your own program."))
    with transaction.atomic():
        hold_account(player.pk)
        tournament = _locked(tournament_id)
        _still_open(tournament)
        if tournament.for_programs and not is_program(player):
            raise ServiceError("not_a_program", _("This tournament is for programs: mark the account as a program first."))
        if not tournament.for_programs and is_program(player):
            raise ServiceError("not_a_person", _("This tournament is for people; programs play in their own."))
        if Entry.objects.filter(tournament=tournament, player=player).exists():
            raise ServiceError("already_registered", _("You are already registered."))
        if Entry.objects.filter(tournament=tournament).count() >= MAX_PLAYERS:
            raise ServiceError("tournament_full", _("This tournament is full (%(count)d players).") % {"count": MAX_PLAYERS})
        if Entry.objects.filter(player=player, tournament__status__in=OPEN).count() >= MAX_ENTRIES:
            message = _("You are already registered in %(count)d tournaments that have not ended.")
            raise ServiceError("too_many_entries", message % {"count": MAX_ENTRIES})
        try:
            with transaction.atomic():
                return Entry.objects.create(tournament=tournament, player=player)
        except IntegrityError:
            raise ServiceError("already_registered", _("You are already registered.")) from None


def withdraw(tournament_id, user, player=None):
    """``player`` leaves the tournament; only before it starts."""
    _member(user)
    player = player or user
    if not may_enter(user, player):
        raise ServiceError("not_yours", _("You can only register yourself or your own program."))
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _still_open(tournament)
        deleted, _count = Entry.objects.filter(tournament=tournament, player=player).delete()
        if not deleted:
            raise ServiceError("not_registered", _("You are not registered in this tournament."))


def cancel(tournament_id, user):
    """The organizer calls the tournament off before it starts."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.organizer_id != getattr(user, "pk", None):
            raise ServiceError("not_organizer", _("Only the organizer can cancel this tournament."))
        _still_open(tournament)
        Tournament.objects.filter(pk=tournament.pk).update(
            status=Tournament.Status.CANCELLED, end_reason="organizer", finished=timezone.now()
        )


def join_ladder(user, game):
    """``user``, a program's account, joins ``game``'s ladder (again: nothing changes)."""
    _member(user)
    chosen = game_named(game)
    if not is_program(user):
        raise ServiceError("not_a_program", _("The ladder is for programs: mark the account as a program first."))
    LadderEntry.objects.get_or_create(player=user, game=chosen.name)


def leave_ladder(user, game):
    """Off the ladder: no new ladder matches (those being played go on)."""
    deleted, _count = LadderEntry.objects.filter(player_id=getattr(user, "pk", None), game=game).delete()
    return bool(deleted)
