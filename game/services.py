"""The only code that changes a match: load it under a lock, ask its game, save, ring the doorbell.

Every change happens inside one transaction that locks the match row (PostgreSQL) or holds the
database write lock from its first statement (SQLite in IMMEDIATE mode), and finishes with an update
conditioned on the version it read, which must touch exactly one row. The doorbell rings only after
the commit, so a socket that hears it always finds the new rows.
"""
import asyncio
import logging
from functools import partial
from typing import NamedTuple

from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _

from . import asyncdb, games, plainsql, time_controls
from .errors import ServiceError
from .limits import check_creation_rate, check_live_limit, check_open_limit, check_vs_computer_limit, require_member
from .live import clocks, groups, presence
from .models import BotAccount, BotSeat, Match, MatchEvent, hold_account, new_seed

logger = logging.getLogger(__name__)


class Result(NamedTuple):
    version: int
    duplicate: bool


class WhileLoggedIn(NamedTuple):
    """A login a write is conditioned on (``apply_known``): the session, its account and the account's
    password hash as it was when the login was last found to hold (game/live/sessions.py)."""

    session_key: str
    user_id: int
    password: str


def _on_commit(call):
    # robust: the change is committed whatever happens to the doorbell; sockets catch up on the
    # next doorbell or reconnect, so a lost ring is never worth an error for the player.
    transaction.on_commit(call, robust=True)


def _at_once(call):
    """``_on_commit`` for a change committed already (a statement outside any transaction): what
    ``on_commit(robust=True)`` does there, without asking Django's connection, which the event
    loop must not touch."""
    try:
        call()
    except Exception:
        logger.exception("Error calling %s after a command's commit", call)


def _ring_on_commit(match_id, version, ring=None):
    _on_commit(partial(groups.ring_doorbell, match_id, version, ring))


# Sent on the commit of a change to a match with a machine in a seat or a clock running, with the
# match's id: the bot runner (game.programs.runner) settles it then. A signal, so that this module
# need not import the runner, which plays through this module.
settle_requested = Signal()

# Sent on the commit of a command, before its doorbell rings, with the match's id, the ``ring`` it
# rings, ``row``: the match as the command's write left it (``plainsql.write_command``'s ``row``),
# and ``changed``: the clock fields set after that write in the same transaction. The process's
# sockets take them as their read after that ring (game/live/fanout.py); a signal, so that this
# module need not import the sockets' code, which imports it.
applied = Signal()

# Sent on the commit of every change to a match, with the match's id: spectators' win chances are
# estimated then (game.programs.winchances), off this process.
match_changed = Signal()

# Sent inside the transaction that ends a match, under its row lock, once per match: ``match`` is the
# row as the change left it (status FINISHED with its winner, or CANCELLED or ABORTED when called
# off). Whatever must happen exactly once with the end (a rating change, ratings/) happens in a
# receiver, and commits or rolls back with it; slow work belongs in ``transaction.on_commit``.
match_ended = Signal()


def _ended(current, fields):
    """Announce the end of the locked match ``current``, given the ``fields`` the change wrote."""
    for name, value in fields.items():
        setattr(current, name, value)
    match_ended.send(sender=Match, match=current)


def _changed(match, version, game, state, actor=None, restart=True, was_picking=False):
    """What every change sets off, inside its transaction: move clocks now; doorbell and the bot
    runner (bots' moves, timers at the clocks' deadlines) on commit.

    ``match`` is the row as it was before the change; ``state`` the game's state after it (None: the
    match is not being played); ``restart``: whether the change restarts ``actor``'s clock
    (``Game.restarts_clock``); ``was_picking``: whether the state before it was a pick phase.
    """
    _announce(match.pk, version, clocks.arm(match, game, state, actor, restart, was_picking))


def _announce(match_id, version, busy, ring=None, soon=_on_commit):
    """The doorbell (named ``ring``, if given) and the bot runner if ``busy`` (``clocks.arm``), on
    commit (``soon``: ``_at_once`` after a change committed already)."""
    soon(partial(groups.ring_doorbell, match_id, version, ring))
    soon(partial(match_changed.send, sender=Match, match_id=match_id))
    if busy:
        soon(partial(settle_requested.send, sender=Match, match_id=match_id))


