"""The Redis channel layer (channels_redis), with a guard against a lost cancellation (see
docs/faults.md, "A cancelled receive that never ends"), in fewer Redis round trips.

On Python 3.11 ``asyncio.wait_for`` returns the result of what it waited for, and drops the
cancellation, when that finishes in the same turn of the event loop as the task is cancelled
(CPython issue 86296; 3.12 rewrote ``wait_for``). redis-py sends every command inside
``wait_for(..., socket_timeout)``, and this site must set ``socket_timeout`` (settings.py). A
receive cancelled just as one of its commands is sent — typically a consumer's first receive, while
its connection says HELLO, when a socket closes at once — therefore carries on: channels_redis's
``receive_single`` goes back to its blocking pop every 5 s for as long as the process lives, and
the consumer awaiting that cancelled receive never ends.

The guard: every Redis command of the layer notes how many cancellations its task had been asked
for (``Task.cancelling()``) before it started; if one more was asked for while it ran and none was
raised, the command raises ``CancelledError`` itself once it returns. A message popped meanwhile is
safe: it is in the channel's backup queue, or put there (``receive_single``), and the next receive
puts it back, as for any cancellation. The blocking pop checks the count itself (it must put its
message back before raising). Cleaning up after a cancellation that was raised (the count is then
already up when the command starts) is not disturbed.

Fewer round trips (docs/performance.md, "The channel layer in fewer Redis round trips"): a server
spends much of its event loop on Redis writes and wake-ups, and channels_redis makes four round
trips per ``send``, four per ``group_send`` and four per message a process receives. Here ``send``
is one script, ``group_send`` two (the group's members, then one script per Redis host holding
their keys) and a receive one when a message is waiting (``POP``), with the same keys, scores,
capacities and expiries, so processes running channels_redis's own layer interoperate with these.
"""
import asyncio
import inspect
import time

from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer as UnguardedRedisChannelLayer
from channels_redis.core import logger

# channels_redis's ``send`` makes four round trips (drop the key's expired messages, count what is
# left, add the message, renew the key's expiry) and its ``group_send`` one pipeline and one script
# for the same per key. Here both are this script, once per Redis host: for each key, its messages
# older than the expiry are dropped, and the message is added unless the key holds its capacity
# already (a capacity check no other sender can race). Returns how many keys were full.
# KEYS: channel keys; ARGV: a message per key, a capacity per key, the time now, the expiry, and
# the score at and below which messages have expired.
ADD = """
local n = #KEYS
local now, expiry, expired = ARGV[2 * n + 1], ARGV[2 * n + 2], ARGV[2 * n + 3]
local full = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, expired)
    if redis.call('ZCARD', KEYS[i]) < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        full = full + 1
    end
end
return full
"""

# A group's members, those older than the group expiry dropped first (channels_redis: two round trips).
MEMBERS = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""

# channels_redis's receive keeps each popped message in the channel's backup queue until it is
# handed over, so that a receive cancelled meanwhile loses nothing: a script puts the backup back
# into the channel, a blocking pop, an add to the backup, and a cleaner's pop of the backup once the
# message is handed over, four round trips per message. Here one script: it forgets the backup
# entry of the message this process handed over last (ARGV[2]; the separate cleaner is no longer
# needed), puts back into the channel, with their scores, what a cancelled receive left in
# the backup, and moves the oldest message from the channel into the backup. It returns that
# message, or nothing when the channel is empty (then the caller blocks on the channel). The
# backup expires as the channel does (ARGV[1]), or the entry of a process's last message would
# outlive the process.
POP = """
if ARGV[2] then
    redis.call('ZREM', KEYS[2], ARGV[2])
end
local kept = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
for i = #kept, 1, -2 do
    redis.call('ZADD', KEYS[1], kept[i], kept[i - 1])
end
redis.call('DEL', KEYS[2])
local popped = redis.call('ZPOPMIN', KEYS[1])
if popped[1] == nil then
    return false
end
redis.call('ZADD', KEYS[2], popped[2], popped[1])
redis.call('EXPIRE', KEYS[2], ARGV[1])
return popped[1]
"""

# A message popped by a blocking pop whose receive was cancelled, back into the backup (KEYS[1]):
# the next receive puts it back into the channel.
KEEP = """
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
"""


class CancellationKeeper:
    """A Redis client whose commands raise a cancellation they swallowed."""

    def __init__(self, client):
        self.client = client

    async def __aenter__(self):
        await self.client.__aenter__()
        return self

    async def __aexit__(self, *exc_info):
        return await self.client.__aexit__(*exc_info)

    def __getattr__(self, name):
        attribute = getattr(self.client, name)
        if not callable(attribute):
            return attribute

        def call(*args, **kwargs):
            result = attribute(*args, **kwargs)
            # Commands return coroutines; a pipeline, also awaitable, is left as it is.
            return kept(result) if inspect.iscoroutine(result) else result

        return call


async def kept(command):
    task = asyncio.current_task()
    asked = task.cancelling()
    result = await command
    if task.cancelling() > asked:
        raise asyncio.CancelledError
    return result


