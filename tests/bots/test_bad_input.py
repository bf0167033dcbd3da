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
