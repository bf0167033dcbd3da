"""Reconnect churn and socket caps (issue #30, items 1 and 11): opening and closing a socket in a loop
is refused past a rate per account and per address, over every process; one viewer's comings and
goings ring the match's other sockets a bounded number of times; and the lobby socket is held to
the match sockets' caps (300 from one account stayed open)."""
import pytest
from channels.db import database_sync_to_async

from game.live import presence_news
from game.models import Presence
from lobby.models import LobbyConnection
from tests.game.helpers import Socket, live_match, open_socket, session_cookie
from tests.lobby.test_lobby_socket import lobby_socket

pytestmark = pytest.mark.django_db(transaction=True)

CHURN = 20


@pytest.fixture(autouse=True)
def no_late_rings_left():
    """A late presence ring still waiting when the test's loop closes would ring nobody's match."""
    yield
    for task in list(presence_news._waiting):
        task.cancel()


async def connect_and_close(match_id, user=None, address="127.0.0.1"):
    """One turn of the review's loop: open ``/ws/match/<id>/?ui=html``, wait for the page, close.
    The close code if the socket was refused, else None."""
    cookie = await database_sync_to_async(session_cookie)(user) if user else None
    socket = Socket(match_id, cookie, html=True, address=address)
    assert await socket.connect()
    first = await socket.receive()
    if "too many connects" in first.lower():
        return await socket.closed_with()
    assert 'id="match-chat"' in first  # the whole page was drawn
    await socket.disconnect()
    return None


async def test_a_reconnect_loop_of_one_account_is_refused_past_the_rate(host, guest, outsider, settings):
    settings.SOCKET_CONNECT_RATE = (5, 60)
    match = await database_sync_to_async(live_match)(host, guest)
    refusals = [await connect_and_close(match.pk, outsider) for _ in range(8)]
    assert refusals == [None] * 5 + [4430] * 3
    # Refused before anything was read or written: no presence row was made for them.
    assert not await database_sync_to_async(Presence.objects.filter(user=outsider).exists)()
    # The rate is the account's: another one is not held back.
    assert await connect_and_close(match.pk, host) is None


async def test_a_reconnect_loop_from_one_address_is_refused_past_its_rate(host, guest, settings):
    settings.SOCKET_CONNECT_RATE_PER_ADDRESS = (4, 60)
    match = await database_sync_to_async(live_match)(host, guest)
    refusals = [await connect_and_close(match.pk, address="203.0.113.7") for _ in range(6)]
    assert refusals == [None] * 4 + [4430] * 2
    # An account does not lift its address's rate; another address is not affected.
    assert await connect_and_close(match.pk, host, address="203.0.113.7") == 4430
    assert await connect_and_close(match.pk, address="203.0.113.8") is None


async def test_a_json_client_refused_for_connecting_too_often_is_told_why(host, guest, settings):
    settings.SOCKET_CONNECT_RATE = (1, 60)
    match = await database_sync_to_async(live_match)(host, guest)
    first = await open_socket(match.pk, host)
    await first.disconnect()
    again = await open_socket(match.pk, host)
    error = await again.receive()
    assert error["code"] == "too_many_connects" and "at most 1 per 60 seconds" in error["message"]
    assert await again.closed_with() == 4430


async def drain(socket):
    """Read what the socket has been sent so far."""
    while not await socket.nothing_more():
        await socket.receive()


async def watchers(match, host, guest, settings, window):
    """The two players' sockets, settled (the news of their own arrival heard), and then presence
    news coalesced over ``window`` seconds; their frames from then on."""
    sockets = [await open_socket(match.pk, host), await open_socket(match.pk, guest)]
    for socket in sockets:
        await socket.hello()
    for socket in sockets:
        await drain(socket)
        socket.frames.clear()
    settings.PRESENCE_NEWS_SECONDS = window
    return sockets


def presence_frames(socket):
    return [frame for frame in socket.frames if '"type":"presence"' in frame]


async def test_one_viewers_churn_rings_the_others_a_bounded_number_of_times(host, guest, outsider, settings):
    """The review's reproduction: each turn of the loop pushed two presence frames to every other
    socket of the match. Within one window of presence news, the loop's turns ring them once."""
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = await watchers(match, host, guest, settings, 60)
    try:
        for _ in range(CHURN):
            assert await connect_and_close(match.pk, outsider) is None
        for socket in sockets:
            await drain(socket)
            assert len(presence_frames(socket)) == 1, presence_frames(socket)
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_the_news_held_back_arrives_at_the_windows_end(host, guest, outsider, settings):
    """The viewers learn the count after the churn, not only the one at its start."""
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = await watchers(match, host, guest, settings, 0.5)
    try:
        for _ in range(3):
            assert await connect_and_close(match.pk, outsider) is None
        for socket in sockets:
            # The first ring said one spectator (the outsider's first arrival); the last says none.
            frames = await socket.receive_until(lambda f: f["type"] == "presence" and f["spectators"] == 0)
            assert frames[-1]["players"] == [True, True]
            assert len(presence_frames(socket)) <= 3
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_lobby_sockets_are_capped_per_account(host, settings):
    settings.MAX_SOCKETS_PER_USER = 3
    sockets = []
    try:
        for _ in range(3):
            socket, connected = await lobby_socket(host)
            sockets.append(socket)
            assert connected
        refused, _connected = await lobby_socket(host)
        assert await refused.closed_with() == 4429
        assert await database_sync_to_async(LobbyConnection.objects.filter(user=host).count)() == 3
        # A closed socket frees its place.
        await sockets.pop(0).disconnect()
        socket, _connected = await lobby_socket(host)
        sockets.append(socket)
        assert await socket.communicator.receive_nothing(timeout=0.2)
    finally:
        for socket in sockets:
            await socket.disconnect()
    assert not await database_sync_to_async(LobbyConnection.objects.exists)()


async def test_lobby_sockets_are_capped_per_address_and_rate_limited(host, guest, settings):
    settings.MAX_SOCKETS_PER_ADDRESS = 2
    settings.SOCKET_CONNECT_RATE = (3, 60)
    first, _ = await lobby_socket(host)
    second, _ = await lobby_socket(guest)
    try:
        refused, _ = await lobby_socket(host)
        assert await refused.closed_with() == 4429
    finally:
        await first.disconnect()
        await second.disconnect()
    # The host's third connect in the window is taken (the cap has room again), the fourth is not.
    third, _ = await lobby_socket(host)
    try:
        assert await third.communicator.receive_nothing(timeout=0.2)
        fourth, _ = await lobby_socket(host)
        assert await fourth.closed_with() == 4430
    finally:
        await third.disconnect()


async def test_many_lobby_sockets_of_one_account_are_not_kept_open(host, settings):
    """The review's reproduction, scaled down: 300 lobby sockets of one account stayed open."""
    settings.SOCKET_CONNECT_RATE = (1000, 60)
    settings.SOCKET_CONNECT_RATE_PER_ADDRESS = (1000, 60)
    opened = [await lobby_socket(host) for _ in range(30)]
    try:
        codes = [await socket.closed_with() for socket, _ in opened[20:]]
        assert codes == [4429] * 10
        assert await database_sync_to_async(LobbyConnection.objects.count)() == 20
    finally:
        for socket, _ in opened:
            await socket.disconnect()
