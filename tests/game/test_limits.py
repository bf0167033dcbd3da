"""The sockets' limits: frames and hellos per connection, frame size, sockets per account and per
client address, bot sockets per account; and spectators counted as people, not sockets."""
import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from game.models import Presence
from game.live.presence import STALE_AFTER

from tests.bots.helpers import BotSocket, program, token_for

from .helpers import HOST_TEAMS, Socket, event_count, live_match, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

PICK = {"type": "command", "id": "p1", "version": 0, "command": HOST_TEAMS[1]}


async def test_it_refuses_frames_over_the_rate_and_applies_nothing(host, guest, settings, stopped_rate_clock):
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
        stopped_rate_clock.now += 0.6
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


async def refused_as_crowded(socket):
    error = await socket.receive()
    assert error["code"] == "too_many_sockets"
    assert await socket.closed_with() == 4429
    return error


async def test_it_caps_the_sockets_of_one_address_anonymous_ones_included(host, guest, settings):
    """The outside review opened 80 sockets on one match from one client without an account."""
    settings.MAX_SOCKETS_PER_ADDRESS = 3
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = [await open_socket(match.pk, address="203.0.113.5") for _ in range(3)]
    try:
        for socket in sockets:
            await socket.hello()
        error = await refused_as_crowded(await open_socket(match.pk, address="203.0.113.5"))
        assert "Your address has 3 match sockets" in error["message"]
        # An account does not lift the cap of its address; another address is not affected.
        await refused_as_crowded(await open_socket(match.pk, host, address="203.0.113.5"))
        sockets.append(await open_socket(match.pk, host, address="203.0.113.6"))
        assert (await sockets[-1].hello())[-1]["seat"] == 0
        await sockets.pop(0).disconnect()
        sockets.append(await open_socket(match.pk, address="203.0.113.5"))
        assert (await sockets[-1].hello())[-1]["type"] == "snapshot"
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_the_address_of_a_socket_is_the_one_the_proxy_saw(host, guest, settings):
    settings.MAX_SOCKETS_PER_ADDRESS = 2
    settings.TRUSTED_PROXY_COUNT = 1
    match = await database_sync_to_async(live_match)(host, guest)

    async def behind_proxy(forwarded):
        socket = Socket(match.pk, address="127.0.0.1")
        socket.communicator.scope["headers"].append((b"x-forwarded-for", forwarded))
        assert await socket.connect()
        return socket

    # The client's own entries in front of the one nginx appended change nothing.
    sockets = [await behind_proxy(f"198.51.100.{n}, 203.0.113.5".encode()) for n in range(2)]
    try:
        for socket in sockets:
            await socket.hello()
        await refused_as_crowded(await behind_proxy(b"198.51.100.9, 203.0.113.5"))
        sockets.append(await behind_proxy(b"203.0.113.6"))
        assert (await sockets[-1].hello())[-1]["type"] == "snapshot"
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_spectators_are_people_not_sockets(host, guest, outsider):
    """The review's one client with 80 sockets showed as 81 spectators."""
    match = await database_sync_to_async(live_match)(host, guest)
    player = await open_socket(match.pk, host)
    sockets = [await open_socket(match.pk, address="203.0.113.5") for _ in range(5)]
    sockets += [await open_socket(match.pk, address="203.0.113.6")]
    sockets += [await open_socket(match.pk, outsider, address=f"203.0.113.{n}") for n in (7, 8)]
    try:
        # One anonymous viewer per address, and an account once however many tabs it has.
        assert (await player.hello())[-1]["spectators"] == 3
    finally:
        for socket in [player, *sockets]:
            await socket.disconnect()


async def test_hellos_have_a_rate_of_their_own(host, guest, settings, stopped_rate_clock):
    """Ten sockets saying hello at the frame rate made 200 full-page renders in 2.6 s."""
    settings.MATCH_HELLO_RATE = (2, 0.5)
    match = await database_sync_to_async(live_match)(host, guest)
    socket = await open_socket(match.pk, host)
    try:
        for _ in range(2):
            assert (await socket.hello())[-1]["type"] == "snapshot"
        await socket.send({"type": "hello", "version": None})
        refused = await socket.receive_type("error")
        assert refused["code"] == "rate_limited" and "2 hello frames per 0.5 seconds" in refused["message"]
        # Other frames are not held back by it.
        await socket.send(PICK)
        assert (await socket.receive_type("ack"))["version"] == 1
        stopped_rate_clock.now += 0.6
        assert (await socket.hello(1))[-1]["type"] == "state"
    finally:
        await socket.disconnect()


async def test_a_browser_socket_is_rate_limited_on_hello_too(host, guest, settings):
    settings.MATCH_HELLO_RATE = (1, 5)
    match = await database_sync_to_async(live_match)(host, guest)
    page = await open_socket(match.pk, host, html=True)
    try:
        assert 'id="match-board"' in await page.receive()  # the page drawn on connect
        await page.send({"type": "hello", "version": None})
        assert 'id="match-board"' in await page.receive()
        await page.send({"type": "hello", "version": None})
        notice = await page.receive()
        assert "match-notice" in notice and "hello frames" in notice and "match-board" not in notice
    finally:
        await page.disconnect()


async def test_it_caps_the_bot_sockets_of_one_account(host, guest, settings):
    """The review had 40 bot sockets open on one token."""
    settings.MAX_BOT_SOCKETS_PER_USER = 2
    token = await token_for(host)
    sockets = [BotSocket(token) for _ in range(3)]
    try:
        for socket in sockets[:2]:
            assert await socket.connect() and (await socket.receive())["type"] == "welcome"
        assert await sockets[2].connect()
        error = await sockets[2].receive()
        assert error["code"] == "too_many_sockets" and "2 bot sockets" in error["message"]
        assert await sockets[2].closed_with() == 4429
        # The account's other tokens count too; other accounts do not; a closed socket frees its place.
        other = BotSocket(await token_for(host))
        assert await other.connect() and (await other.receive())["code"] == "too_many_sockets"
        theirs = await program(guest)
        await theirs.disconnect()
        await sockets[0].disconnect()
        again = BotSocket(token)
        assert await again.connect() and (await again.receive())["type"] == "welcome"
        await again.disconnect()
    finally:
        for socket in sockets:
            await socket.disconnect()
