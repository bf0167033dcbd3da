"""The game page's socket tells its viewer that the page changed only when what they may see
changed: never because another seat submitted, never with a version, state or events."""
import json

import pytest
from channels.db import database_sync_to_async

from sanguo import services
from tests.game.helpers import HOST, ORIGIN, session_cookie
from tests.sockets import RecordingSocket

from .helpers import started_game
from .test_services import a_submission

pytestmark = pytest.mark.django_db(transaction=True)


async def open_game_socket(game_id, user=None, query=""):
    cookie = await database_sync_to_async(session_cookie)(user) if user else None
    headers = [(b"origin", ORIGIN), (b"host", HOST)] + ([(b"cookie", cookie.encode())] if cookie else [])
    socket = RecordingSocket(f"/ws/sanguo/{game_id}/" + (f"?{query}" if query else ""), headers)
    return socket, await socket.connect()


@database_sync_to_async
def run(function, *args):
    return function(*args)


async def test_a_seat_hears_of_its_own_changes_not_of_the_others_submissions():
    row, gm, players = await run(started_game)
    mine, connected = await open_game_socket(row.pk, players[0])
    assert connected
    onlooker, connected = await open_game_socket(row.pk)
    assert connected
    await run(lambda: services.command(row.pk, players[1], "", a_submission(row, 1)))
    assert await mine.communicator.receive_nothing(timeout=0.5)
    assert await onlooker.communicator.receive_nothing(timeout=0.2)
    await run(lambda: services.command(row.pk, players[0], "", a_submission(row, 0)))
    assert json.loads(await mine.receive_text()) == {"type": "changed"}
    assert await onlooker.communicator.receive_nothing(timeout=0.2)
    await mine.disconnect()
    await onlooker.disconnect()


async def test_an_invite_only_game_refuses_a_socket_without_its_token():
    row, gm, players = await run(started_game)
    await run(lambda: type(row).objects.filter(pk=row.pk).update(private=True))
    socket, connected = await open_game_socket(row.pk)
    assert not connected
    socket, connected = await open_game_socket(row.pk, query=f"invite={row.invite_token}")
    assert connected
    await socket.disconnect()
    socket, connected = await open_game_socket(row.pk, players[2])
    assert connected
    await socket.disconnect()


async def test_a_phase_closing_rings_every_seat_and_the_onlookers():
    row, gm, players = await run(started_game)
    sockets = [(await open_game_socket(row.pk, user))[0] for user in players + [None]]
    await run(lambda: services.command(row.pk, gm, "", {"advance": {"reason": "ready"}}))
    for socket in sockets:
        assert json.loads(await socket.receive_text()) == {"type": "changed"}
        await socket.disconnect()
