"""Asking the bot workers to settle a match, and telling whether any worker is up.

With ``settings.BOT_WORKERS = "external"`` (production) a process that serves pages and sockets
never makes a bot decision nor times a clock: ``runner.wake`` sends ``{"type": "settle",
"match_id": N}`` to the ``bot-work`` channel of the channel layer, and one ``manage.py run_bots``
process (``game.programs.worker``) receives it and settles the match (and likewise
``{"type": "win_chance", ...}``: ``game.programs.winchances`` estimates it for spectators). The message is only a
doorbell, like every message on the layer: a lost one (a full channel, a worker killed while
thinking) costs the bot no move, as the periodic sweep settles a bot seat whose takeover deadline
passed (``game.live.clocks``) and asks again.

Every worker refreshes one cache key while it runs (``heartbeat``), so a page can tell that no worker
is up at all (``available``) and say the computer is unavailable instead of starting a match against
a bot that would never move.
"""
import logging

from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache

from ..live.groups import soon

logger = logging.getLogger(__name__)

CHANNEL = "bot-work"
HEARTBEAT_KEY = "bot-workers:alive"
# A worker refreshes the key this often; it lapses after three missed refreshes.
HEARTBEAT_SECONDS = 5.0


def external():
    """True when bots think in worker processes, not in the process that serves the site."""
    return settings.BOT_WORKERS == "external"


def request_settle(match_id):
    """Ask one worker to settle ``match_id``. From the event loop (a socket opening on the match) or
    from a thread (a change's commit); never waits for the worker."""
    request("settle", match_id)


def request_win_chance(match_id):
    """Ask one worker to estimate the win chance of ``match_id``'s current version
    (``game.programs.winchances``); like ``request_settle``, never waits."""
    request("win_chance", match_id)


def request(kind, match_id):
    # From the event loop (a socket opening on the match, a move written from it) or a command's
    # commit on the process's one database thread: never waits for the channel layer.
    soon(_send, {"type": kind, "match_id": int(match_id)}, failed=_sent)


def _sent(future):
    if not future.cancelled() and future.exception() is not None:
        # As with on_commit(robust=True): the change is committed, and a lost request is asked again
        # (the sweep for a bot's move, the next change for a win chance).
        logger.warning("Asking the bot workers failed", exc_info=future.exception())


async def _send(message):
    try:
        await get_channel_layer().send(CHANNEL, message)
    except ChannelFull:
        # The workers are far behind; the sweep asks again once the bot's takeover deadline passes
        # (a win chance is asked for again by the match's next change).
        logger.warning("The bot-work channel is full; %s of match %s dropped", message["type"], message["match_id"])


def heartbeat():
    """Called by each running worker every ``HEARTBEAT_SECONDS``."""
    cache.set(HEARTBEAT_KEY, True, timeout=3 * HEARTBEAT_SECONDS)


def available():
    """Whether a bot would move now: always in the embedded setup (the server thinks itself), else
    while some worker's heartbeat is fresh."""
    return not external() or cache.get(HEARTBEAT_KEY) is not None
