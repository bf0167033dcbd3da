"""The programs' socket ``/ws/sanguo/<id>/bot/`` speaks the language its program asks for in the
handshake's ``Accept-Language``, as the site's page sockets read it, and English when it asks none
or one the site does not have (as ``/ws/bot/`` always does): every message, from the login's
refusal to the service's and the seat's page's checks, and the ``welcome`` frame says which."""
import pytest
from channels.db import database_sync_to_async

from game.games.three_kingdoms import engine
from game.programs import tokens

from .helpers import clock, people, started_game  # noqa: F401
from .test_programs import Program, unchanged

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def run(function, *args, **kwargs):
    return function(*args, **kwargs)


async def program(user, game_id, language):
    _row, secret = await run(tokens.create, user, "sanguo")
    headers = [(b"accept-language", language.encode())] if language else []
    socket = Program(game_id, secret, headers)
    assert await socket.connect()
    return socket, await socket.receive()


@pytest.mark.parametrize("asked, speaks", [("zh-Hans", "zh-hans"), ("zh-CN,zh;q=0.9,en;q=0.5", "zh-hans"),
                                           ("", "en"), ("fr-FR, de;q=0.8", "en"), ("en-GB", "en")])
async def test_a_program_reads_every_message_in_the_language_it_asks_for(clock, asked, speaks):
    row, gm, players = await run(started_game)
    chinese = speaks == "zh-hans"
    mine, welcome = await program(players[0], row.pk, asked)
    assert welcome == {"type": "welcome", "user": players[0].username, "game": row.pk, "language": speaks}
    before = await run(unchanged, row)
    # The frame's parser, the seat's page's check and the service, each refusing in that language.
    frames = [
        ("[1]", "bad_frame", "一帧是带有" if chinese else "A frame is a JSON object"),
        ({"type": "hello", "game": row.pk + 1}, "wrong_game", "这个连接属于第" if chinese else "This socket is for game"),
        ({"type": "command", "id": "x", "command": {"lock": {}}}, "not_offered",
         "这条命令现在不在你的席位可用的命令之中" if chinese else "That command is not among your seat's commands now"),
        ({"type": "sign_up"}, "not_recruiting", None),
    ]
    for frame, code, words in frames:
        answer = await mine.answer(frame)
        assert answer["code"] == code, answer
        english = answer["message"].isascii()
        assert english != chinese, answer
        if words:
            assert words in answer["message"], answer
    outsider, = await run(people, 1, "outsider")
    stranger, _welcome = await program(outsider, row.pk, asked)
    own = next(c for c in engine.legal_commands(row.state, 0) if "assassinate" in c)
    answer = await stranger.answer({"type": "command", "id": "y", "command": own})
    assert answer["code"] == "not_a_player" and answer["message"].isascii() != chinese
    assert await run(unchanged, row) == before
    for socket in (mine, stranger):
        await socket.disconnect()
    # Refused at the login: before any account is known, in the language asked.
    refused = Program(row.pk, "aqw_nope", [(b"accept-language", asked.encode())] if asked else [])
    assert await refused.connect()
    answer = await refused.receive()
    assert answer["code"] == "bad_token" and answer["message"] == ("未知或已撤销的 API 令牌。" if chinese else "Unknown or revoked API token.")
    assert await refused.closed_with() == 4401