def game_named(name):
    """The game ``name`` (``games.get``), or a ServiceError for no game of that name."""
    try:
        return games.get(name)
    except games.UnknownGame:
        message = _("Choose a game: %(games)s.") % {"games": ", ".join(str(g.title) for g in games.every())}
        raise ServiceError("bad_game", message) from None


def _checked_time_control(game, move_seconds, bank_seconds=0):
    chosen = game_named(game)
    time_controls.check(chosen, move_seconds, bank_seconds)
    return chosen


def create_match(
    host, *, private=False, move_seconds=0, bank_seconds=0, level=None, game=games.DEFAULT, rated=False, paced=True
):
    """A new open match of ``game`` (a name) hosted by ``host``. ``move_seconds`` and
    ``bank_seconds``: the time control for the people in it (game/time_controls.py). ``level``: the built-in level that
    joins it at once (game/programs/seats.py), so it counts against the live matches against that
    level, not the open ones. Both limits are checked here, where every match but a rematch is made,
    and the host's live matches too: an open match becomes one more of them when someone joins.
    ``rated``: the result changes both players' ratings; never against a built-in level.
    ``paced``: counted against the host's ``MATCH_CREATION_RATE``; False only for a match the
    server makes on its own schedule (the programs' ladder), which the host did not ask for."""
    require_member(host)
    chosen = _checked_time_control(game, move_seconds, bank_seconds)
    if rated and level is not None:
        raise ServiceError("rated_vs_computer", _("A match against the computer can't be rated."))
    with transaction.atomic():
        hold_account(host.pk)
        if level is not None:
            check_vs_computer_limit(host.pk, level)
        else:
            check_open_limit(host.pk)
        check_live_limit(host.pk)
        if paced:
            check_creation_rate(host.pk)
        return Match.objects.create(
            host=host, private=bool(private), move_seconds=move_seconds, bank_seconds=bank_seconds,
            game=chosen.name, rated=bool(rated),
        )


def start_between(
    first, second, *, game=games.DEFAULT, move_seconds=0, bank_seconds=0, rated=False, program_seats=()
):
    """A live match of ``game`` between two accounts the server paired (quick pairing, tournaments):
    ``first`` hosts (seat 0), ``second`` is the guest. No open-match limit: nobody waits in the lobby.
    ``program_seats``: the seats a program plays over the bot socket, under the contest rules (its
    clock runs from the start, so a program that doesn't show loses by timeout). Nor the limit of
    live matches: a tournament's round starts whatever else its players play (quick pairing checks
    it when the seek is made)."""
    return start_many(
        [(first, second, program_seats)], game=game, move_seconds=move_seconds, bank_seconds=bank_seconds, rated=rated
    )[0]


def start_many(pairings, *, game=games.DEFAULT, move_seconds=0, bank_seconds=0, rated=False):
    """``start_between`` for many pairs at once, in one transaction and a few statements (a crowded
    quick-pairing pool, a tournament round): ``pairings`` is ``[(first, second, program_seats)]``.
    Returns the matches in the same order. Every pair is checked before anything is made."""
    chosen = _checked_time_control(game, move_seconds, bank_seconds)
    accounts = set()
    for first, second, _seats in pairings:
        require_member(first)
        require_member(second)
        if first.pk == second.pk:
            raise ServiceError("own_match", _("You can't join your own match."))
        accounts.update((first.pk, second.pk))
    if rated and BotAccount.objects.filter(user_id__in=accounts).exists():
        raise ServiceError("rated_vs_computer", _("A match against the computer can't be rated."))
    seeds = [new_seed() for _ in pairings]
    states = [chosen.new_match(seed) for seed in seeds]
    with transaction.atomic():
        # Made live at once, both seats taken (as a rematch is): nobody joins a match the server paired.
        matches = Match.objects.bulk_create(
            Match(
                host=first, guest=second, status=Match.Status.LIVE, seed=seed, state=chosen.dump(state),
                move_seconds=move_seconds, bank_seconds=bank_seconds, game=chosen.name, rated=bool(rated),
            )
            for (first, second, _seats), seed, state in zip(pairings, seeds, states)
        )
        # The seats exist before the clocks are armed, so a program's starts with the match.
        BotSeat.objects.bulk_create(
            BotSeat(match=match, seat=seat, level=BotSeat.PROGRAM)
            for match, (_first, _second, seats) in zip(matches, pairings)
            for seat in set(seats)
        )
        for match, state in zip(matches, states):
            _changed(match, 0, chosen, state)
    return matches


