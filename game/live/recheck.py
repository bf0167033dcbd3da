"""The doorbell's safety net, one per server process, for every open match and bot socket in it,
and every 三国 game's page and program socket (sanguo/live.py).

A socket learns of a change only through its match group's doorbell (``match.changed``; a 三国
game's is ``game.changed``). That is
a shortcut, not a promise: a Redis restart forgets every group, and any ring in flight, while the
sockets on it stay open. Such a socket would never hear of its match again: a page would sit on an
old board and a person or program under a clock would lose on time (bench/chaos.py,
docs/faults.md).

So every ``RECHECK_SECONDS`` each process

- reads the version and status of every match (and the version of every 三国 game) watched here,
  one query for each kind, and rings, through its
  own queue, each socket that has been behind the database since the last round without sending
  anything meanwhile, as its doorbell would have. Sockets of one match share one ``ring`` token, so
  they share one read of the match (game/fanout.py);
- checks that its groups still exist: it rings a canary group of its own and listens for the ring;
  when it does not come back in time, every watched socket re-joins its group (so presence news
  reaches it again too), and so does the canary.

A lost doorbell is so made up for within two rounds, and a socket whose doorbell is merely queued
behind other work is left alone: ringing it would only add to the queue.

Its cost does not grow with the number of sockets: one query and two channel-layer messages per
process per round, plus the rings for whatever was lost.
"""
import asyncio
import logging
import secrets

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from redis.exceptions import RedisError

from ..models import Match
from .groups import match_group

log = logging.getLogger(__name__)

DEFAULT_RECHECK_SECONDS = 2.0
# What the channel layer raises while Redis is down (the in-memory layer never is).
LAYER_DOWN = (RedisError, OSError)
# The close code for a socket the channel layer failed (Redis is down): "try again later". Not the
# standard 1013, which a server may not send (daphne refuses it): 4013, on which the match page
# (static/game/match.js) and programs reconnect.
TRY_AGAIN_LATER = 4013
# How long the canary's ring may take to come back before the groups count as lost, in rounds: a
# busy process hears its own ring late (the load benchmark saw seconds), a lost group never does,
# and a false alarm costs a re-join of every socket.
CANARY_WAIT_ROUNDS = 2.5


class Followed:
    """What a kind of socket follows: ``group(id)`` is its doorbell's group, ``read_keys(ids)`` reads
    {id: key} for many in one query (the key a socket's ``is_behind(*key)`` is asked about), and
    ``ring`` is its doorbell's message type. A watched socket names its kind as ``followed`` and
    what it follows as ``followed_id``, and any other groups it joined as ``also_joined``."""

    def __init__(self, group, read_keys, ring):
        self.group, self.read_keys, self.ring = group, read_keys, ring


def recheck_seconds():
    return float(getattr(settings, "RECHECK_SECONDS", DEFAULT_RECHECK_SECONDS))


