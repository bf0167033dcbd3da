"""Move clocks, kept in the database so they survive a restart.

A seat has one of two clocks. A person's runs under the match's time control (``Match.move_seconds``)
and lives on the match row (``Match.deadline_0`` / ``deadline_1``), so every view of the match can
show it without another query. A machine's lives on its ``BotSeat``: a program's is the contest's
allowance (``Game.program_seconds``: in Aquawar 3 s), and a built-in bot's is when the sweep takes
over a move its runner missed. Who owes a move is the game's answer (``Game.to_move``), and whether a
command starts a new clock period too (``Game.restarts_clock``: per decision or per turn).

Under a bank (``Match.bank_seconds``) a person's deadline is when their bank runs out, and what is
left of it is kept on the row (``Match.bank_0`` / ``bank_1``) while it does not run; a pick phase
(``Game.picking``) has its own allowance instead (game/time_controls.py).

``arm`` runs inside the transaction of every change (``game.services``), so a clock and the position
it belongs to are always committed together. Nothing here imports the services: they import us.
"""
from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.utils import timezone

from .. import plainsql, time_controls
from ..programs.models import BotSeat
from ..models import Match

# A built-in bot moves as soon as the change that made it due commits; only if that was lost (a
# restart) does the sweep take over, this long after the move fell due.
DEFAULT_TAKEOVER_SECONDS = 10.0


def program_seconds(game, state):
    """A program's allowance for what it owes in ``state``: the game's contest rule, unless
    ``settings.BOT_MOVE_SECONDS`` says otherwise (tests, benchmarks)."""
    override = getattr(settings, "BOT_MOVE_SECONDS", None)
    return float(game.program_seconds(state) if override is None else override)


def takeover_seconds():
    return float(getattr(settings, "BOT_TAKEOVER_SECONDS", DEFAULT_TAKEOVER_SECONDS))


def next_deadline(deadline, seat, due, actor, now, seconds, restart=True):
    """A seat's clock after a change by ``actor``, given its clock before (``deadline``).

    It starts when the seat falls due, and starts afresh after a command of its own that restarts
    it (``restart``: in Aquawar every pick, assertion and action gets the full time; where a clock
    counts a whole turn, the commands within a turn share one period). The other side's move does
    not restart it: that is not a decision of this seat. ``seconds`` None: the seat has no clock.
    """
    if seconds is None or seat not in due:
        return None
    if deadline is None or (seat == actor and restart):
        return now + timedelta(seconds=seconds)
    return deadline


class Period(NamedTuple):
    """What a change did to one person's clock: the facts ``next_bank`` needs."""

    due: bool  # the seat owes a decision after the change
    picking: bool  # ... in a pick phase (the state after the change)
    was_picking: bool  # the state before the change was a pick phase
    acted: bool  # the change was this seat's own command
    restart: bool  # ... one that ends a clock period (``Game.restarts_clock``)


def next_bank(deadline, bank, period, now, control, pick_seconds):
    """(deadline, bank left) of a person under a bank ``control`` after a change (``period``).

    A bank period runs while the seat owes decisions outside a pick phase; when it ends (the seat's
    own decision in a game that times each decision, or the seat no longer owing any), what is left
    goes back to the bank, plus the increment if the seat's own command ended it. A pick period has
    its own allowance and leaves the bank as it was. ``bank`` None: the whole bank, untouched yet.
    """
    bank = timedelta(seconds=control.bank) if bank is None else bank
    if deadline is not None:
        ends = not period.due or period.picking != period.was_picking or (period.acted and period.restart)
        if ends:
            if not period.was_picking:
                bank = max(deadline - now, timedelta(0))
                if period.acted:
                    bank += timedelta(seconds=control.seconds)
            deadline = None
    if not period.due:
        return None, bank
    if deadline is None:
        deadline = now + (timedelta(seconds=pick_seconds) if period.picking else bank)
    return deadline, bank


