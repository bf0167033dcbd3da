"""Every bad frame gets an error, changes nothing and leaves the socket usable."""
import json

import pytest
from channels.db import database_sync_to_async

from game import services
from game.models import Match

from .helpers import GUEST_TEAMS, HOST_TEAMS, Socket, live_match, open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def fingerprint(match_id):
    match = Match.objects.get(pk=match_id)
    return (match.version, match.status, json.dumps(match.state, sort_keys=True), match.events.count())


@database_sync_to_async
def started_match(host, guest):
    """Both teams picked; returns the match and the user whose turn it is (and the other one)."""
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    match.refresh_from_db()
    mover = match.state["to_move"]
    return match, (host, guest)[mover], (host, guest)[1 - mover]


async def expect_error(socket, frame, code, client_id=None):
    await socket.send(frame)
    reply = await socket.receive_type("error")
    assert reply["code"] == code, reply
    assert reply["id"] == client_id
    assert reply["message"]


async def still_usable(socket, version):
    frames = await socket.hello(version)
    assert frames[-1]["type"] == "state" and frames[-1]["version"] == version


def command(client_id, version, body):
    return {"type": "command", "id": client_id, "version": version, "command": body}


async def test_it_answers_malformed_frames_with_errors(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    socket = await open_socket(match.pk, host)
    try:
        before = await fingerprint(match.pk)
        await expect_error(socket, "{not json", "bad_json")
        await expect_error(socket, "[1, 2, 3]", "bad_frame")
        await expect_error(socket, '"hello"', "bad_frame")
        await expect_error(socket, {"type": "dance", "id": "x"}, "unknown_type", "x")
        await expect_error(socket, {"version": 0}, "unknown_type")
        await expect_error(socket, {"type": "hello", "version": "3"}, "bad_field")
        await expect_error(socket, {"type": "hello", "version": -1}, "bad_field")
        await expect_error(socket, {"type": "command", "version": 0, "command": HOST_TEAMS[1]}, "bad_field")
        await expect_error(socket, {"type": "command", "id": 7, "version": 0, "command": HOST_TEAMS[1]}, "bad_field")
        await expect_error(socket, {"type": "command", "id": "x" * 65, "version": 0, "command": {}}, "bad_field")
        await expect_error(socket, command("\ud800", 0, HOST_TEAMS[1]), "bad_field")
        await expect_error(socket, command("a b", 0, HOST_TEAMS[1]), "bad_field")
        await expect_error(socket, command("a", "0", HOST_TEAMS[1]), "bad_field", "a")
        await expect_error(socket, command("a", True, HOST_TEAMS[1]), "bad_field", "a")
        await expect_error(socket, command("a", 0, ["archerfish"]), "bad_field", "a")
        await expect_error(socket, {**command("a", 0, HOST_TEAMS[1]), "match": match.pk + 1}, "wrong_match", "a")
        await expect_error(socket, {"type": "resign"}, "bad_field")
        await expect_error(socket, {"type": "form", "id": "f", "version": "0", "form": "juggle"}, "bad_field", "f")
        await expect_error(socket, {"type": "form", "id": "f", "version": "0", "form": "act", "move": "{"}, "bad_field", "f")
        await socket.communicator.send_to(bytes_data=b"\x00\x01")
        assert (await socket.receive_type("error"))["code"] == "binary_frame"
        await expect_error(socket, json.dumps({"type": "hello", "pad": "x" * 8192}), "too_large")
        assert await fingerprint(match.pk) == before
        await still_usable(socket, 0)
    finally:
        await socket.disconnect()


async def test_it_passes_on_the_engines_refusals(host, guest):
    match, mover, waiter = await started_match(host, guest)
    sockets = [await open_socket(match.pk, mover), await open_socket(match.pk, waiter)]
    mover_socket, waiter_socket = sockets
    try:
        before = await fingerprint(match.pk)
        await expect_error(mover_socket, command("p", 2, HOST_TEAMS[2]), "wrong_phase", "p")
        await expect_error(waiter_socket, command("w", 2, {"assert": None}), "not_your_turn", "w")
        await expect_error(mover_socket, command("a", 2, {"act": {"actor": 0, "kind": "attack", "enemy": 0}}), "wrong_phase", "a")
        await expect_error(mover_socket, command("t", 2, {"assert": {"target": 9, "fish": "octopus"}}), "no_such_fish", "t")
        await expect_error(mover_socket, command("s", 2, {"assert": {"target": 0, "fish": "kraken"}}), "unknown_species", "s")
        await expect_error(mover_socket, command("m", 2, {"assert": None, "act": {}}), "malformed", "m")
        await expect_error(mover_socket, command("old", 1, {"assert": None}), "stale_version", "old")
        assert await fingerprint(match.pk) == before
        await still_usable(mover_socket, 2)
        await mover_socket.send(command("ok", 2, {"assert": None}))
        assert (await mover_socket.receive_type("ack"))["version"] == 3
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_it_lets_no_spectator_act(host, guest, outsider):
    match, _mover, _waiter = await started_match(host, guest)
    watchers = [await open_socket(match.pk, outsider), await open_socket(match.pk)]
    try:
        before = await fingerprint(match.pk)
        for socket in watchers:
            await expect_error(socket, command("x", 2, {"assert": None}), "not_a_player", "x")
            await expect_error(socket, {"type": "resign", "id": "r"}, "not_a_player", "r")
            await expect_error(
                socket, {"type": "form", "id": "f", "version": "2", "form": "skip"}, "not_a_player", "f"
            )
        assert await fingerprint(match.pk) == before
        await still_usable(watchers[1], 2)
    finally:
        for socket in watchers:
            await socket.disconnect()


async def test_it_refuses_a_socket_from_a_foreign_origin(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    cookie = await database_sync_to_async(session_cookie)(host)
    for origin in (b"http://evil.example", None):
        socket = Socket(match.pk, cookie, origin=origin)
        assert not await socket.connect()
        await socket.disconnect()


async def test_it_treats_a_private_match_as_missing_without_the_invite(host, guest, outsider):
    match = await database_sync_to_async(live_match)(host, guest, private=True)
    socket = await open_socket(match.pk, outsider)
    try:
        assert (await socket.receive())["code"] == "no_match"
        assert (await socket.communicator.receive_output(timeout=2))["type"] == "websocket.close"
    finally:
        await socket.disconnect()
    invited = await open_socket(match.pk, outsider, query=f"invite={match.invite_token}")
    player = await open_socket(match.pk, guest)
    try:
        assert (await invited.hello())[-1]["audience"] == "spectator"
        assert (await player.hello())[-1]["seat"] == 1
    finally:
        await invited.disconnect()
        await player.disconnect()


async def test_it_says_so_for_a_match_that_does_not_exist(host):
    socket = await open_socket(4242, host)
    try:
        assert (await socket.receive())["code"] == "no_match"
    finally:
        await socket.disconnect()
