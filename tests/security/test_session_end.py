"""A login that ends ends its sockets (issue #30, item 10): a logout, or a password change made
elsewhere, closes the match and lobby sockets opened with the sessions it ended, and a command sent
on one is refused even if the news of it was lost. A password change may revoke the API tokens."""
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client
from django.urls import reverse

from game.chat.models import ChatMessage
from game.live import connects, sessions
from game.models import Match, MatchEvent
from game.programs import tokens
from game.programs.models import ApiToken
from tests.accounts import PASSWORD
from tests.game.helpers import HOST_TEAMS, Socket, live_match, session_cookie
from tests.lobby.test_lobby_socket import lobby_socket

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "a-brand-new-tidepool-secret"


def client_with(cookie):
    """An HTTP client on the session of the socket ``cookie`` ("name=key") was opened with."""
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = cookie.split("=", 1)[1]
    return client


async def match_socket(match, user):
    cookie = await database_sync_to_async(session_cookie)(user)
    socket = Socket(match.pk, cookie)
    assert await socket.connect()
    await socket.hello()
    return socket, cookie


async def chat(socket, text):
    await socket.send({"type": "chat", "id": "c-1", "text": text})


def logout(cookie):
    assert client_with(cookie).post(reverse("logout")).status_code == 302


def change_password(cookie, **extra):
    form = {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD, **extra}
    assert client_with(cookie).post(reverse("password_change"), form).status_code == 302


async def test_a_logout_closes_the_sockets_of_that_session(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    socket, cookie = await match_socket(match, host)
    lobby, connected = await lobby_socket(host)
    other, _other_cookie = await match_socket(match, guest)
    try:
        assert connected
        await database_sync_to_async(logout)(cookie)
        assert await socket.closed_with() == sessions.CLOSE_CODE
        # The lobby socket was opened with a session of its own: logging one out leaves it open.
        assert await lobby.communicator.receive_nothing(timeout=0.3)
        # Nor is anyone else's touched.
        await chat(other, "still here")
        assert (await other.receive_type("ack"))["chat"]
    finally:
        for each in (socket, lobby, other):
            await each.disconnect()


async def test_a_command_on_an_ended_session_is_refused_even_if_the_news_was_lost(host, guest, monkeypatch):
    match = await database_sync_to_async(live_match)(host, guest)
    socket, cookie = await match_socket(match, host)
    try:
        # The ring to the account's sockets is lost (a Redis restart, say): the command still checks.
        monkeypatch.setattr(sessions, "send", lambda group, message: None)
        await database_sync_to_async(logout)(cookie)
        assert await socket.communicator.receive_nothing(timeout=0.3)
        await chat(socket, "after logout")
        assert await socket.closed_with() == sessions.CLOSE_CODE
        assert not await database_sync_to_async(ChatMessage.objects.exists)()
    finally:
        await socket.disconnect()


async def test_a_move_on_an_ended_session_is_refused_even_if_the_news_was_lost(host, guest, monkeypatch):
    """On PostgreSQL the move's write asks the database for the login itself (``services.apply_known``)
    instead of the cache read before it: the move is not written, and the socket is closed."""
    match = await database_sync_to_async(live_match)(host, guest)
    socket, cookie = await match_socket(match, host)
    try:
        monkeypatch.setattr(sessions, "send", lambda group, message: None)
        await database_sync_to_async(logout)(cookie)
        await socket.send({"type": "command", "id": "after-logout", "version": 0, "command": HOST_TEAMS[1]})
        assert await socket.closed_with() == sessions.CLOSE_CODE
        assert (await database_sync_to_async(Match.objects.get)(pk=match.pk)).version == 0
        assert not await database_sync_to_async(MatchEvent.objects.exists)()
    finally:
        await socket.disconnect()


async def test_a_listening_socket_of_an_ended_session_is_closed_at_its_heartbeat(host, guest, monkeypatch):
    """Nothing sent on it, the ring lost: the heartbeat still finds the login gone."""
    monkeypatch.setattr(sessions, "HEARTBEAT", timedelta(seconds=0.2))
    monkeypatch.setattr(sessions, "send", lambda group, message: None)
    match = await database_sync_to_async(live_match)(host, guest)
    socket, cookie = await match_socket(match, host)
    lobby, _ = await lobby_socket(host)
    try:
        await database_sync_to_async(logout)(cookie)
        await database_sync_to_async(change_password)(await database_sync_to_async(session_cookie)(host))
        assert await socket.closed_with() == sessions.CLOSE_CODE
        assert await lobby.closed_with() == sessions.CLOSE_CODE
    finally:
        await socket.disconnect()
        await lobby.disconnect()


async def test_a_session_ended_while_its_socket_connects_is_refused(host, guest, monkeypatch):
    """Logged out after the handshake read the session, before the socket read the session version."""
    match = await database_sync_to_async(live_match)(host, guest)
    cookie = await database_sync_to_async(session_cookie)(host)
    refusal = connects.refusal

    def logged_out_meanwhile(user, address):
        if getattr(user, "is_authenticated", False):
            logout(cookie)
        return refusal(user, address)

    monkeypatch.setattr(connects, "refusal", logged_out_meanwhile)
    socket = Socket(match.pk, cookie)
    assert await socket.connect()
    error = await socket.receive()
    assert error["code"] == "login_ended"
    assert await socket.closed_with() == sessions.CLOSE_CODE


async def test_a_password_change_elsewhere_closes_the_other_sessions_sockets(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    socket, _cookie = await match_socket(match, host)
    lobby, _ = await lobby_socket(host)
    elsewhere = await database_sync_to_async(session_cookie)(host)
    try:
        await database_sync_to_async(change_password)(elsewhere)
        assert await socket.closed_with() == sessions.CLOSE_CODE
        assert await lobby.closed_with() == sessions.CLOSE_CODE
    finally:
        await socket.disconnect()
        await lobby.disconnect()


async def test_a_logout_of_another_session_leaves_this_one_working(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    socket, _cookie = await match_socket(match, host)
    elsewhere = await database_sync_to_async(session_cookie)(host)
    try:
        await database_sync_to_async(logout)(elsewhere)
        assert await socket.nothing_more()
        await chat(socket, "still mine")
        assert (await socket.receive_type("ack"))["chat"]
    finally:
        await socket.disconnect()


def test_a_password_change_revokes_the_api_tokens_when_asked(host, host_client):
    tokens.create(host, "first")
    tokens.create(host, "second")
    page = host_client.get(reverse("password_change")).content.decode()
    assert 'name="revoke_tokens"' in page
    form = {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    assert host_client.post(reverse("password_change"), form).status_code == 302
    # Not asked: the tokens stay (they are no session).
    assert ApiToken.objects.filter(user=host).count() == 2
    again = {"old_password": NEW_PASSWORD, "new_password1": PASSWORD, "new_password2": PASSWORD, "revoke_tokens": "on"}
    assert host_client.post(reverse("password_change"), again).status_code == 302
    assert not ApiToken.objects.filter(user=host).exists()
    assert tokens.user_for("aqw_anything") is None


def test_a_wrong_old_password_revokes_nothing(host, host_client):
    tokens.create(host, "kept")
    form = {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD, "revoke_tokens": "on"}
    assert host_client.post(reverse("password_change"), form).status_code == 200
    assert ApiToken.objects.filter(user=host).count() == 1
