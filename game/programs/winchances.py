"""Live win chances for spectators (docs/win-chances.md): estimated off the web processes, once per
match version, kept in the shared cache, and announced to the match's sockets.

Every committed change to a live match asks for an estimate (``request``, on ``services.
match_changed``): with ``BOT_WORKERS = "external"`` a bot worker gets ``{"type": "win_chance",
"match_id": N}`` on the ``bot-work`` channel (``dispatch``), else a worker thread of this process
runs it (``runner.run_soon``), as the bots' work runs. ``estimate`` reads the match, asks its game
for the chance from the spectator's view alone (``Game.win_chance``), stores it under the match's id
and version (an estimate already stored is never made again: the job is idempotent, and a lost
message costs only that version's number) and rings the match's group with ``win_chance.ready``,
which carries no number: each spectator's socket reads it from the cache (``frames.win_chance``,
which answers nothing to a player of the live match).
"""
import logging
import secrets

from django.conf import settings
from django.core.cache import cache
from django.db import connections

from .. import games
from ..live import frames, groups
from ..models import Match
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
        # Worker threads outlive requests; never leave a connection open behind one.
        connections.close_all()


def estimate(match_id):
    """Estimate the live match's current version if nobody has; returns the chance (None: no live match)."""
    match = Match.objects.filter(pk=match_id).only("game", "state", "seed", "version", "status").first()
    if match is None or match.status != Match.Status.LIVE or match.state is None:
        return None
    key = frames.win_chance_key(match.pk, match.seed, match.version)
    known = cache.get(key)
    if known is not None:
        return known
    game = games.get(match.game)
    chance = round(game.win_chance(game.load(match.state)), 3)
    cache.set(key, chance, timeout=CACHE_SECONDS)
    groups.send(
        groups.match_group(match.pk),
        {"type": "win_chance.ready", "version": match.version, "ring": secrets.token_hex(8)},
    )
    return chance
