"""The Redis channel layer (channels_redis), with a guard against a lost cancellation (see
docs/faults.md, "A cancelled receive that never ends") and a ``send`` in one round trip.

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
safe: channels_redis keeps it in the channel's backup queue and puts it back at the next receive,
as for any cancellation. Cleaning up after a cancellation that was raised (the count is then
already up when the command starts) is not disturbed.
"""
import asyncio
import inspect
import time

from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer as UnguardedRedisChannelLayer

# channels_redis's ``send`` makes four round trips to Redis (drop the key's expired messages, count
# what is left, add the message, renew the key's expiry); a command's commit makes one such send
# (its request to the bot workers). The same four commands as one script make one round trip, and
# the capacity check can no longer race another sender's add.
SEND = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
if redis.call('ZCOUNT', KEYS[1], '-inf', '+inf') >= tonumber(ARGV[2]) then
    return 1
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 0
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
        now = time.time()
        full = await self.connection(index).eval(
            SEND, 1, self.prefix + key_name, int(now) - int(self.expiry), self.get_capacity(channel), now,
            self.serialize(message), int(self.expiry),
        )
        if full:
            raise ChannelFull()
