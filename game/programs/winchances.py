"""Live win chances for spectators (docs/win-chances.md): estimated off the web processes, once per
match version, kept in the shared cache, and announced to the match's sockets.

Every committed change to a live match asks for an estimate (``request``, on ``services.
match_changed``): with ``BOT_WORKERS = "external"`` a bot worker gets ``{"type": "win_chance",
"match_id": N}`` on the ``bot-work`` channel (``dispatch``), else a worker thread of this process
runs it (``runner.run_soon``), as the bots' work runs. ``estimate`` reads the match, asks its game
for the chance from the spectator's view alone (``Game.win_chance``), stores it under the match's id
and version (an estimate already stored is never made again: the job is idempotent, and a lost
message costs only that version's number) and rings the match's spectators' group
(``groups.watchers_group``) with ``win_chance.ready``, which carries the number: the estimate is no
secret from spectators, and only their sockets use it, with no cache read (a player's socket ignores
the ring, as ``frames.win_chance`` answers nothing to a player of the live match; a ring without the
number, from an older worker, has each spectator's socket read it from the cache). The number is also kept with the command that made the version (``MatchEvent.win_chance``),
whether anyone watches or not.

Versions that went by before a worker came to them (two bots answering each other within
milliseconds) are filled in once the match is over: the job then replays the match from its seed
and estimates every version still without a number (``complete``), so the summary's chart and the
replay's bar have every step (``series``), and no page ever estimates anything.
"""
import logging

from django.conf import settings
from django.core.cache import cache

from .. import games
from ..history.replays import start, steps
from ..live import frames, groups
from ..models import Match, MatchEvent
from . import dispatch, runner

logger = logging.getLogger(__name__)

# Long enough for any live match's newest version; a version long past is never asked for again.
CACHE_SECONDS = 6 * 3600


def request(match_id):
    """Have the match's current version estimated soon, never in the caller's thread."""
    if dispatch.external():
        dispatch.request_win_chance(match_id)
    else:
        runner.run_soon(estimate_job, match_id)


def on_match_changed(sender, match_id, **kwargs):
    """Receiver of ``services.match_changed`` (connected in ``GameConfig.ready``)."""
    if settings.WIN_CHANCES:
        request(match_id)


def estimate_job(match_id):
    try:
        estimate(match_id)
    except Exception:
        logger.exception("Estimating the win chance of match %s failed", match_id)
    finally:
        runner.release_connections()


def estimate(match_id):
    """Estimate the live match's current version if nobody has, or fill in a finished match's missing
    versions (``complete``); returns the live version's chance (None: no live match)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.state is None:
        return None
    if match.status == Match.Status.FINISHED:
        complete(match)
        return None
    if match.status != Match.Status.LIVE:
        return None
    key = frames.win_chance_key(match.pk, match.seed, match.version)
    known = cache.get(key)
    if known is not None:
        return known
    game = games.get(match.game)
    exact = game.win_chance(game.load(match.state))
    # Spectators are sent it to 0.1 %; the command keeps it whole, as ``complete`` does.
    chance = round(exact, 3)
    cache.set(key, chance, timeout=CACHE_SECONDS)
    MatchEvent.objects.filter(match_id=match.pk, version=match.version, win_chance__isnull=True).update(win_chance=exact)
    groups.send(
        groups.watchers_group(match.pk),
        {"type": "win_chance.ready", "version": match.version, "ring": groups.new_ring(), "chance": chance},
    )
    return chance


def complete(match):
    """Estimate every version of the finished ``match`` that has no number yet, replaying it from its
    seed (the states in between were never stored); a match with none missing costs one query."""
    missing = dict(
        MatchEvent.objects.filter(match_id=match.pk, version__lte=match.version, win_chance__isnull=True)
        .values_list("version", "pk")
    )
    if not missing:
        return
    game = games.get(match.game)
    found = []
    for version, _seat, _command, state, _events in steps(match):
        if version in missing:
            found.append(MatchEvent(pk=missing[version], win_chance=game.win_chance(state)))
    MatchEvent.objects.bulk_update(found, ["win_chance"], batch_size=500)


def series(match):
    """The host's chance before the first command and after each one of the finished ``match``, as the
    workers stored them, or None while some are missing (a worker is then asked to fill them in).
    Read from the cache after the first time: a finished match never changes."""
    if not settings.WIN_CHANCES or match.status != Match.Status.FINISHED:
        return None
    key = f"win-chances:{match.pk}:{match.seed}:{match.version}"
    chances = cache.get(key)
    if chances is not None:
        return chances
    stored = list(
        MatchEvent.objects.filter(match_id=match.pk, version__lte=match.version)
        .order_by("version")
        .values_list("version", "win_chance")
    )
    if any(chance is None for _version, chance in stored):
        request(match.pk)
        return None
    game = games.get(match.game)
    # Before the first command nothing is known but who opens: one estimate of a fresh match.
    chances = [(0, game.win_chance(start(game, match))), *stored]
    cache.set(key, chances, timeout=CACHE_SECONDS)
    return chances


def pending(match, chances):
    """Whether a finished match's page should say its chances are being estimated (``chances``: what
    ``series`` gave)."""
    return settings.WIN_CHANCES and match.status == Match.Status.FINISHED and chances is None