class RedisChannelLayer(UnguardedRedisChannelLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Per process-local channel key: the message handed over from its backup, whose entry there
        # the next ``POP`` forgets (kept until a ``POP`` is known to have run).
        self.handed_over = {}

    def connection(self, index):
        return CancellationKeeper(super().connection(index))

    async def send(self, channel, message):
        """channels_redis's ``send``: the same keys, scores, capacity and expiry, in one script."""
        assert isinstance(message, dict), "message is not a dict"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        assert "__asgi_channel__" not in message
        key_name = channel
        if "!" in channel:
            # A process-local channel: its process's one key, the full name inside the message.
            message = {**message, "__asgi_channel__": channel}
            key_name = self.non_local_name(channel)
            index = self.consistent_hash(channel)
        else:
            index = next(self._send_index_generator)
        if await self.add(index, [self.prefix + key_name], [self.serialize(message)], [self.get_capacity(channel)]):
            raise ChannelFull()

    async def group_send(self, group, message):
        """channels_redis's ``group_send`` in two round trips: the group's members, then ``ADD``."""
        assert self.require_valid_group_name(group), "Group name not valid"
        members = await self.connection(self.consistent_hash(group)).eval(
            MEMBERS, 1, self._group_key(group), int(time.time()) - self.group_expiry
        )
        channel_names = [member.decode("utf8") for member in members]
        keys_by_index, messages, capacities = self._map_channel_keys_to_connection(channel_names, message)
        for index, keys in keys_by_index.items():
            full = await self.add(index, keys, [messages[key] for key in keys], [capacities[key] for key in keys])
            if full:
                logger.info("%s of %s channels over capacity in group %s", full, len(channel_names), group)

    async def add(self, index, keys, messages, capacities):
        """``ADD`` on Redis host ``index``; how many of the keys were full."""
        now = time.time()
        return await self.connection(index).eval(
            ADD, len(keys), *keys, *messages, *capacities, now, int(self.expiry), int(now) - int(self.expiry)
        )

    async def receive_single(self, channel):
        """channels_redis's ``receive_single``, one round trip when a message is waiting (``POP``).

        A cancellation at any await loses nothing that Redis answered: a message ``POP`` moved is in
        the backup until it is handed over; one the blocking pop returned to a receive whose
        cancellation was swallowed goes back into the backup before the cancellation is raised.
        As in channels_redis, a message the blocking pop has sent off while its receive is cancelled
        is lost with the reply. A message of a process-local channel is handed over exactly once:
        its backup entry is forgotten by this process's next ``POP``, before the backup is put back.
        A general channel's backup is shared by every process receiving on it, so its entry is
        forgotten at once by a cleaner (channels_redis's, removing that entry rather than the
        oldest); another process's receive putting the backup back before then hands it over again,
        as in channels_redis.
        """
        assert self.require_valid_channel_name(channel, receive=True), "Channel name invalid"
        local = "!" in channel
        index = self.consistent_hash(channel) if local else next(self._receive_index_generator)
        key = self.prefix + channel
        backup = self._backup_channel_name(key)
        await self.receive_clean_locks.acquire(key)
        cleaner = None
        try:
            forget = [self.handed_over[key]] if key in self.handed_over else []
            content = await self.connection(index).eval(POP, 2, key, backup, int(self.expiry), *forget)
            self.handed_over.pop(key, None)
            if content is not None:
                # Nothing is awaited from here until the message is in the receive buffers.
                if local:
                    self.handed_over[key] = content
                else:
                    cleaner = asyncio.ensure_future(self.connection(index).zrem(backup, content))
            while content is None:
                content = await self.blocking_pop(index, key, backup)
        finally:
            if cleaner is None:
                self.receive_clean_locks.release(key)
        if cleaner is not None:
            # The next receive here waits for the cleaner, or it would put the message back.
            self.receive_cleaners.append(cleaner)

            def cleaned(cleaner):
                self.receive_cleaners.remove(cleaner)
                self.receive_clean_locks.release(key)

            cleaner.add_done_callback(cleaned)
        message = self.deserialize(content)
        # A message to a process-local channel (or to several: a group's) names it inside.
        if "__asgi_channel__" in message:
            channel = message.pop("__asgi_channel__")
        return channel, message

    async def blocking_pop(self, index, key, backup):
        """The channel's oldest message once there is one within ``brpop_timeout``, or None.

        Unguarded: a cancellation redis-py swallowed is raised here once the popped message is safe.
        """
        task = asyncio.current_task()
        asked = task.cancelling()
        connection = self.connection(index)
        popped = await connection.client.bzpopmin(key, timeout=self.brpop_timeout)
        if task.cancelling() > asked:
            if popped is not None:
                _, content, score = popped
                # Shielded: a second cancellation must not stop the message's way back.
                await asyncio.shield(connection.eval(KEEP, 1, backup, score, content, int(self.expiry)))
            raise asyncio.CancelledError
        return None if popped is None else popped[1]
