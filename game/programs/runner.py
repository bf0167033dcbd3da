"""Built-in bots at the table and the move clocks: who moves when, off the event loop.

Every change to a match with a bot seat or a running clock wakes ``settle(match_id)`` once it
commits (``services.settle_requested``): in production in a worker process (``manage.py run_bots``,
fed through the channel layer by ``dispatch``), so no process that serves pages or sockets thinks
for a bot; in the embedded setup in a worker thread of the one process, so no socket waits.
``settle`` plays a built-in seat's moves through ``services.apply_command``, the very path a
person's commands take, and sets a timer at each deadline — a program's, or a person's under the
match's time control — when it forfeits the match through ``services.forfeit_overdue`` if the seat
has not moved.

Nothing lives only in memory: clocks are in the database (``BotSeat.deadline``,
``Match.deadline_0`` / ``deadline_1``; see ``game.live.clocks``). So after a restart the same work is
found again by ``sweep`` — run every ``BOT_SWEEP_SECONDS`` by each server process once it has served
a socket, and by ``manage.py run_bots`` — and by ``wake``, which runs whenever a socket opens on a
match (``game.routing``). Two runners on one match are harmless: a bot's command id is
``bot:<version>`` and commands other than blind ones (Aquawar's picks) must match the locked
version, so a move is made once; a repeated pick is refused by the game; a forfeit is decided under
the match lock. And a decision is thought about once: the runner that starts it holds a lease in the
shared cache (``BOT_LEASE_SECONDS``) that the others respect. The runner knows no game: it asks the match's (``game.games``) who is to move and
what its level would play.
"""
import asyncio
import heapq
import logging
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, connections
from django.db.models import Q
from django.dispatch import Signal
from django.utils import timezone

from .. import fairness, games, services
from ..live import clocks
from ..models import Match, MatchEvent
from . import dispatch
from .models import BotSeat

logger = logging.getLogger(__name__)

DEFAULT_SWEEP_SECONDS = 5.0
# One bot turn is an assertion and an action, a new round one more pick: a few moves per wake,
# bounded so that a bug can never spin a worker forever.
MAX_MOVES_PER_WAKE = 8
# A timer fires this long after a deadline, so the deadline has surely passed when it is checked.
TIMER_SLACK = 0.05

_executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="aquawar-bots")
# The event loop of the server in this process, once it has served a socket (see ``serve_from``).
_loop = None
# True in a ``run_bots`` worker process, which times clocks and sweeps even when bots think elsewhere.
_worker = False
_busy_lock = threading.Lock()
# Matches being settled now -> whether another wake came in meanwhile (then settle again after).
_busy = {}


def serve_from(loop, worker=False):
    """Run bot work as the server's own sync work, in threads that belong to ``loop``.

    A doorbell rung from such a thread is sent on ``loop`` (asgiref hands it back there); rung from
    a bare thread, it would run on a loop of its own, and the in-memory channel layer, which is not
    thread-safe, might not wake the sockets waiting on the server's loop.

    ``worker``: the caller is a ``run_bots`` worker process. The process that settles matches also
    times their clocks and sweeps for work left over from before a restart: a worker always, a
    process serving the site only when its bots think inline.
    """
    global _loop, _worker
    _loop = loop
    _worker = _worker or worker
    if _worker or not dispatch.external():
        _clock.start()


def release_connections():
    """What a job in a worker thread does with its database connections when it ends.

    A ``run_bots`` worker keeps them as a request thread keeps its own (``close_old_connections``:
    closed once broken or older than ``CONN_MAX_AGE``): it runs a job for every change of every live
    match (a win chance, a settle), and a new connection per job cost it a fifth of its CPU and
    PostgreSQL a new backend each time (docs/performance.md, issue #26). A server's own worker
    threads (bots thinking inline, tests) close theirs: nothing else would, and they outlive the
    requests that started the jobs."""
    if _worker:
        close_old_connections()
    else:
        connections.close_all()


def _submit(job, *args):
    loop = _loop
    if loop is not None and not loop.is_closed():
        try:
            asyncio.run_coroutine_threadsafe(sync_to_async(job, thread_sensitive=False)(*args), loop)
            return
        except RuntimeError:
            pass  # the loop closed meanwhile (a server shutting down, a finished test)
    _executor.submit(job, *args)


def run_soon(job, *args):
    """Run ``job(*args)`` in a worker thread, as the bots' work runs (the doorbells it rings reach
    this process's sockets). For other unattended work started by a change's commit (tournaments)."""
    _submit(job, *args)


def wake(match_id):
    """Settle the match soon: in a worker process (``BOT_WORKERS = "external"``), else in a worker thread."""
    if dispatch.external():
        dispatch.request_settle(match_id)
    else:
        _submit(settle_job, match_id)


