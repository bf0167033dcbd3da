"""Fuzzing the bot socket: every malformed frame gets an error frame and never an exception.

Before a program takes a seat nothing can change; once seated, a malformed frame loses it the
match, as docs/bot-api.md documents ("illegal") — and nothing else happens.
"""
import json

import pytest
from channels.db import database_sync_to_async

from game.programs.protocol import parse
from game.models import Match
from game.live.protocol import ProtocolError
from tests.bots.helpers import program, take_seat
from tests.game.helpers import live_match

from .fuzz import dumps, garbage, mutations

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def calm_bots(settings):
    settings.BOT_MOVE_SECONDS = 30
    settings.BOT_SWEEP_SECONDS = 0


UNHASHABLE_LEVELS = ([], [None], {}, {"a": 1})


def seats_or_plays(text):
    """A frame that would really take a seat (a fuzzed value can still be valid), or one of the
    known crashers of ``test_an_unhashable_level_is_a_bad_field`` (left to the bot platform's owners)."""
    try:
        frame = parse(text, None)
    except (ProtocolError, ValueError):
        return False
    except TypeError:
        return True
    return frame["type"] in ("create", "play", "join")


def corpus():
    bases = [
        {"type": "join", "match": 1},
        {"type": "join", "invite": "abc"},
        {"type": "create", "private": True},
        {"type": "play", "level": "random"},
        {"type": "command", "id": "c1", "version": 0, "command": {"pick": ["sea_wolf"]}},
        {"type": "hello", "version": 0},
    ]
    texts = [dumps(frame) for base in bases for frame in mutations(base)] + garbage(seed=5, count=40)
    return [text for text in texts if not seats_or_plays(text)]


async def test_an_unseated_program_gets_an_error_for_every_bad_frame(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    before = await database_sync_to_async(lambda: list(Match.objects.values_list("pk", "version", "status")))()
    socket = await program(host)
    frames = corpus()
    assert len(frames) > 200
    try:
        for text in frames:
            await socket.communicator.send_input({"type": "websocket.receive", "text": text})
            reply = await socket.receive()
            assert reply["type"] == "error" and reply["code"] and reply["message"], (text[:300], reply)
        await socket.communicator.send_to(bytes_data=b"\xff")
        assert (await socket.receive())["code"] == "binary_frame"
    finally:
        await socket.disconnect()
    after = await database_sync_to_async(lambda: list(Match.objects.values_list("pk", "version", "status")))()
    assert after == before and match.pk == after[0][0]


@pytest.mark.parametrize(
    "text",
    ["[" * 8000, "{not json", json.dumps({"type": "command", "id": "x", "version": 0, "command": {"act": "[" * 3}}),
     json.dumps({"type": "form", "id": "f", "version": "0", "form": "act", "move": "[" * 5000})],
    ids=["deep", "not-json", "bad-command", "deep-form"],
)
async def test_a_seated_program_sending_garbage_loses_as_documented(host, guest, text):
    match = await database_sync_to_async(live_match)(host, guest)
    socket = await program(host)
    try:
        seated = await take_seat(socket, {"type": "join", "match": match.pk})
        assert seated["type"] == "match" and seated["seat"] == 0
        await socket.receive_until(lambda f: f["type"] == "snapshot")
        await socket.communicator.send_input({"type": "websocket.receive", "text": text})
        error = await socket.receive_until(lambda f: f["type"] == "error")
        assert error["code"] in ("bad_json", "bad_field", "bad_frame", "wrong_phase", "malformed"), error
        final = await socket.receive_until(lambda f: f["type"] == "state" and f["status"] == "finished")
        assert final["end_reason"] == "illegal" and final["winner"] == 1
    finally:
        await socket.disconnect()


@pytest.mark.parametrize("level", UNHASHABLE_LEVELS)
def test_an_unhashable_level_is_a_bad_field(level):
    with pytest.raises(ProtocolError) as refused:
        parse(json.dumps({"type": "play", "level": level}), None)
    assert refused.value.code == "bad_field"


@pytest.mark.parametrize("invite", ["a\u0000b", "has space", "x" * 65, ""])
def test_an_invite_that_is_no_token_is_a_bad_field(invite):
    with pytest.raises(ProtocolError) as refused:
        parse(json.dumps({"type": "join", "invite": invite}), None)
    assert refused.value.code == "bad_field"
