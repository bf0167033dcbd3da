"""The unattended part: tournaments' rounds and the programs' ladder, started by the server itself.

Work is set off two ways. Every bot-runner sweep (game.programs.runner: each server process's clock
thread, and ``manage.py run_bots``) sends ``swept``, and ``run_due`` then starts the tournaments whose
start time has come, closes the rounds whose matches have all ended, and pairs the ladder. And the end
of a tournament or ladder match (``services.match_ended``) asks for the same at once, after its commit,
so the next round does not wait for a sweep.

Exactly once across processes: a tournament is advanced only under its row's lock (taken with
SKIP LOCKED on PostgreSQL: a process that finds it busy leaves it to the one holding it, or to the
next sweep), and every decision — has it started, is the round over, which round is next — is read
again under that lock.
A round's pairings are unique per table and per player besides. The ladder is paired under the locks
of all its entries for the game, so two processes never pair the same programs at once.
"""
import logging
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections, transaction
from django.db.models import Max, Q
from django.utils import timezone

from game import games, services
from game.live import clocks, groups, presence
from game.models import Match
from game.programs import runner as bot_runner
from game.programs import socket as bot_socket
from game.programs.models import BotConnection
from game.programs.seats import bot_account, start_vs_computer
from game.services import ServiceError
from ratings.api import ratings_of

from . import ladder, pairing, tables
from .models import Entry, LadderEntry, LadderMatch, Pairing, Tournament

logger = logging.getLogger(__name__)

# Ladder matches a program plays at once; a built-in level plays at most this many per game too.
LADDER_MATCHES_AT_ONCE = 2
BUILTIN_MATCHES_AT_ONCE = 4
# Seconds a player has for the first move of a match the server started for them: to hear of it
# (``SHOW_UP_SECONDS`` overrides it). Their own clock, if longer, counts instead.
DEFAULT_SHOW_UP_SECONDS = 30
# A round that failed to start is tried again after a minute, then 2, 4 and 8; the fifth failure in a
# row (some 15 minutes after the first) ends the tournament. Every sweep of every process would
# otherwise try it again, and a refusal by the services (a time control the game dropped, say)
# would be repeated for ever.
FIRST_RETRY = timedelta(minutes=1)
START_TRIES = 5


def show_up_seconds():
    return float(getattr(settings, "SHOW_UP_SECONDS", DEFAULT_SHOW_UP_SECONDS))


def _tell(match, user_ids):
    """After the commit, tell these programs' sockets of the match the server started for them."""
    for user_id in user_ids:
        transaction.on_commit(partial(bot_socket.assign, user_id, match.pk), robust=True)


def _tell_people(match, tournament, number, first, second):
    """After the commit, take each person on a page with the lobby's socket (the lobby, this
    tournament's page) to their match, as the lobby does when someone joins a match they host."""
    for player, opponent in ((first, second), (second, first)):
        news = {
            "type": "match.started", "match": match.pk, "opponent": opponent.username,
            "tournament": tournament.name, "round": number,
        }
        transaction.on_commit(partial(groups.tell_user, player.pk, news), robust=True)


def _started(match, user_ids):
    """What every match the server starts gets: time to show up, and word to the programs."""
    clocks.grant([match.pk], show_up_seconds())
    _tell(match, user_ids)
    return match


def on_sweep(sender, **kwargs):
    run_due()


def on_match_ended(sender, match, **kwargs):
    """Inside the transaction (and the lock) that ended ``match``: only look, then act after the commit."""
    tournament_id = Pairing.objects.filter(match_id=match.pk).values_list("tournament_id", flat=True).first()
    if tournament_id is not None:
        transaction.on_commit(partial(bot_runner.run_soon, _job, advance_after_end, tournament_id), robust=True)
    elif LadderMatch.objects.filter(match_id=match.pk).exists():
        transaction.on_commit(partial(bot_runner.run_soon, _job, pair_ladder, match.game), robust=True)


def _job(work, *args):
    try:
        work(*args)
    except Exception:
        logger.exception("Tournament work %s%r failed", work.__name__, args)
    finally:
        # Worker threads outlive the job; never leave a connection open behind one.
        connections.close_all()


def run_due():
    """Start, advance or finish every tournament that has work, then pair every game's ladder."""
    now = timezone.now()
    due = Q(status=Tournament.Status.REGISTRATION, starts__lte=now) | Q(status=Tournament.Status.RUNNING)
    waiting = Q(retry_at__gt=now)
    for tournament_id in Tournament.objects.filter(due).exclude(waiting).values_list("pk", flat=True):
        try:
            advance(tournament_id)
        except Exception:
            logger.exception("Advancing tournament %s failed", tournament_id)
    for name in games.NAMES:
        try:
            pair_ladder(name)
        except Exception:
            logger.exception("Pairing the %s ladder failed", name)


def advance_after_end(tournament_id):
    """``advance`` after one of the tournament's matches ended. It waits for the tournament's lock:
    when a round's last two matches end at once, the advance of the first may still hold the lock,
    having looked before the second's end was committed; skipping would leave the next round to
    the next sweep."""
    return advance(tournament_id, wait=True)


