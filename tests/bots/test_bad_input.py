"""Whatever a program sends to take a seat, a bad request is an error frame and changes nothing."""
import pytest
from channels.db import database_sync_to_async

from game.models import Match

from .helpers import program, take_seat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "request_frame",
    [
        {"type": "join", "match": 2**70},
        {"type": "join", "match": True},
        {"type": "join", "match": 1, "invite": "x"},
        {"type": "join", "invite": "x" * 500},
        {"type": "play", "level": "grandmaster"},
        {"type": "create", "private": "yes"},
    ],
)
async def test_a_bad_seat_request_is_refused_and_changes_nothing(host, request_frame):
    socket = await program(host)
    try:
        refused = await take_seat(socket, request_frame)
        assert refused["type"] == "error" and refused["code"] == "bad_field"
        assert await database_sync_to_async(Match.objects.count)() == 0
    finally:
        await socket.disconnect()


async def test_frames_over_the_bot_rate_are_refused_without_forfeiting(host, guest, settings, stopped_rate_clock):
    settings.BOT_SOCKET_RATE = (3, 0.5)
    socket = await program(host)
    try:
        seated = await take_seat(socket, {"type": "play", "level": "random"})
        assert seated["type"] == "match"
        for _ in range(2):
            await socket.send({"type": "hello", "version": None})
            await socket.receive_until(lambda f: f["type"] == "snapshot")
        # The fourth frame in the window is refused unread: a malformed one would have lost the match.
        await socket.send("{oops")
        refused = await socket.receive_until(lambda f: f["type"] == "error")
        assert refused["code"] == "rate_limited" and "3 frames per 0.5 seconds" in refused["message"]
        match = await database_sync_to_async(Match.objects.get)(pk=seated["match"])
        assert match.status == Match.Status.LIVE
        stopped_rate_clock.now += 0.6
        await socket.send({"type": "hello", "version": None})
        assert (await socket.receive_until(lambda f: f["type"] in ("snapshot", "error")))["type"] == "snapshot"
    finally:
        await socket.disconnect()
