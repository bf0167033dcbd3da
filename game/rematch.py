"""Rematches: after a finished match either player offers one; the other accepts or declines.

Accepting starts a new live match of the same game between the same two accounts, in the same
seats, under the same time control, with the first mover swapped (``Game.first_mover``). The
computer always accepts at once: against a built-in level an offer starts the rematch, with the
same level in the same seat. Each match has at most one rematch (``Match.rematch_of`` is one to one), and the offer, the answer and the new match are one
transaction under the old match's lock, so two players accepting at once (or from two tabs) start
it once.
"""
from django.db import transaction
from django.utils.translation import gettext as _

from . import games, offloop
from .limits import check_creation_rate, check_live_limit, check_vs_computer_limit
from .models import Match, hold_account, new_seed
from .programs.models import BotSeat
from .services import ServiceError, _changed, _locked, _ring_on_commit

OFFERED, ACCEPTED, DECLINED = "offered", "accepted", "declined"
ANSWERS = ("offer", "accept", "decline")


def info(match):
    """What the payload says of the rematch: None, or status, who offered, and the new match's id."""
    if not match.rematch_status:
        return None
    offloop.need_database()
    new = Match.objects.filter(rematch_of=match.pk).values_list("pk", flat=True).first()
    return {"status": match.rematch_status, "offered_by": match.rematch_offer, "match": new}


def answer(match_id, user, action):
    """``action``: "offer" (accepts if the opponent already offered), "accept" or "decline".

    Returns the old match, refreshed; its rematch's id is ``info(match)["match"]`` once accepted.
    """
    if action not in ANSWERS:
        raise ServiceError("bad_field", _("Offer, accept or decline a rematch."))
    with transaction.atomic():
        current = _locked(match_id)
        seat = current.seat_of(user)
        if seat is None:
            raise ServiceError("not_a_player", _("Only the two players can act in this match."))
        if current.status != Match.Status.FINISHED or current.imported:
            raise ServiceError("not_finished", _("A rematch can only follow a finished match."))
        if current.tutorial:
            # Its bot plays only the tutorial's script; a new tutorial starts from its own page.
            raise ServiceError("tutorial_rematch", _("A tutorial has no rematch: start the tutorial again instead."))
        status, offer = current.rematch_status, current.rematch_offer
        if status in (ACCEPTED, DECLINED):
            raise ServiceError("rematch_closed", _("This match's rematch has already been answered."))
        if status == OFFERED and offer == seat:
            if action == "offer":
                return current
            raise ServiceError("own_offer", _("Wait for your opponent to answer your offer."))
        if status != OFFERED and action != "offer":
            raise ServiceError("no_offer", _("Nobody has offered a rematch."))
        if action == "decline":
            fields = {"rematch_status": DECLINED}
        elif status == OFFERED:
            fields = {"rematch_status": ACCEPTED}
            _start(current, user.pk)
        elif _computer_in(current, 1 - seat):
            # The computer accepts at once.
            fields = {"rematch_status": ACCEPTED, "rematch_offer": seat}
            _start(current, user.pk)
        else:
            fields = {"rematch_status": OFFERED, "rematch_offer": seat}
        Match.objects.filter(pk=current.pk).update(**fields)
        # The doorbell carries no news of its own: each socket re-reads the match and sees the offer.
        _ring_on_commit(current.pk, current.version)
    current.refresh_from_db()
    return current


def _computer_in(match, seat):
    return match.bot_seats.filter(seat=seat).exclude(level=BotSeat.PROGRAM).exists()


def _start(old, actor_id):
    """The rematch of the locked, finished ``old``, accepted by ``actor_id``: one more live match
    for both players, checked against their limits first."""
    computers = list(old.bot_seats.exclude(level=BotSeat.PROGRAM))
    for bot in computers:
        # A rematch is one more live match against that level for the person in the other seat.
        person = old.guest_id if bot.seat == 0 else old.host_id
        hold_account(person)
        check_vs_computer_limit(person, bot.level)
    # In the order of their ids: two rematches between the same two at once hold them alike.
    for player in sorted((old.host_id, old.guest_id)):
        check_live_limit(player, opponent=player != actor_id)
    # Whoever made it happen (against the computer: at once) made one more match.
    check_creation_rate(actor_id)
    game = games.get(old.game)
    first = 1 - game.first_mover(game.load(old.state))
    seed = new_seed()
    fresh = game.new_match(seed, first_mover=first)
    new = Match.objects.create(
        game=old.game,
        host_id=old.host_id,
        guest_id=old.guest_id,
        private=old.private,
        status=Match.Status.LIVE,
        seed=seed,
        state=game.dump(fresh),
        first_mover=first,
        rematch_of=old,
        move_seconds=old.move_seconds,
        bank_seconds=old.bank_seconds,
        rated=old.rated,
    )
    # The built-in levels play on; a program seat is not carried over: its program takes the new
    # match's seat itself (or the person plays it).
    BotSeat.objects.bulk_create(BotSeat(match=new, seat=bot.seat, level=bot.level) for bot in computers)
    _changed(new, 0, game, fresh)
    return new