def advance(tournament_id, wait=False):
    """Do whatever the tournament is due: start it, record its round's results, pair the next
    round, or write its final table. Returns the tournament's round afterwards (None if busy:
    another advance holds the tournament's lock, and ``wait`` is off, as for the sweeps).

    Starting a round can fail (the services refuse its matches, say a time control the game no
    longer offers, or the database fails): then nothing of that start is kept, the failure is
    counted and the next try waits (``retry_delay``); after ``START_TRIES`` failures in a row the
    tournament ends ("start_failed") instead of being retried by every sweep for ever."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(skip_locked=not wait).filter(pk=tournament_id).first()
        if tournament is None:
            return None
        now = timezone.now()
        if tournament.retry_at is not None and tournament.retry_at > now:
            return tournament.round
        if tournament.status == Tournament.Status.REGISTRATION and tournament.starts <= now:
            work = _start
        elif tournament.status == Tournament.Status.RUNNING and _round_over(tournament):
            # The results just recorded stay whatever happens to the next round.
            work = _next_round
        else:
            return tournament.round
        try:
            with transaction.atomic():
                work(tournament)
        except Exception:
            logger.exception("Starting round %s of tournament %s failed", tournament.round + 1, tournament_id)
            _start_failed(tournament)
        else:
            if tournament.start_failures:
                Tournament.objects.filter(pk=tournament.pk).update(start_failures=0, retry_at=None)
        return tournament.round


def retry_delay(failures):
    """How long the runner waits after ``failures`` failed starts in a row: doubling each time."""
    return FIRST_RETRY * 2 ** (failures - 1)


def _start_failed(tournament):
    # The failed start may have changed the object (status, rounds, round) but none of the rows.
    tournament.refresh_from_db()
    failures = tournament.start_failures + 1
    if failures >= START_TRIES:
        if tournament.status == Tournament.Status.RUNNING:
            _finish(tournament, "start_failed")
        else:
            _end(tournament, Tournament.Status.CANCELLED, "start_failed")
        Tournament.objects.filter(pk=tournament.pk).update(start_failures=failures, retry_at=None)
        return
    retry_at = timezone.now() + retry_delay(failures)
    Tournament.objects.filter(pk=tournament.pk).update(start_failures=failures, retry_at=retry_at)
    tournament.start_failures, tournament.retry_at = failures, retry_at


def _start(tournament):
    entries = list(tournament.entries.all())
    if len(entries) < 2:
        _end(tournament, Tournament.Status.CANCELLED, "too_few")
        return
    standing = ratings_of([e.player_id for e in entries], tournament.game)
    for entry in entries:
        entry.rating = standing[entry.player_id].rating
    Entry.objects.bulk_update(entries, ["rating"])
    tournament.status = Tournament.Status.RUNNING
    if tournament.kind == Tournament.Kind.ROUND_ROBIN:
        tournament.rounds = pairing.round_robin_rounds(len(entries))
    _next_round(tournament)


def _round_over(tournament):
    """Record the points of the current round's matches that have ended; True once all have."""
    waiting = False
    undecided = Pairing.objects.filter(tournament=tournament, round=tournament.round, first_points=None)
    for row in undecided.select_related("match"):
        points = tables.points_of(row.match)
        if points is None:
            waiting = True
            continue
        Pairing.objects.filter(pk=row.pk).update(first_points=points[0], second_points=points[1])
    return not waiting


def _next_round(tournament):
    number = tournament.round + 1
    if number > tournament.rounds:
        _finish(tournament)
        return
    entries = list(tournament.entries.select_related("player"))
    ratings = {e.player_id: e.rating or 0.0 for e in entries}
    if tournament.kind == Tournament.Kind.ROUND_ROBIN:
        seeded = sorted(ratings, key=lambda p: (-ratings[p], p))
        pairs = pairing.round_robin(seeded, number - 1)
    else:
        try:
            pairs = pairing.swiss(ratings, tables.played_of(Pairing.objects.filter(tournament=tournament)))
        except pairing.NoPairing:
            _finish(tournament, "no_pairing")
            return
    players = {e.player_id: e.player for e in entries}
    seats = (0, 1) if tournament.for_programs else ()
    tables_ = [pair for pair in pairs if pair[1] is not None]
    matches = services.start_many(
        [(players[first], players[second], seats) for first, second in tables_],
        game=tournament.game, move_seconds=tournament.move_seconds, bank_seconds=tournament.bank_seconds,
        rated=tournament.rated,
    )
    clocks.grant([match.pk for match in matches], show_up_seconds())
    started = dict(zip(tables_, matches))
    rows = []
    for table, (first, second) in enumerate(pairs, start=1):
        row = Pairing(tournament=tournament, round=number, table=table, first_id=first, second_id=second)
        if second is None:
            row.first_points = 1.0
        else:
            row.match = started[(first, second)]
            if tournament.for_programs:
                _tell(row.match, (first, second))
            else:
                _tell_people(row.match, tournament, number, players[first], players[second])
        rows.append(row)
    Pairing.objects.bulk_create(rows)
    tournament.round = number
    Tournament.objects.filter(pk=tournament.pk).update(
        status=tournament.status, rounds=tournament.rounds, round=number
    )


