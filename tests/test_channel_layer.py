"""The configured channel layer (in-memory, or channels_redis with REDIS_URL) carries doorbells."""
import asyncio
import logging
import secrets
import sys
from pathlib import Path

import pytest
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer
from django.conf import settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from channel_layer_bench import RoundTrips  # noqa: E402


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


def own_layer(prefix=None, **config):
    """The site's Redis layer under a prefix of its own (or ``prefix``: another process's layer on
    the same keys), so that nothing else's keys are counted."""
    from aquawar_site.channel_layer import RedisChannelLayer

    return RedisChannelLayer(hosts=[settings.REDIS_URL], prefix=prefix or f"test-send-{secrets.token_hex(4)}", **config)


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


needs_redis = pytest.mark.skipif(not settings.REDIS_URL, reason="the site's Redis layer")


async def two_processes(**config):
    """Two layers on the same keys, as two server processes have, and a flush of them both."""
    first = own_layer(**config)
    return first, own_layer(prefix=first.prefix, **config)


async def flush(*layers):
    for layer in layers:
        await layer.flush()


async def silent(layer, channel, seconds=0.5):
    """True if nothing more comes on the channel (the receive is cancelled after ``seconds``)."""
    try:
        await asyncio.wait_for(layer.receive(channel), timeout=seconds)
    except asyncio.TimeoutError:
        return True
    return False


async def waiting(layer, key):
    async with layer.connection(0) as connection:
        return await connection.zcard(layer.prefix + key)


@needs_redis
async def test_a_group_send_reaches_every_member_once_and_in_order_in_both_processes():
    # Each process's sockets share one key: one message per key and group_send, naming them all.
    first, second = await two_processes()
    try:
        members = [
            (first, await first.new_channel()), (first, await first.new_channel()),
            (second, await second.new_channel()), (second, "bot-work"),
        ]
        for layer, channel in members:
            await layer.group_add("match-1", channel)
        for version in range(1, 4):
            await first.group_send("match-1", {"type": "match.changed", "version": version})
        assert await waiting(first, first.non_local_name(members[0][1])) == 3
        assert await waiting(second, second.non_local_name(members[2][1])) == 3
        for layer, channel in members:
            versions = [(await asyncio.wait_for(layer.receive(channel), timeout=5))["version"] for _ in range(3)]
            assert versions == [1, 2, 3], channel
        for layer, channel in members:
            assert await silent(layer, channel), channel
    finally:
        await flush(first, second)


async def age(layer, key, seconds):
    """Makes every entry of ``key`` (a group's members, a channel's messages) ``seconds`` older.

    Its key's own expiry, renewed by every add, would otherwise remove old and new entries alike."""
    async with layer.connection(0) as connection:
        for member, score in await connection.zrange(key, 0, -1, withscores=True):
            await connection.zadd(key, {member: score - seconds})


@needs_redis
async def test_a_group_send_forgets_members_past_the_group_expiry():
    first, second = await two_processes(group_expiry=60)
    try:
        old, new = await first.new_channel(), await second.new_channel()
        await first.group_add("match-1", old)
        await age(first, first._group_key("match-1"), 61)
        await second.group_add("match-1", new)
        await second.group_send("match-1", {"type": "match.changed", "version": 2})
        assert (await asyncio.wait_for(second.receive(new), timeout=5))["version"] == 2
        assert await waiting(first, first.non_local_name(old)) == 0
        async with first.connection(0) as connection:
            assert await connection.zrange(first._group_key("match-1"), 0, -1) == [new.encode()]
    finally:
        await flush(first, second)


@needs_redis
async def test_a_group_send_skips_a_full_channel_logs_it_and_drops_expired_messages(caplog):
    layer = own_layer(capacity=2, expiry=60)
    try:
        full, free = "full-work", await layer.new_channel()
        for name in (full, free):
            await layer.group_add("match-1", name)
        for version in (1, 2):
            await layer.send(full, {"type": "settle", "version": version})
        with caplog.at_level(logging.INFO, logger="channels_redis.core"):
            await layer.group_send("match-1", {"type": "match.changed", "version": 3})
        assert "1 of 2 channels over capacity in group match-1" in caplog.text
        assert await waiting(layer, full) == 2
        assert (await asyncio.wait_for(layer.receive(free), timeout=5))["version"] == 3
        # Once they are past the expiry, the full channel's messages are dropped by the next group_send.
        await age(layer, layer.prefix + full, 61)
        await layer.group_send("match-1", {"type": "match.changed", "version": 4})
        assert await waiting(layer, full) == 1
        async with layer.connection(0) as connection:
            assert 0 < await connection.ttl(layer.prefix + full) <= 60
        assert (await asyncio.wait_for(layer.receive(full), timeout=5))["version"] == 4
    finally:
        await layer.flush()


@needs_redis
async def test_a_group_send_is_two_round_trips_and_a_waiting_message_one():
    # channels_redis: four per group_send, four per message and receiving process.
    first, second = await two_processes()
    try:
        mine, theirs = await first.new_channel(), await second.new_channel()
        for layer, channel in ((first, mine), (second, theirs)):
            await layer.group_add("match-1", channel)
        with RoundTrips() as group_send:
            await first.group_send("match-1", {"type": "match.changed", "version": 1})
        await first.group_send("match-1", {"type": "match.changed", "version": 2})
        for layer, channel in ((first, mine), (second, theirs)):
            for version in (1, 2):
                with RoundTrips() as receive:
                    assert (await layer.receive(channel))["version"] == version
                    await layer.wait_received()
                assert receive.commands == ["EVAL"], (channel, version)
        assert group_send.commands == ["EVAL", "EVAL"]
        # A receive that has to wait: the script, then the blocking pop, and nothing after it (the
        # second script is the send it waits for).
        with RoundTrips() as receive:
            later = asyncio.ensure_future(first.receive(mine))
            await asyncio.sleep(0.3)
            await second.send(mine, {"type": "match.changed", "version": 3})
            assert (await asyncio.wait_for(later, timeout=5))["version"] == 3
            await first.wait_received()
        assert receive.commands == ["EVAL", "BZPOPMIN", "EVAL"]
    finally:
        await flush(first, second)