def join_match(match, user):
    """``user`` takes the guest seat of the open ``match``, which goes live: the lobby, an invite, a
    program over the bot socket, or the built-in level of a match against the computer."""
    require_member(user)
    with transaction.atomic():
        current = _locked(match.pk)
        if current.host_id == user.pk:
            raise ServiceError("own_match", _("You can't join your own match."))
        if current.status != Match.Status.OPEN:
            raise ServiceError("not_open", _("This match is no longer open."))
        # The account after the match's row, in the order a rematch takes them.
        check_live_limit(user.pk)
        game = games.get(current.game)
        fresh = game.new_match(current.seed, first_mover=current.first_mover, setup=current.setup)
        touched = Match.objects.filter(pk=current.pk, status=Match.Status.OPEN, guest=None).update(
            guest=user, status=Match.Status.LIVE, state=game.dump(fresh), updated=timezone.now()
        )
        if touched != 1:
            raise ServiceError("not_open", _("This match is no longer open."))
        _changed(current, current.version, game, fresh)
        if not BotSeat.objects.filter(match_id=current.pk).exists():
            # The host may be waiting in the lobby: it takes them to the match (a machine joining
            # is the host's own doing, and they are on their way already).
            joined = {"type": "match.joined", "match": current.pk, "guest": user.username}
            transaction.on_commit(partial(groups.tell_user, current.host_id, joined), robust=True)
    current.refresh_from_db()
    return current


def cancel_match(match, user):
    """The host may call a match off while it is in its setup (``Game.in_setup``: in Aquawar until
    both teams of round 1 are locked in)."""
    with transaction.atomic():
        current = _locked(match.pk)
        if current.seat_of(user) != 0:
            raise ServiceError("not_host", _("Only the host can cancel this match."))
        if current.status == Match.Status.LIVE:
            game = games.get(current.game)
            if not game.in_setup(game.load(current.state)):
                raise ServiceError("already_started", str(game.too_late_to_cancel))
        elif current.status != Match.Status.OPEN:
            raise ServiceError("not_cancellable", _("This match is already over."))
        if not _call_off(current):
            raise ServiceError("stale_version", _("The match changed meanwhile; try again."))
    current.refresh_from_db()
    return current


def cancel_abandoned(match_id, quiet_since):
    """Cancel a match nobody has made a move in and no player socket has been on since ``quiet_since``.

    Checked again under the lock, so a pick or a player arriving meanwhile keeps the match alive.
    Returns True if it was cancelled.
    """
    with transaction.atomic():
        current = _locked(match_id)
        # Version 0: no command has been applied, so neither player has moved.
        if current.status != Match.Status.LIVE or current.updated >= quiet_since or current.version != 0:
            return False
        if presence.player_seen_since(match_id, quiet_since):
            return False
        return _call_off(current, "abandoned")


def expire_open(match_id, created_before):
    """Cancel an open match nobody joined, made before ``created_before`` (``end_reason``
    "expired"); checked again under the lock, so a guest arriving meanwhile keeps it. True if so."""
    with transaction.atomic():
        current = _locked(match_id)
        if current.status != Match.Status.OPEN or current.created >= created_before:
            return False
        return _call_off(current, "expired")


ABORTED = Match.Status.ABORTED


