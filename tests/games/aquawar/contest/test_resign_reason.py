"""The bot socket's ``resign`` may say why: how a bridge reports its program's forfeit."""
import pytest
from channels.db import database_sync_to_async

from game.models import Match
from tests.bots.helpers import program, take_seat

pytestmark = pytest.mark.django_db(transaction=True)


async def resign_with(user, frame):
    socket = await program(user)
    try:
        seated = await take_seat(socket, {"type": "play", "level": "random"})
        await socket.receive_until(lambda f: f["type"] == "snapshot")
        await socket.send(frame)
        answer = await socket.receive_until(lambda f: f["type"] in ("ack", "error"))
        end = await socket.receive_until(lambda f: f["type"] == "version" and f["events"][-1]["type"] == "match_end")
        match = await database_sync_to_async(Match.objects.get)(pk=seated["match"])
        return answer, end["events"][-1], match
    finally:
        await socket.disconnect()


@pytest.mark.parametrize("reason", ["timeout", "illegal", "resign", None])
async def test_a_program_gives_up_with_the_reason_it_gives(host, reason):
    frame = {"type": "resign", "id": "r1"} if reason is None else {"type": "resign", "id": "r1", "reason": reason}
    answer, end, match = await resign_with(host, frame)
    expected = reason or "resign"
    assert answer == {"type": "ack", "id": "r1", "version": match.version, "duplicate": False}
    assert (end["winner"], end["reason"]) == (1, expected)
    assert (match.status, match.winner, match.end_reason) == ("finished", 1, expected)


@pytest.mark.parametrize("reason", ["abandon", "bored", 3, None, ["illegal"]])
async def test_a_reason_it_may_not_give_is_a_malformed_frame(host, reason):
    answer, end, match = await resign_with(host, {"type": "resign", "id": "r1", "reason": reason})
    assert answer["type"] == "error" and answer["code"] == "bad_field" and answer["id"] == "r1"
    # Like any malformed frame while playing, it loses the match as an illegal move.
    assert (end["reason"], match.end_reason) == ("illegal", "illegal")
