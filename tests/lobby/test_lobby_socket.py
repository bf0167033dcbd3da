"""/ws/lobby/: the host waiting in the lobby is told at once when someone joins their match."""
import pytest
from channels.db import database_sync_to_async

from game import services
from game.programs import seats
from lobby import challenges
from tests.game.helpers import HOST, ORIGIN, session_cookie
from tests.sockets import RecordingSocket

pytestmark = pytest.mark.django_db(transaction=True)


async def lobby_socket(user=None, language=b"en", query=""):
    headers = [(b"origin", ORIGIN), (b"host", HOST), (b"accept-language", language)]
    if user is not None:
        cookie = await database_sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie.encode()))
    socket = RecordingSocket("/ws/lobby/" + (f"?{query}" if query else ""), headers)
    return socket, await socket.connect()


async def test_the_host_is_told_and_sent_to_the_match_when_someone_joins(host, guest, outsider):
    match = await database_sync_to_async(services.create_match)(host)
    socket, connected = await lobby_socket(host)
    other, _ = await lobby_socket(outsider)
    try:
        assert connected
        await database_sync_to_async(services.join_match)(match, guest)
        news = await socket.receive()
        assert 'id="lobby-joined"' in news and 'hx-swap-oob="true"' in news
        assert f'data-url="/match/{match.pk}/"' in news and "guest joined your match" in news
        # Nobody else hears of it.
        assert await other.communicator.receive_nothing(timeout=0.2)
    finally:
        await socket.disconnect()
        await other.disconnect()


async def test_the_news_is_in_the_lobbys_language(host, guest):
    match = await database_sync_to_async(services.create_match)(host)
    socket, _ = await lobby_socket(host, language=b"zh-hans")
    try:
        await database_sync_to_async(services.join_match)(match, guest)
        news = await socket.receive()
        assert "guest" in news and "joined your match" not in news
    finally:
        await socket.disconnect()


async def test_starting_a_match_against_the_computer_moves_no_other_tab(host, monkeypatch):
    monkeypatch.setattr(seats, "wake", lambda match_id: None)
    socket, _ = await lobby_socket(host)
    try:
        await database_sync_to_async(seats.start_vs_computer)(host, "random")
        assert await socket.communicator.receive_nothing(timeout=0.2)
    finally:
        await socket.disconnect()


async def test_an_anonymous_visitor_gets_no_lobby_socket():
    socket, connected = await lobby_socket()
    assert not connected


async def test_the_lobby_socket_ignores_what_a_client_sends(host):
    socket, _ = await lobby_socket(host)
    try:
        for junk in ("{", '{"type": "hello"}', "x" * 10_000):
            await socket.send(junk)
        assert await socket.communicator.receive_nothing(timeout=0.2)
    finally:
        await socket.disconnect()


async def test_a_join_made_while_the_socket_was_away_is_told_when_it_connects(host, guest):
    """The page was loading, or its socket reconnecting, when the guest came: no ring reached it.
    The lobby named the match it was waiting on, and the socket finds the join in the database."""
    older = await database_sync_to_async(services.create_match)(host)
    match = await database_sync_to_async(services.create_match)(host)
    await database_sync_to_async(services.join_match)(older, guest)
    await database_sync_to_async(services.join_match)(match, guest)
    socket, connected = await lobby_socket(host, query=f"waiting={older.pk},{match.pk}")
    try:
        assert connected
        news = await socket.receive()
        # The newest: one page can only go to one match.
        assert f'data-url="/match/{match.pk}/"' in news and "guest joined your match" in news
        assert await socket.communicator.receive_nothing(timeout=0.2)
    finally:
        await socket.disconnect()


async def test_only_the_persons_own_joined_matches_are_told_on_connecting(host, guest, outsider):
    still_open = await database_sync_to_async(services.create_match)(host)
    someone_elses = await database_sync_to_async(services.create_match)(outsider)
    await database_sync_to_async(services.join_match)(someone_elses, guest)
    ended = await database_sync_to_async(services.create_match)(host)
    await database_sync_to_async(services.join_match)(ended, guest)
    await database_sync_to_async(services.resign)(ended, guest, "r1")
    ids = f"{still_open.pk},{someone_elses.pk},{ended.pk}"
    for user in (host, guest):
        socket, connected = await lobby_socket(user, query=f"waiting={ids}")
        try:
            assert connected
            assert await socket.communicator.receive_nothing(timeout=0.2)
        finally:
            await socket.disconnect()


@pytest.mark.parametrize(
    "waiting",
    ["", "x", ",,,", "-1", "1e3", "%C2%B2", "9" * 40, "1;DROP", ",".join(["7"] * 500), "waiting=1&waiting=2"],
)
async def test_a_waiting_list_that_is_no_list_of_ids_changes_nothing(host, guest, waiting):
    match = await database_sync_to_async(services.create_match)(host)
    socket, connected = await lobby_socket(host, query=f"waiting={waiting}")
    try:
        assert connected
        assert await socket.communicator.receive_nothing(timeout=0.1)
        # The socket still carries the news as it happens.
        await database_sync_to_async(services.join_match)(match, guest)
        assert f'data-url="/match/{match.pk}/"' in await socket.receive()
    finally:
        await socket.disconnect()


async def test_a_challenge_is_told_to_the_challenged_and_its_answer_to_the_challenger(host, guest, outsider):
    """Issue #29: the challenge arrives live, with an element that reads the lists again at once;
    accepting takes the challenger to the match, declining tells them so."""
    challenged, _ = await lobby_socket(guest)
    challenger, _ = await lobby_socket(host)
    other, _ = await lobby_socket(outsider)
    ask = database_sync_to_async(challenges.challenge)
    try:
        made = await ask(host, guest, game="aquawar", move_seconds=30)
        news = await challenged.receive()
        assert 'id="lobby-challenge-news"' in news and 'data-news="received"' in news
        assert "host challenges you" in news and 'hx-get="/lobby/matches/"' in news
        match = await database_sync_to_async(challenges.accept)(made.pk, guest)
        news = await challenger.receive()
        assert 'id="lobby-joined"' in news and f'data-url="/match/{match.pk}/"' in news
        assert "guest accepted your challenge" in news
        again = await ask(host, guest, game="aquawar", move_seconds=30)
        await challenged.receive()
        await database_sync_to_async(challenges.decline)(again.pk, guest)
        news = await challenger.receive()
        assert 'data-news="declined"' in news and "guest declined your challenge" in news
        assert await other.communicator.receive_nothing(timeout=0.2)
    finally:
        await challenged.disconnect()
        await challenger.disconnect()
        await other.disconnect()