def settle_job(match_id):
    # One settle per match at a time in this process: a job that finds another running asks it to
    # go round once more instead. Registered when the job starts, not when it is submitted, so a
    # job that never runs (its loop closed first) cannot leave the match marked busy for good.
    with _busy_lock:
        if match_id in _busy:
            _busy[match_id] = True
            return
        _busy[match_id] = False
    try:
        while True:
            try:
                settle(match_id)
            except Exception:
                logger.exception("Settling bot seats of match %s failed", match_id)
            with _busy_lock:
                if not _busy[match_id]:
                    del _busy[match_id]
                    return
                _busy[match_id] = False
    finally:
        release_connections()


def settle(match_id):
    """Make every move a built-in seat owes, forfeit a seat whose clock ran out, time the rest."""
    for _ in range(MAX_MOVES_PER_WAKE):
        read_at = time.monotonic()
        match = Match.objects.select_related("host", "guest").filter(pk=match_id).first()
        if match is None or match.status != Match.Status.LIVE:
            _clock.time(match_id, [], read_at)
            return
        bot_seats = list(BotSeat.objects.filter(match_id=match_id))
        game = games.get(match.game)
        state = game.load(match.state)
        due = game.to_move(state)
        builtin = [b for b in bot_seats if not b.is_program and b.seat in due]
        if builtin:
            if not play_builtin(match, state, builtin[0]):
                return  # another runner is thinking about this decision, and settles after it
            continue
        now = timezone.now()
        running = [b.deadline for b in bot_seats if b.is_program and b.deadline is not None]
        running += [deadline for deadline in match.deadlines if deadline is not None]
        if any(deadline <= now for deadline in running):
            services.forfeit_overdue(match_id)
            continue
        _clock.time(match_id, [deadline.timestamp() + TIMER_SLACK for deadline in running], read_at)
        return


def lease_seconds():
    """How long a runner may think about a decision before another may take it over: less than the
    takeover time, so a decision lost with its worker is asked for again at the takeover sweep."""
    default = max(clocks.takeover_seconds() - 1.0, 1.0)
    return float(getattr(settings, "BOT_LEASE_SECONDS", default))


def play_builtin(match, state, bot_seat):
    """One command of a built-in seat, chosen from that seat's projection only. False if another
    runner holds the decision's lease (it is thinking about it now), else True."""
    seat = bot_seat.seat
    # Atomic in the shared cache: of two workers woken for one decision, one thinks.
    if not cache.add(f"bot-decision:{match.pk}:{match.version}:{seat}", True, timeout=lease_seconds()):
        return False
    game = games.get(match.game)
    user = match.host if seat == 0 else match.guest
    seen = game.view(state, seat)
    history = MatchEvent.objects.filter(match_id=match.pk, version__lte=match.version).order_by("version")
    events = game.project([e for row in history.values_list("events", flat=True) for e in row], seat)
    legal = game.legal_commands(state, seat)
    # Fixed by the match's seed and position: a replayed decision is the same decision.
    seed = (match.seed * 1_000_003 + match.version * 2 + seat) % 2**63
    # Every game has a "random" level: a uniformly random legal command.
    for level in (bot_seat.level, "random"):
        command = think(game, level, seen, events, legal, seat, seed, match.pk)
        if command is None:
            # A bug of ours, twice over: the person must not wait for a move that never comes.
            fairness.call_off_broken_bot(match.pk)
            return True
        try:
            services.apply_command(match.pk, user, f"bot:{match.version}", match.version, command)
            return True
        except services.ServiceError as error:
            if not error.illegal:
                return True  # the match moved on meanwhile; the caller reads it again
            # Another runner's pick landed first, or a bot bug: either way a person's match must not
            # stall, so a uniformly random legal move is tried (and refused too in the first case).
            logger.warning("Bot %r's command was refused in match %s: %s", level, match.pk, error.message)
    return True


def think(game, level, seen, events, legal, seat, seed, match_id):
    """``decide``, asked once more (with the next seed) if the level throws; None if it throws again."""
    for attempt in range(2):
        try:
            return decide(game, level, seen, events, legal, seat, seed + attempt)
        except Exception:
            logger.exception("Bot %r failed to decide in match %s (attempt %d of 2)", level, match_id, attempt + 1)
    return None


def decide(game, level, player_view, projected_events, legal, player, seed):
    """``game.choose`` with the level's options (``BOT_LEVEL_OPTIONS``, e.g. a smaller expert budget
    in tests). Receives what a player is shown and nothing else."""
    if game.tutorial is not None and level == game.tutorial.level:
        return game.tutorial.choose(player_view, projected_events, legal, player, random.Random(seed))
    options = getattr(settings, "BOT_LEVEL_OPTIONS", {}).get(game.name, {}).get(level, {})
    return game.choose(level, player_view, projected_events, legal, player, random.Random(seed), **options)