def _finish(tournament, reason=""):
    entries = list(tournament.entries.all())
    for row, entry in tables.standings(tournament, entries=entries):
        entry.final_rank, entry.final_score, entry.final_tiebreak = row.rank, row.score, row.tiebreak
    Entry.objects.bulk_update(entries, ["final_rank", "final_score", "final_tiebreak"])
    _end(tournament, Tournament.Status.FINISHED, reason)


def _end(tournament, status, reason):
    tournament.status = status
    Tournament.objects.filter(pk=tournament.pk).update(
        status=status, end_reason=reason, finished=timezone.now(), rounds=tournament.rounds, round=tournament.round
    )


def connected_programs(user_ids):
    """The ids among ``user_ids`` with a bot socket open now (in any process)."""
    fresh = timezone.now() - presence.STALE_AFTER
    return set(BotConnection.objects.filter(user_id__in=user_ids, seen__gte=fresh).values_list("user_id", flat=True))


def live_ladder_counts(game):
    """{user id: live ladder matches} in ``game``."""
    counts = {}
    live = Match.objects.filter(ladder_match__isnull=False, game=game, status=Match.Status.LIVE)
    for host, guest in live.values_list("host_id", "guest_id"):
        for user_id in (host, guest):
            counts[user_id] = counts.get(user_id, 0) + 1
    return counts


def pair_ladder(game):
    """Start ladder matches for every connected ladder program with room for one more, as
    ``ladder.choose`` pairs them (closest ratings, no rematch within the cooldown, a built-in level
    for a program left over long enough). Returns the matches started."""
    started = []
    with transaction.atomic():
        entries = list(LadderEntry.objects.select_for_update().filter(game=game).order_by("pk"))
        connected = connected_programs([e.player_id for e in entries])
        counts = live_ladder_counts(game)
        waiting = [
            e.player_id for e in entries
            if e.player_id in connected and counts.get(e.player_id, 0) < LADDER_MATCHES_AT_ONCE
        ]
        if not waiting:
            return started
        levels = {bot_account(level).pk: level for level in games.get(game).levels}
        ratings = {k: v.rating for k, v in ratings_of([*waiting, *levels], game).items()}
        room = {level: BUILTIN_MATCHES_AT_ONCE - counts.get(level, 0) for level in levels}
        recent = _recent_opponents(game, connected)
        level_after = timezone.now() - timedelta(seconds=ladder.LEVEL_AFTER_SECONDS)
        waited = {player for player, since in _free_since(game, entries, waiting).items() if since <= level_after}
        for player, opponent in ladder.choose(waiting, ratings, recent, room, connected=connected, waited=waited):
            try:
                if opponent in levels:
                    # Rated: the level is a fixed reference, only the program's rating moves.
                    user = _users(player)[0]
                    match = start_vs_computer(user, levels[opponent], program=True, game=game, rated=True)
                    started.append(_ladder_match(match, (player,)))
                else:
                    match = services.start_between(*_users(player, opponent), game=game, rated=True, program_seats=(0, 1))
                    started.append(_ladder_match(match, (player, opponent)))
            except ServiceError:
                continue
    return started


def _ladder_match(match, programs):
    LadderMatch.objects.create(match=match, game=match.game)
    return _started(match, programs)


def _users(*user_ids):
    found = get_user_model().objects.in_bulk(user_ids)
    return [found[i] for i in user_ids]


def _free_since(game, entries, waiting):
    """{waiting program: since when it has had room for a match: the end of its latest ladder match,
    or when it joined the ladder}."""
    since = {entry.player_id: entry.joined for entry in entries if entry.player_id in waiting}
    ended = Match.objects.filter(ladder_match__isnull=False, game=game, finished__isnull=False).order_by()
    for seat in ("host_id", "guest_id"):
        rows = ended.filter(**{f"{seat}__in": waiting}).values(seat).annotate(last=Max("finished"))
        for user_id, last in rows.values_list(seat, "last"):
            since[user_id] = max(since[user_id], last)
    return since


def _recent_opponents(game, user_ids):
    """{user id: the opponents of its latest ladder matches (live ones included), latest first}:
    as many as the rematch cooldown looks at, one small query per program (on the index of host and
    guest), however long ago each last played."""
    recent = {}
    ladder_matches = Match.objects.filter(ladder_match__isnull=False, game=game)
    for user_id in user_ids:
        rows = ladder_matches.filter(Q(host_id=user_id) | Q(guest_id=user_id)).order_by("-pk")
        recent[user_id] = [
            guest if host == user_id else host
            for host, guest in rows.values_list("host_id", "guest_id")[: ladder.REMATCH_COOLDOWN]
        ]
    return recent