def arm(match, game, state, actor=None, restart=True, was_picking=False):
    """Set or clear every clock of ``match`` after a change by ``actor``.

    ``match`` is the row as it was before the change (its deadlines are the clocks that ran until
    now); ``state`` is the ``game``'s state after it (None: the match is not being played);
    ``was_picking``: whether the state before it was a pick phase. True if the bot runner has
    anything to do with the match: it has a bot seat, or a person's clock is running.
    """
    busy, changed = plan(match, game, state, actor, restart, was_picking)
    if changed:
        Match.objects.filter(pk=match.pk).update(**changed)
    return busy


def plan(match, game, state, actor=None, restart=True, was_picking=False, bot_seats=None):
    """``arm``, but the match row's own clock fields are returned, not written: (``arm``'s answer,
    {field: value} for the caller's update of the row, which must happen in the same transaction).
    The machines' clocks (``BotSeat`` rows) are written here. ``bot_seats``: the match's
    ``BotSeat`` rows, if the caller read them in a statement that started after it took the match's
    lock (a command's write, ``plainsql.write_command``): an older read could miss a seat added
    meanwhile."""
    if bot_seats is None:
        bot_seats = plainsql.bot_seats(match.pk)
    due = game.to_move(state) if state is not None else ()
    now = timezone.now()
    for bot_seat in bot_seats:
        if bot_seat.seat not in due:
            allowance = None
        else:
            allowance = program_seconds(game, state) if bot_seat.is_program else takeover_seconds()
        deadline = next_deadline(bot_seat.deadline, bot_seat.seat, due, actor, now, allowance, restart)
        if deadline != bot_seat.deadline:
            BotSeat.objects.filter(pk=bot_seat.pk).update(deadline=deadline)
    machines = {bot_seat.seat for bot_seat in bot_seats}
    control = time_controls.of(match)
    picking = state is not None and game.picking(state)
    pick_seconds = time_controls.pick_allowance(game, control) if picking else None
    people, banks = [], list(match.banks)
    for seat, before in enumerate(match.deadlines):
        if not control.timed or seat in machines:
            people.append(None)
        elif control.bank:
            period = Period(seat in due, picking, was_picking, seat == actor, restart)
            deadline, banks[seat] = next_bank(before, banks[seat], period, now, control, pick_seconds)
            people.append(deadline)
        else:
            seconds = pick_seconds if picking else control.seconds
            # A pick period and a move period are not one period: the allowance differs.
            if picking != was_picking:
                before = None
            people.append(next_deadline(before, seat, due, actor, now, seconds, restart))
    changed = {}
    if people != match.deadlines:
        changed.update(deadline_0=people[0], deadline_1=people[1])
    if control.bank and banks != match.banks:
        changed.update(bank_0=banks[0], bank_1=banks[1])
    return bool(bot_seats) or any(people), changed


def grant(match_ids, seconds):
    """Give every clock running in the fresh matches ``match_ids`` at least ``seconds`` from now.

    For matches the server started for players who were not waiting on them (a tournament's round,
    the ladder): they must first hear of them — a program through its socket, a person on a page —
    and a round's matches are started in one transaction, so the first ones' clocks would otherwise
    run while the last ones are made. Call it in the transaction that started them; the runner
    times the clocks when it commits.
    """
    until = timezone.now() + timedelta(seconds=seconds)
    BotSeat.objects.filter(match_id__in=match_ids, level=BotSeat.PROGRAM, deadline__lt=until).update(deadline=until)
    for field in ("deadline_0", "deadline_1"):
        Match.objects.filter(pk__in=match_ids, **{f"{field}__lt": until}).update(**{field: until})


def overdue_seats(match, now=None):
    """[(deadline, seat)] of every seat whose clock has run out, earliest first: people's and
    programs' (a built-in bot's is never held against it). Call it under the match lock."""
    now = now or timezone.now()
    overdue = [(deadline, seat) for seat, deadline in enumerate(match.deadlines) if deadline and deadline <= now]
    programs = BotSeat.objects.filter(match_id=match.pk, level=BotSeat.PROGRAM, deadline__lte=now)
    overdue += programs.values_list("deadline", "seat")
    return sorted(overdue)
