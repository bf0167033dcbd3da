"""The match socket's limits: frames per connection, frame size, sockets per account."""
import asyncio

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from game.models import Presence
from game.live.presence import STALE_AFTER

from .helpers import HOST_TEAMS, event_count, live_match, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

PICK = {"type": "command", "id": "p1", "version": 0, "command": HOST_TEAMS[1]}


async def test_it_refuses_frames_over_the_rate_and_applies_nothing(host, guest, settings):
    settings.MATCH_SOCKET_RATE = (3, 0.5)
    match = await database_sync_to_async(live_match)(host, guest)
    socket = await open_socket(match.pk, host)
    try:
        for _ in range(3):
            await socket.send("{oops")
            assert (await socket.receive_type("error"))["code"] == "bad_json"
        await socket.send(PICK)
        refused = await socket.receive_type("error")
        assert refused["code"] == "rate_limited" and "3 frames per 0.5 seconds" in refused["message"]
        assert await event_count(match.pk) == 0
        # The socket stays open: once the window has passed, the same command goes through.
        await asyncio.sleep(0.6)
        await socket.send(PICK)
        assert (await socket.receive_type("ack"))["version"] == 1
    finally:
        await socket.disconnect()


async def test_the_default_rate_is_twenty_frames_in_five_seconds(host, guest, settings):
    settings.MATCH_SOCKET_RATE = (20, 5)
    match = await database_sync_to_async(live_match)(host, guest)
    socket = await open_socket(match.pk, host)
    try:
        for _ in range(20):
            await socket.send("[]")
        codes = [(await socket.receive_type("error"))["code"] for _ in range(20)]
        assert set(codes) == {"bad_frame"}
        await socket.send("[]")
        assert (await socket.receive_type("error"))["code"] == "rate_limited"
    finally:
        await socket.disconnect()


async def test_it_refuses_frames_over_8_kb_and_stays_open(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    socket = await open_socket(match.pk, host)
    try:
        frame = '{"type":"hello","version":null,"pad":"%s"}'
        await socket.send(frame % ("x" * (8 * 1024 - len(frame) + 2)))  # exactly 8 KB: fine
        assert (await socket.receive_type("snapshot"))["version"] == 0
        await socket.send(frame % ("x" * (8 * 1024 - len(frame) + 3)))
        assert (await socket.receive_type("error"))["code"] == "too_large"
        await socket.send(PICK)
        assert (await socket.receive_type("ack"))["version"] == 1
    finally:
        await socket.disconnect()


async def test_it_caps_the_sockets_of_one_account(host, guest, settings):
    settings.MAX_SOCKETS_PER_USER = 2
    match = await database_sync_to_async(live_match)(host, guest)
    other = await database_sync_to_async(live_match)(host, guest)
    sockets = [await open_socket(match.pk, host), await open_socket(other.pk, host)]
    try:
        for socket in sockets:
            await socket.hello()  # done connecting: its presence row is written
        refused = await open_socket(match.pk, host)
        error = await refused.receive()
        assert error["code"] == "too_many_sockets" and "2 match sockets" in error["message"]
        assert await refused.communicator.receive_output(timeout=1) == {"type": "websocket.close", "code": 4429}
        # Other accounts are not affected, and a closed socket frees its place.
        sockets.append(await open_socket(match.pk, guest))
        assert (await sockets[-1].hello())[-1]["seat"] == 1
        await sockets.pop(0).disconnect()
        sockets.append(await open_socket(match.pk, host))
        assert (await sockets[-1].hello())[-1]["seat"] == 0
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_rows_a_dead_process_left_do_not_count_against_the_cap(host, guest, settings):
    settings.MAX_SOCKETS_PER_USER = 1
    match = await database_sync_to_async(live_match)(host, guest)
    old = timezone.now() - STALE_AFTER * 2
    await database_sync_to_async(Presence.objects.create)(channel_name="dead!1", match=match, seat=0, user=host, seen=old)
    socket = await open_socket(match.pk, host)
    try:
        assert (await socket.hello())[-1]["seat"] == 0
    finally:
        await socket.disconnect()
