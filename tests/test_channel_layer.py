"""The configured channel layer (in-memory, or channels_redis with REDIS_URL) carries doorbells."""
import asyncio

import pytest
from channels.layers import get_channel_layer
from django.conf import settings


async def test_it_delivers_a_group_message_to_every_member():
    layer = get_channel_layer()
    first, second = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("match-1", first)
    await layer.group_add("match-1", second)
    await layer.group_send("match-1", {"type": "match.changed", "version": 7})
    for channel in (first, second):
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
        assert message == {"type": "match.changed", "version": 7}


def test_it_uses_redis_exactly_when_redis_url_is_set():
    redis = settings.CHANNEL_LAYERS["default"]["BACKEND"] == "aquawar_site.channel_layer.RedisChannelLayer"
    assert redis == bool(settings.REDIS_URL)


@pytest.mark.skipif(not settings.REDIS_URL, reason="only a Redis connection can time out")
async def test_it_keeps_an_idle_socket_listening():
    # A consumer waits on its channel for as long as nobody plays; redis-py 8 cuts any read after
    # 5 seconds by default, which tore down every quiet websocket with error 1011.
    layer = get_channel_layer()
    channel = await layer.new_channel()
    waiting = asyncio.create_task(layer.receive(channel))
    await asyncio.sleep(6.5)
    assert not waiting.done() or waiting.exception() is None
    await layer.send(channel, {"type": "match.changed", "version": 3})
    message = await asyncio.wait_for(waiting, timeout=5)
    assert message["version"] == 3
