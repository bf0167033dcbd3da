"""API tokens: made on the profile page, shown once, stored hashed, revocable; the bot socket's login."""
import hashlib

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from game.programs import tokens
from game.programs.models import ApiToken
from game.models import Match

from .helpers import BotSocket, program, take_seat, token_for

pytestmark = pytest.mark.django_db(transaction=True)


def logged_in(user, **options):
    client = Client(**options)
    client.force_login(user)
    return client


def test_it_shows_a_new_token_once_and_keeps_only_its_digest(host):
    client = logged_in(host)
    response = client.post("/accounts/tokens/new", {"name": "laptop bot"})
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    token = response.context["token"]
    assert token.startswith("aqw_") and token in response.content.decode()
    row = ApiToken.objects.get(user=host)
    assert row.name == "laptop bot" and row.digest == hashlib.sha256(token.encode()).hexdigest()
    assert token not in repr(list(ApiToken.objects.values())) and token.startswith(row.prefix)
    profile = client.get(f"/users/{host.username}/").content.decode()
    assert "laptop bot" in profile and row.prefix in profile and token not in profile


def test_only_the_owner_sees_and_manages_tokens(host, outsider):
    tokens.create(host, "secret project")
    assert "secret project" not in logged_in(outsider).get(f"/users/{host.username}/").content.decode()
    assert "secret project" not in Client().get(f"/users/{host.username}/").content.decode()
    row = ApiToken.objects.get(user=host)
    response = logged_in(outsider).post(f"/accounts/tokens/{row.pk}/revoke")
    assert response.status_code == 302 and ApiToken.objects.filter(pk=row.pk).exists()


def test_it_revokes_a_token(host):
    row, _token = tokens.create(host, "old")
    response = logged_in(host).post(f"/accounts/tokens/{row.pk}/revoke")
    assert response.status_code == 302 and response["Location"] == f"/users/{host.username}/"
    assert not ApiToken.objects.filter(pk=row.pk).exists()


def test_token_forms_need_a_login_a_post_and_the_csrf_token(host):
    assert Client().post("/accounts/tokens/new", {"name": "x"}).status_code == 302
    assert logged_in(host).get("/accounts/tokens/new").status_code == 405
    strict = logged_in(host, enforce_csrf_checks=True)
    assert strict.post("/accounts/tokens/new", {"name": "x"}).status_code == 403
    row, _token = tokens.create(host, "kept")
    assert strict.post(f"/accounts/tokens/{row.pk}/revoke").status_code == 403
    assert ApiToken.objects.filter(user=host).count() == 1


def test_it_refuses_a_nameless_token_and_too_many(host):
    client = logged_in(host)
    assert client.post("/accounts/tokens/new", {"name": "  "}).status_code == 302
    for n in range(tokens.MAX_TOKENS):
        tokens.create(host, f"t{n}")
    assert client.post("/accounts/tokens/new", {"name": "one more"}).status_code == 302
    assert ApiToken.objects.filter(user=host).count() == tokens.MAX_TOKENS


async def test_the_socket_takes_the_token_from_the_header_or_the_query(host):
    token = await token_for(host)
    for socket in (BotSocket(token), BotSocket(token, in_query=True)):
        try:
            assert await socket.connect()
            assert (await socket.receive())["type"] == "welcome"
        finally:
            await socket.disconnect()


@pytest.mark.parametrize("how", ["revoked", "unknown", "none", "wrong-scheme", "inactive-user"])
async def test_it_refuses_a_bad_token_with_4401(host, how):
    token = await token_for(host)
    headers = ()
    if how == "revoked":
        row = await database_sync_to_async(ApiToken.objects.get)(user=host)
        await database_sync_to_async(tokens.revoke)(host, row.pk)
    elif how == "unknown":
        token = "aqw_" + "A" * 43
    elif how == "none":
        token = None
    elif how == "wrong-scheme":
        headers, token = ((b"authorization", f"Basic {token}".encode()),), None
    else:
        host.is_active = False
        await database_sync_to_async(host.save)()
    socket = BotSocket(token, headers=headers)
    try:
        await socket.connect()
        assert await socket.closed_with() == 4401
        refusal = {"type": "error", "code": "bad_token", "message": "Unknown or revoked API token.", "id": None}
        assert socket.frames == [refusal]
    finally:
        await socket.disconnect()


async def test_a_token_acts_only_for_its_own_users_seats(host, guest, outsider):
    first, second, stranger = await program(host), await program(guest), await program(outsider)
    try:
        created = await take_seat(first, {"type": "create", "private": False})
        await take_seat(second, {"type": "join", "match": created["match"]})
        # The match is live between host and guest: the outsider can neither join nor act in it.
        refused = await take_seat(stranger, {"type": "join", "match": created["match"]})
        assert refused["type"] == "error" and refused["code"] == "not_open"
        command = {"type": "command", "id": "x1", "version": 0, "match": created["match"],
                   "command": {"pick": ["archerfish", "pufferfish", "electric_eel", "sunfish"]}}
        await stranger.send(command)
        error = await stranger.receive_until(lambda f: f["type"] == "error")
        assert error["code"] == "wrong_match"
        await stranger.send({"type": "resign", "id": "x2"})
        assert (await stranger.receive_until(lambda f: f["type"] == "error"))["code"] == "no_seat"
        match = await database_sync_to_async(Match.objects.get)(pk=created["match"])
        assert (match.status, match.version) == ("live", 0)
        # A private match is no match at all without its invite.
        private = await take_seat(stranger, {"type": "create", "private": True})
        lurker = await program(guest)
        try:
            missing = await take_seat(lurker, {"type": "join", "match": private["match"]})
            assert missing["code"] == "no_match"
        finally:
            await lurker.disconnect()
    finally:
        for socket in (first, second, stranger):
            await socket.disconnect()



async def test_a_revoked_token_closes_the_sockets_open_with_it_and_only_those(host):
    revoked, kept = await program(host), await program(host)
    try:
        row = await database_sync_to_async(ApiToken.objects.filter(user=host).order_by("pk").first)()
        await database_sync_to_async(tokens.revoke)(host, row.pk)
        assert await revoked.closed_with() == 4401
        assert revoked.frames[-1]["code"] == "token_revoked"
        # The other token's socket still plays.
        await kept.send({"type": "hello", "version": 0})
        answer = await kept.receive()
        assert answer["type"] == "error" and answer["code"] != "token_revoked"
    finally:
        await kept.disconnect()


async def test_revoking_every_token_closes_every_bot_socket_of_the_account(host, outsider):
    mine, theirs = await program(host), await program(outsider)
    try:
        await database_sync_to_async(tokens.revoke_all)(host)
        assert await mine.closed_with() == 4401
        await theirs.send({"type": "hello", "version": 0})
        assert (await theirs.receive())["code"] != "token_revoked"
    finally:
        await theirs.disconnect()