@needs_redis
async def test_a_message_handed_over_is_forgotten_by_the_next_receive_and_never_handed_over_again():
    layer = own_layer()
    try:
        channel = await layer.new_channel()
        for version in (1, 2, 3):
            await layer.send(channel, {"type": "match.changed", "version": version})
        backup = layer.prefix + layer.non_local_name(channel) + "$inflight"
        for version in (1, 2, 3):
            assert (await layer.receive(channel))["version"] == version
            async with layer.connection(0) as connection:
                # Only the message just handed over is kept, and not for longer than a message lives.
                assert await connection.zcard(backup) == 1
                assert 0 < await connection.ttl(backup) <= layer.expiry
        assert await silent(layer, channel)
    finally:
        await layer.flush()


@needs_redis
@pytest.mark.parametrize("kind", ["process-local", "general"])
async def test_a_receive_cancelled_at_any_moment_loses_and_repeats_nothing(kind):
    # Each receive is cancelled one more turn of the event loop later than the one before, over
    # every await of a receive whose message is waiting: the lock, the script's send and reply.
    layer = own_layer()
    try:
        channel = await layer.new_channel() if kind == "process-local" else "bot-work"
        turns = 40
        received = []
        for version in range(turns):
            await layer.send(channel, {"type": "match.changed", "version": version})
            receive = asyncio.ensure_future(layer.receive(channel))
            for _ in range(version):
                await asyncio.sleep(0)
            receive.cancel()
            await asyncio.wait({receive})
            if not receive.cancelled():
                received.append(receive.result()["version"])
        cancelled = turns - len(received)
        assert 0 < cancelled < turns
        for _ in range(cancelled):
            received.append((await asyncio.wait_for(layer.receive(channel), timeout=5))["version"])
        assert sorted(received) == list(range(turns))
        assert await silent(layer, channel)
    finally:
        await layer.flush()


def swallowing(command):
    """``command`` losing a cancellation asked for while it ran, as redis-py's sends do on Python
    3.11 (aquawar_site/channel_layer.py): the task counts one more cancellation, none is raised."""

    async def swallowed(*args, **kwargs):
        result = await command(*args, **kwargs)
        asyncio.current_task().cancel()
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError:
            pass
        return result

    return swallowed


@needs_redis
@pytest.mark.parametrize("command", ["eval", "bzpopmin"])
async def test_a_receive_whose_cancellation_a_command_swallowed_ends_and_keeps_its_message(command, monkeypatch):
    # eval: the script moved a waiting message to the backup; bzpopmin: the blocking pop took one
    # that arrived while the receive waited, and it must go back before the cancellation is raised.
    import redis.asyncio

    layer = own_layer()
    try:
        channel = await layer.new_channel()
        if command == "eval":
            await layer.send(channel, {"type": "match.changed", "version": 1})
        monkeypatch.setattr(redis.asyncio.Redis, command, swallowing(getattr(redis.asyncio.Redis, command)))
        receive = asyncio.ensure_future(layer.receive(channel))
        if command == "bzpopmin":
            await asyncio.sleep(0.3)
            await layer.send(channel, {"type": "match.changed", "version": 1})
        await asyncio.wait({receive}, timeout=5)
        assert receive.cancelled()
        monkeypatch.undo()
        assert (await asyncio.wait_for(layer.receive(channel), timeout=5))["version"] == 1
        assert await silent(layer, channel)
    finally:
        await layer.flush()


@needs_redis
async def test_a_receive_cancelled_while_it_waits_leaves_the_next_message_to_the_next_receive():
    # The cancelled blocking pop must not stay behind in Redis and take the next message.
    layer = own_layer()
    try:
        channel = await layer.new_channel()
        receive = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0.3)
        receive.cancel()
        await asyncio.wait({receive})
        await layer.send(channel, {"type": "match.changed", "version": 1})
        assert (await asyncio.wait_for(layer.receive(channel), timeout=5))["version"] == 1
    finally:
        await layer.flush()


@needs_redis
async def test_it_interoperates_with_channels_redis_s_own_layer():
    # The same keys, scores and message layout: a process still running the stock layer (during a
    # deploy, or the benchmark's) reaches ours and ours reaches it.
    from channels_redis.core import RedisChannelLayer as StockLayer

    ours = own_layer()
    stock = StockLayer(hosts=[settings.REDIS_URL], prefix=ours.prefix)
    try:
        mine, theirs = await ours.new_channel(), await stock.new_channel()
        for layer, channel in ((ours, mine), (stock, theirs)):
            await layer.group_add("match-1", channel)
        await ours.group_send("match-1", {"type": "match.changed", "version": 1})
        await stock.group_send("match-1", {"type": "match.changed", "version": 2})
        for layer, channel in ((ours, mine), (stock, theirs)):
            assert [(await asyncio.wait_for(layer.receive(channel), timeout=5))["version"] for _ in range(2)] == [1, 2]
    finally:
        await flush(ours, stock)