def _call_off(current, reason="", status=Match.Status.CANCELLED):
    """Cancel (or abort: ``status``) the locked match ``current``: nobody wins, nothing is added to
    its history."""
    now = timezone.now()
    touched = Match.objects.filter(pk=current.pk, version=current.version, status=current.status).update(
        status=status, end_reason=reason, updated=now, finished=now
    )
    if touched != 1:
        return False
    _changed(current, current.version, None, None)
    _ended(current, {"status": status, "end_reason": reason, "updated": now, "finished": now})
    return True


def apply_command(match_id, user, client_id, base_version, command):
    """Apply one game command for ``user``'s seat; a repeated ``client_id`` is acknowledged again."""
    if not isinstance(command, dict):
        raise ServiceError("bad_command", _("A command is a JSON object."))
    return _change(match_id, user, client_id, command, _command_run(base_version, command))


def apply_known(known, user, client_id, base_version, command, login):
    """``apply_command`` from ``known``, the match as the caller last saw it, in one statement without
    the lock, and only while ``login`` (a ``WhileLoggedIn``) holds; or None, with nothing written,
    for the caller to check the login and take ``apply_command``: whenever ``known`` is not the
    match's row any more, the login has ended, or the change needs the lock (``_change_known``)."""
    if not isinstance(command, dict) or login is None:
        return None
    return _change_known(known, user, client_id or "", command, _command_run(base_version, command), login)


def _command_run(base_version, command):
    def run(game, state, seat, current):
        # A blind command (Aquawar's picks: simultaneous) is not made stale by the other side's
        # landing first; every other command only makes sense against the position it was made on.
        if not game.blind(command) and base_version != current.version:
            raise ServiceError(
                "stale_version",
                _("The match moved on (now at version %(now)s, your command was made at %(then)s).")
                % {"now": current.version, "then": base_version},
            )
        return game.apply(state, seat, command)

    return run


def forfeit_command(reason):
    """How a lost match is stored among the commands: ``{"resign": true}`` for a resignation, with
    the reason for any other loss (a clock, an illegal move of a program). Replays and records read
    it back (game.history.replays)."""
    return {"resign": True} if reason == "resign" else {"resign": True, "reason": reason}


def resign(match, user, client_id=None):
    def run(game, state, seat, current):
        return game.resign(state, seat, "resign")

    return _change(match.pk, user, client_id, forfeit_command("resign"), run)


def forfeit(match_id, user, reason, client_id=None):
    """``user``'s seat loses the whole match for breaking the rules of play between programs.

    ``reason`` is "illegal" (an illegal command or a malformed frame on the bot socket, or a
    contest program's crash or unreadable answer reported by its bridge) or "timeout" (a bridge's
    own clock ran out first); the match_end event carries it, so the opponent is told why.
    """

    def run(game, state, seat, current):
        return game.resign(state, seat, reason)

    return _change(match_id, user, client_id, forfeit_command(reason), run)


def forfeit_overdue(match_id):
    """The seat whose move clock ran out first loses the match ("timeout"); None if none has.

    A person's clock under the match's time control and a program's contest clock count alike.
    Should both seats have run out at the same instant (neither locked in a team before the
    deadline they shared), no side can be the winner: the match is cancelled, with the same reason.
    A person whose clock ran out before their first command of the match loses nothing: the match
    is aborted ("no_first_move").
    The clocks are read under the match lock and cleared by the change itself, so however many
    timers and sweeps (in however many processes) get here, the forfeit happens once.
    """
    with transaction.atomic():
        current = _locked(match_id)
        if current.status != Match.Status.LIVE:
            return None
        overdue = clocks.overdue_seats(current)
        if not overdue:
            return None
        if len(overdue) == 2 and overdue[0][0] == overdue[1][0]:
            return Result(current.version, False) if _call_off(current, "timeout") else None
        seat = overdue[0][1]
        if current.deadlines[seat] is not None and not MatchEvent.objects.filter(match=current, seat=seat).exists():
            # A person who never made a first move (as lichess): nobody played a match that could be lost.
            return Result(current.version, False) if _call_off(current, "no_first_move", ABORTED) else None

        def run(game, state, _seat, _current):
            return game.resign(state, seat, "timeout")

        return _change(match_id, None, None, forfeit_command("timeout"), run, seat=seat)


