"""Putting machines in seats: matches against a built-in level, and seats a program plays.

A built-in level plays under its own account (``BotAccount``), so its seat is an ordinary seat to
everything else (``Match.seat_of``, lists, profiles). A program plays under its owner's account; its
``BotSeat`` (level "") is what subjects the seat to the contest rules (clock, forfeits).
"""
from functools import partial

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import games, services
from ..live import clocks
from ..models import Match
from ..services import ServiceError
from .models import BotAccount, BotSeat
from .runner import wake


def bot_account(level):
    """The account ``level`` plays under, made on first use (inactive, no password: nobody logs in)."""
    account = BotAccount.objects.select_related("user").filter(level=level).first()
    if account is not None:
        return account.user
    users = get_user_model().objects
    name, suffix = f"{level}-bot", 1
    while users.filter(username=name).exists():
        # Someone signed up under the name first; a bot is known by its BotAccount, not its name.
        suffix += 1
        name = f"{level}-bot-{suffix}"
    try:
        with transaction.atomic():
            user = users.create_user(name, is_active=False)
            BotAccount.objects.create(level=level, user=user)
            return user
    except IntegrityError:
        # Another process made it at the same moment.
        return BotAccount.objects.select_related("user").get(level=level).user


def start_vs_computer(
    user, level, *, program=False, move_seconds=0, bank_seconds=0, game=games.DEFAULT, rated=False
):
    """A live match of ``game`` (a name) of ``user`` (seat 0) against the built-in ``level`` (seat 1).

    ``program``: seat 0 is played by a program over the bot socket, under the contest rules.
    ``move_seconds``, ``bank_seconds``: the time control for ``user`` when they play in person.
    ``rated``: only for a program (the programs' ladder): the level is a fixed reference, and only
    the program's rating moves (docs/ratings.md). A person's match against the computer is never rated.
    """
    levels = services.game_named(game).levels
    if level not in levels:
        raise ServiceError("bad_level", _("Choose a level: %(levels)s.") % {"levels": ", ".join(levels)})
    if rated and not program:
        raise ServiceError("rated_vs_computer", _("A match against the computer can't be rated."))
    bot = bot_account(level)
    with transaction.atomic():
        # Only the ladder makes a rated match against a level, on its own schedule: not the host's pace.
        match = services.create_match(
            user, move_seconds=move_seconds, bank_seconds=bank_seconds, level=level, game=game, paced=not rated
        )
        if rated:
            match.rated = True
            Match.objects.filter(pk=match.pk).update(rated=True)
        # The seats exist before the match goes live, so joining starts their clocks.
        BotSeat.objects.create(match=match, seat=1, level=level)
        if program:
            BotSeat.objects.create(match=match, seat=0, level=BotSeat.PROGRAM)
        return services.join_match(match, bot)


def start_tutorial(user, game):
    """``game``'s tutorial for ``user`` (seat 0): a live match from the tutorial's fixed start
    against its scripted bot, unrated like every match against the computer, without a clock, and
    private: a newcomer's first steps are nobody's show (their own history lists it)."""
    tutorial = services.game_named(game).tutorial
    if tutorial is None:
        raise ServiceError("no_tutorial", _("This game has no tutorial yet."))
    bot = bot_account(tutorial.level)
    with transaction.atomic():
        match = services.create_match(user, private=True, level=tutorial.level, game=game)
        start = {"seed": tutorial.seed, "first_mover": tutorial.first_mover, "setup": tutorial.setup, "tutorial": True}
        Match.objects.filter(pk=match.pk).update(**start)
        BotSeat.objects.create(match=match, seat=1, level=tutorial.level)
        return services.join_match(match, bot)


def create_for_program(user, *, private=False, game=games.DEFAULT):
    """An open match of ``game`` hosted by ``user`` whose seat a program plays."""
    with transaction.atomic():
        match = services.create_match(user, private=private, game=game)
        BotSeat.objects.create(match=match, seat=0, level=BotSeat.PROGRAM)
    return match


def join_for_program(match, user):
    """``user`` joins ``match`` as the guest, with a program in the seat."""
    try:
        with transaction.atomic():
            BotSeat.objects.create(match=match, seat=1, level=BotSeat.PROGRAM)
            return services.join_match(match, user)
    except IntegrityError:
        # The guest seat already has a machine in it (a match against the computer).
        raise ServiceError("not_open", _("This match is no longer open.")) from None


def cancel(match_id, user):
    """The host calls its match off, as in the lobby (``services.cancel_match``: while it is open or
    in its setup); acknowledged like a command."""
    match = services.cancel_match(Match(pk=match_id), user)
    return services.Result(match.version, False)


def claim_seat(match_id, user):
    """A program takes over ``user``'s seat in a match they already play (a reconnect, say).

    From now on the seat is under the contest rules; its clock starts at once if it is to move.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        seat = match.seat_of(user) if match is not None else None
        if seat is None:
            raise ServiceError("not_a_player", _("Only the two players can act in this match."))
        BotSeat.objects.get_or_create(match=match, seat=seat, defaults={"level": BotSeat.PROGRAM})
        # A command written from a row read before this seat existed must not apply: the
        # lock-free write checks ``updated`` (plainsql.write_command_if_current).
        Match.objects.filter(pk=match.pk).update(updated=timezone.now())
        if match.status == Match.Status.LIVE:
            game = games.get(match.game)
            clocks.arm(match, game, game.load(match.state))
            transaction.on_commit(partial(wake, match.pk), robust=True)
    return match
