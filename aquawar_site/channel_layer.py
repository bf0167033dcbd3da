"""The Redis channel layer (channels_redis), with a guard against a lost cancellation: see
docs/faults.md, "A cancelled receive that never ends".

On Python 3.11 ``asyncio.wait_for`` returns the result of what it waited for, and drops the
cancellation, when that finishes in the same turn of the event loop as the task is cancelled
(CPython issue 86296; 3.12 rewrote ``wait_for``). redis-py sends every command inside
``wait_for(..., socket_timeout)``, and this site must set ``socket_timeout`` (settings.py). A
receive cancelled just as one of its commands is sent — typically a consumer's first receive, while
its connection says HELLO, when a socket closes at once — therefore carries on: channels_redis's
``receive_single`` goes back to its blocking pop (``_brpop_with_clean``) every 5 s for as long as the
process lives, and the consumer awaiting that cancelled receive never ends.

The guard: around every pop, a receive whose task has been asked to stop (``Task.cancelling()``)
stops, raising ``CancelledError`` itself. A message popped meanwhile is safe: channels_redis keeps
it in the channel's backup queue and puts it back at the next receive, as for any cancellation.
"""
import asyncio

from channels_redis.core import RedisChannelLayer as UnguardedRedisChannelLayer


def _stop_if_cancelled():
    if asyncio.current_task().cancelling():
        raise asyncio.CancelledError


class RedisChannelLayer(UnguardedRedisChannelLayer):
    async def _brpop_with_clean(self, index, channel, timeout):
        _stop_if_cancelled()
        member = await super()._brpop_with_clean(index, channel, timeout)
        _stop_if_cancelled()
        return member