def _locked(match_id):
    match = plainsql.locked_match(match_id)
    if match is None:
        raise ServiceError("no_match", _("There is no such match."))
    return match


def _run(game, current, seat, run):
    """(whether the state before was a pick phase, the state after, the events) of ``run`` on the
    locked match ``current`` for ``seat``; a ServiceError if the match is not being played or the
    game refuses the command."""
    if current.status == Match.Status.FINISHED:
        raise ServiceError("match_over", _("This match is over."))
    if current.status != Match.Status.LIVE:
        raise ServiceError("not_live", _("This match is not being played."))
    before = game.load(current.state)
    was_picking = game.picking(before)
    try:
        state, events = run(game, before, seat, current)
    except game.IllegalCommand as refused:
        raise ServiceError(refused.code, refused.message, illegal=True) from None
    return was_picking, state, events


def _change(match_id, user, client_id, command, run, seat=None):
    """``seat``, when given, acts instead of ``user``'s (the server enforcing the bot rules)."""
    client_id = client_id or ""
    with transaction.atomic():
        current = _locked(match_id)
        if seat is None:
            seat = current.seat_of(user)
        if seat is None:
            raise ServiceError("not_a_player", _("Only the two players can act in this match."))
        game = games.get(current.game)
        try:
            was_picking, state, events = _run(game, current, seat, run)
        except ServiceError:
            # A command applied before is acknowledged again, whatever the match has become since;
            # only a refused command pays for this read (a repeat is refused or meets the insert's
            # unique constraint below).
            earlier = plainsql.earlier_version(current.pk, seat, client_id) if client_id else None
            if earlier is not None:
                return Result(earlier, True)
            raise
        version = current.version + 1
        now = timezone.now()
        fields = {"version": version, "state": game.dump(state), "updated": now}
        outcome = game.outcome(state)
        if outcome is not None:
            winner, reason = outcome
            fields.update(status=Match.Status.FINISHED, winner=winner, end_reason=reason or "", finished=now)
        event = {"match": current.pk, "version": version, "seat": seat, "client_id": client_id, "command": command,
                 "events": events, "created": now}
        written = plainsql.write_command(current.pk, event, fields, version=current.version, status=Match.Status.LIVE)
        if not written.inserted:
            # The seat made this command before (a repeat the game accepted again): nothing is written.
            return Result(plainsql.earlier_version(current.pk, seat, client_id), True)
        if not written.updated:
            # Only possible if something bypassed the lock; raising rolls the event row back too.
            raise ServiceError("stale_version", _("The match changed meanwhile; try again."))
        restart = game.restarts_clock(command)
        # The seats came with the write (read after the lock was taken); the match's own clock
        # fields, when they change (a timed match), take an update of their own, and the row kept
        # for the sockets takes them too.
        busy, clock_fields = clocks.plan(current, game, state, seat, restart, was_picking, written.bot_seats)
        if clock_fields:
            plainsql.update_match(current.pk, clock_fields)
        ring = groups.new_ring()
        # Before the doorbell: the process's sockets that hear it find the row kept.
        transaction.on_commit(
            partial(applied.send, sender=Match, match_id=current.pk, ring=ring, row=written.row, changed=clock_fields),
            robust=True,
        )
        _announce(current.pk, version, busy, ring)
        if outcome is not None:
            _ended(current, fields)
    return Result(version, False)


class _KnownWrite(NamedTuple):
    """A command from a known row, ready for its one statement (``_planned``)."""

    version: int
    event: dict
    fields: dict


def _change_known(known, user, client_id, command, run, login):
    """``_change`` from ``known`` without a lock or a transaction, while ``login`` holds
    (``plainsql.write_command_if_current``: one round trip to the database instead of four, and no
    cache read for the login before it), or None to take the locked path: off
    PostgreSQL, inside a caller's transaction, when ``known`` is not the match's row any more (the
    write checks), and for whatever needs the lock's transaction (``_planned``)."""
    if not plainsql.writes_without_lock():
        return None
    planned = _planned(known, user, client_id, command, run)
    if planned is None:
        return None
    try:
        row = plainsql.write_command_if_current(*_if_current(known, planned, login))
    except IntegrityError:
        # The seat made this command before: the locked path finds its version.
        return None
    return _known_written(known.pk, planned.version, row)