def on_settle_requested(sender, match_id, **kwargs):
    """Receiver of ``services.settle_requested`` (connected in ``GameConfig.ready``)."""
    wake(match_id)


# Sent after every sweep, whoever ran it (a server process's clock thread, ``manage.py run_bots``):
# the place for other periodic unattended work (tournaments' rounds, the programs' ladder), which
# this module must not import, as it plays through the services that this module serves.
swept = Signal()


def sweep():
    """Settle every live match with a clock that ran out (a bot seat's or a person's); returns their
    ids. Then ``swept`` is sent (a receiver's failure is logged, never stops the sweep)."""
    now = timezone.now()
    machines = BotSeat.objects.filter(deadline__lte=now, match__status=Match.Status.LIVE)
    people = Match.objects.filter(Q(deadline_0__lte=now) | Q(deadline_1__lte=now), status=Match.Status.LIVE)
    match_ids = sorted(set(machines.values_list("match_id", flat=True)) | set(people.values_list("pk", flat=True)))
    for match_id in match_ids:
        settle(match_id)
    for receiver, failure in swept.send_robust(sender=Match):
        if failure is not None:
            logger.error("Periodic work %r failed", receiver, exc_info=failure)
    return match_ids


def _sweep_job():
    try:
        sweep()
    except Exception:
        logger.exception("Sweeping bot seats failed")
    finally:
        release_connections()


def sweep_seconds():
    return float(getattr(settings, "BOT_SWEEP_SECONDS", DEFAULT_SWEEP_SECONDS))


class Clock:
    """One thread per process: wakes matches at their clocks' deadlines, and sweeps now and then.

    Started when the process first serves a socket (or sets a timer), not at import, so management
    commands and plain imports run no extra thread. Timers are only a shortcut: a lost one (a
    restart) is made up by the sweep.
    """

    def __init__(self):
        # A heap of (when, match id). An entry no longer in ``_wanted`` (its clock was replaced, by
        # a move or a settle elsewhere) is dropped when it comes up instead of waking the match.
        self._timers = []
        self._wanted = {}
        # When the deadlines behind each match's timers were read (time.monotonic()).
        self._read_at = {}
        self._condition = threading.Condition()
        self._thread = None
        self._next_sweep = 0.0

    def start(self):
        with self._condition:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="aquawar-bot-clock", daemon=True)
                self._thread.start()

    def time(self, match_id, whens, read_at):
        """Wake ``match_id`` at each of ``whens`` (POSIX timestamps) instead of any time set before.

        Every move sets a new deadline: replacing the match's timers keeps the superseded ones from
        waking it (and from piling up over a long match). ``read_at``: when the deadlines were read.
        Two settles of a match may run at once in a process (a sweep's and a wake's): one that read
        before the other changes nothing, or it would bring back a deadline the other replaced.
        """
        whens = set(whens)
        with self._condition:
            if read_at < self._read_at.get(match_id, read_at):
                return
            self._read_at.pop(match_id, None)
            before = self._wanted.pop(match_id, set())
            if whens:
                self._wanted[match_id] = whens
                self._read_at[match_id] = read_at
                for when in whens - before:
                    heapq.heappush(self._timers, (when, match_id))
                self._condition.notify()
        if whens:
            self.start()

    def clear(self):
        """Forget every timer (a test's matches are gone with its database)."""
        with self._condition:
            self._timers.clear()
            self._wanted.clear()
            self._read_at.clear()

    def _run(self):
        while True:
            with self._condition:
                now = time.time()
                due = []
                while self._timers and self._timers[0][0] <= now:
                    when, match_id = heapq.heappop(self._timers)
                    wanted = self._wanted.get(match_id, set())
                    if when in wanted:
                        wanted.discard(when)
                        if not wanted:
                            del self._wanted[match_id]
                            del self._read_at[match_id]
                        due.append(match_id)
                interval = sweep_seconds()
                # Only while this process serves sockets: ``run_bots`` sweeps by itself, and a
                # process whose server loop is gone (shut down, or a finished test) has no business.
                serving = _loop is not None and not _loop.is_closed()
                sweeping = serving and interval > 0 and now >= self._next_sweep
                if sweeping:
                    self._next_sweep = now + interval
                if not due and not sweeping:
                    waits = [self._timers[0][0] - now] if self._timers else []
                    # Not sweeping: look again now and then (a server may start, the setting change).
                    waits.append(self._next_sweep - now if serving and interval > 0 else 1.0)
                    self._condition.wait(max(min(waits), 0.01))
                    continue
            for match_id in dict.fromkeys(due):
                wake(match_id)
            if sweeping:
                _submit(_sweep_job)


_clock = Clock()