class Watch:
    """The sockets of one event loop (one server process) and the task that rechecks them."""

    def __init__(self):
        self.sockets = {}  # channel name -> consumer
        self.task = None
        self.canary = None
        # Channel name -> what the socket had last sent when a round found it behind the database.
        self.suspects = {}

    def start(self):
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self):
        layer = get_channel_layer()
        while True:
            await asyncio.sleep(recheck_seconds())
            if not self.sockets:
                continue
            try:
                await self.ring_the_behind(layer)
                if not await self.groups_alive(layer):
                    await self.rejoin(layer)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the layer or database is down: try again next round
                log.warning("recheck round failed", exc_info=True)

    async def groups_alive(self, layer):
        """False if the groups may have been lost since the sockets watched here joined theirs."""
        if self.canary is None:
            # The canary joins after the sockets there are now: whatever they lost before is not
            # its to see, so they all re-join once.
            self.canary = await layer.new_channel()
            return False
        token = secrets.token_hex(8)
        await layer.group_send(self.canary_group(), {"type": "recheck.canary", "token": token})
        try:
            async with asyncio.timeout(CANARY_WAIT_ROUNDS * recheck_seconds()):
                while (await layer.receive(self.canary)).get("token") != token:
                    pass
        except TimeoutError:
            log.warning("the channel layer forgot its groups (a Redis restart?): %d sockets re-join theirs",
                        len(self.sockets))
            return False
        return True

    def canary_group(self):
        return f"recheck.{self.canary.rsplit('!', 1)[-1]}"

    async def rejoin(self, layer):
        for channel, consumer in list(self.sockets.items()):
            for group in (consumer.followed.group(consumer.followed_id), *getattr(consumer, "also_joined", ())):
                await layer.group_add(group, channel)
        # The canary last: should Redis fail again halfway, the next round still finds it missing.
        await layer.group_add(self.canary_group(), self.canary)

    async def ring_the_behind(self, layer):
        sockets = list(self.sockets.items())
        current = await database_sync_to_async(read_all_keys)([consumer for _c, consumer in sockets])
        suspects, rings = {}, {}
        for channel, consumer in sockets:
            followed = (consumer.followed, consumer.followed_id)
            key = current.get(followed)
            if key is None or not consumer.is_behind(*key):
                continue
            # Behind may only mean its doorbell is still queued (a busy process is seconds behind);
            # behind since the last round with nothing sent meanwhile means the doorbell was lost.
            if self.suspects.get(channel) == consumer.last_sent:
                ring = rings.setdefault(followed, f"recheck-{secrets.token_hex(8)}")
                await layer.send(channel, {"type": consumer.followed.ring, "ring": ring})
            suspects[channel] = consumer.last_sent
        self.suspects = suspects


async def close_to_retry(consumer, message):
    """After the channel layer failed under ``consumer``'s handler for ``message`` (Redis is down):
    the socket may have missed joining its group or ringing the others, and would stay deaf or
    leave them so. Closed with "try again later", its page or program reconnects and is brought up
    to date from the database. A socket that was leaving anyway just goes."""
    if message["type"] == "websocket.disconnect":
        raise StopConsumer
    log.warning("channel layer down under %s: closing it to be retried", consumer.channel_name)
    await consumer.close(code=TRY_AGAIN_LATER)


async def leave_group(layer, group, channel):
    """group_discard for a socket that is going away: with Redis down there is nothing to leave
    (a restarted Redis has no groups, and a membership left behind expires), and the rest of the
    socket's goodbye (its presence row) must still happen."""
    try:
        await layer.group_discard(group, channel)
    except LAYER_DOWN:
        log.info("left %s while the channel layer was down", group)


def read_keys(match_ids):
    """{match id: (version, status, rematch status)}, read in one query."""
    rows = Match.objects.filter(pk__in=match_ids).values_list("pk", "version", "status", "rematch_status")
    return {pk: (version, status, rematch_status) for pk, version, status, rematch_status in rows}


MATCHES = Followed(match_group, read_keys, "match.changed")


def read_all_keys(consumers):
    """{(kind, id): key} for what ``consumers`` follow, one query per kind."""
    ids = {}
    for consumer in consumers:
        ids.setdefault(consumer.followed, set()).add(consumer.followed_id)
    return {(followed, pk): key for followed, some in ids.items() for pk, key in followed.read_keys(some).items()}


# One watch per event loop: a server process has one; each test has its own.
_watches = {}


def watch(consumer):
    """Recheck ``consumer`` (its ``followed``, ``followed_id``, ``is_behind`` and ``last_sent``) from
    now until ``forget``."""
    if recheck_seconds() <= 0:
        return
    loop = asyncio.get_running_loop()
    for old in [old for old in _watches if old.is_closed()]:
        del _watches[old]
    current = _watches.get(loop)
    if current is None:
        current = _watches[loop] = Watch()
    current.sockets[consumer.channel_name] = consumer
    current.start()


def forget(consumer):
    current = _watches.get(asyncio.get_running_loop())
    if current is not None:
        current.sockets.pop(consumer.channel_name, None)