async def apply_known_from_loop(known, user, client_id, base_version, command, login):
    """``apply_known`` on the event loop, with nothing on the database thread: the same work, its
    statement sent on the loop's own connection (``asyncdb``), and what its commit sets off run on
    the loop (the rings are the loop's tasks). None for the caller to check the login and take
    ``apply_command``, as from ``apply_known``; ``asyncdb.Unavailable`` when the loop's connection
    gave no answer (the statement may have been committed): the caller takes ``apply_known`` and
    ``apply_command`` on the database thread, whose answer says (a repeated client id). Touches
    neither the ORM nor a connection of Django's: the loop must not block on them."""
    if not isinstance(command, dict) or login is None or not asyncdb.usable():
        return None
    planned = _planned(known, user, client_id or "", command, _command_run(base_version, command))
    if planned is None:
        return None
    # Shielded: a socket that goes away while its move is written (its handler cancelled) must not
    # leave the move committed but unrung, nor the connection in the middle of a statement.
    task = asyncio.get_running_loop().create_task(_write_from_loop(known, planned, login))
    _writing.add(task)
    task.add_done_callback(_writing.discard)
    return await asyncio.shield(task)


# The writes of ``apply_known_from_loop`` under way, so that the loop keeps them whatever their callers do.
_writing = set()


async def _write_from_loop(known, planned, login):
    try:
        row = await plainsql.write_command_if_current_from_loop(*_if_current(known, planned, login))
    except IntegrityError:
        return None
    return _known_written(known.pk, planned.version, row)


def _planned(known, user, client_id, command, run):
    """The command of ``user``'s seat from ``known`` (a ``_KnownWrite``), or None for whatever needs
    the lock's transaction: a refusal (the locked path says it, or finds the command made before),
    the end of the match (``match_ended``'s receivers run under the lock), a clock or a machine's
    seat (their rows change with the match's). Pure: no database, no cache."""
    if known.status != Match.Status.LIVE:
        return None
    seat = known.seat_of(user)
    if seat is None:
        return None
    game = games.get(known.game)
    try:
        # ``known`` is shared with the process's sockets: read only (``Game.load`` shares nothing).
        was_picking, state, events = _run(game, known, seat, run)
    except ServiceError:
        return None
    if game.outcome(state) is not None:
        return None
    busy, clock_fields = clocks.plan(known, game, state, seat, game.restarts_clock(command), was_picking, bot_seats=[])
    if busy or clock_fields:
        return None
    version = known.version + 1
    now = timezone.now()
    fields = {"version": version, "state": game.dump(state), "updated": now}
    event = {"match": known.pk, "version": version, "seat": seat, "client_id": client_id, "command": command,
             "events": events, "created": now}
    return _KnownWrite(version, event, fields)


def _if_current(known, planned, login):
    """``plainsql.write_command_if_current``'s arguments for ``planned`` from ``known``."""
    return known.pk, planned.event, planned.fields, known.version, Match.Status.LIVE, known.updated, login


def _known_written(match_id, version, row):
    """The result of a known row's write that returned ``row`` (None: nothing written), after what
    its commit sets off, at once: the statement ran outside any transaction, so these run in the
    order the locked path's commit runs them."""
    if row is None:
        return None
    ring = groups.new_ring()
    _at_once(partial(applied.send, sender=Match, match_id=match_id, ring=ring, row=row, changed={}))
    _announce(match_id, version, False, ring, soon=_at_once)
    return Result(version, False)


def rung_again(match_id, version):
    """Ring for ``version``, which a command made before and may have left unrung: a write from the
    event loop that got no answer (``asyncdb.Unavailable``) and was then found committed. A ring too
    many costs its hearers a read."""
    _announce(match_id, version, False, soon=_at_once)
