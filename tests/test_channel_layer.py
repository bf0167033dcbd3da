"""The configured channel layer (in-memory, or channels_redis with REDIS_URL) carries doorbells."""
import asyncio
import secrets

import pytest
from channels.exceptions import ChannelFull
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


def own_layer(**config):
    """The site's Redis layer under a prefix of its own, so that nothing else's keys are counted."""
    from aquawar_site.channel_layer import RedisChannelLayer

    return RedisChannelLayer(hosts=[settings.REDIS_URL], prefix=f"test-send-{secrets.token_hex(4)}", **config)


@pytest.mark.skipif(not settings.REDIS_URL, reason="channels_redis's send")
async def test_a_send_is_one_round_trip_and_is_received_as_sent(monkeypatch):
    layer = own_layer()
    commands = []
    connection = layer.connection

    class Counted:
        def __init__(self, client):
            self.client = client

        def __getattr__(self, name):
            commands.append(name)
            return getattr(self.client, name)

    monkeypatch.setattr(layer, "connection", lambda index: Counted(connection(index)))
    try:
        general, local = "bot-work", await layer.new_channel()
        await layer.send(general, {"type": "settle", "match_id": 4})
        await layer.send(local, {"type": "match.changed", "version": 2})
        assert commands == ["eval", "eval"]
        monkeypatch.undo()
        assert await asyncio.wait_for(layer.receive(general), timeout=5) == {"type": "settle", "match_id": 4}
        assert await asyncio.wait_for(layer.receive(local), timeout=5) == {"type": "match.changed", "version": 2}
    finally:
        await layer.flush()


@pytest.mark.skipif(not settings.REDIS_URL, reason="channels_redis's send")
async def test_a_full_channel_refuses_a_send_until_its_messages_expire():
    layer = own_layer(capacity=2, expiry=1)
    try:
        for version in (1, 2):
            await layer.send("bot-work", {"type": "settle", "match_id": version})
        with pytest.raises(ChannelFull):
            await layer.send("bot-work", {"type": "settle", "match_id": 3})
        assert [(await layer.receive("bot-work"))["match_id"] for _ in range(2)] == [1, 2]
        for version in (4, 5):
            await layer.send("bot-work", {"type": "settle", "match_id": version})
        # Past the expiry the two waiting messages are dropped, which makes room again.
        await asyncio.sleep(2.1)
        await layer.send("bot-work", {"type": "settle", "match_id": 6})
        async with layer.connection(0) as connection:
            assert await connection.zcard(layer.prefix + "bot-work") == 1
            assert 0 < await connection.ttl(layer.prefix + "bot-work") <= 1
        assert (await asyncio.wait_for(layer.receive("bot-work"), timeout=5))["match_id"] == 6
    finally:
        await layer.flush()
