"""Versions, resuming, repeated and racing commands, restarts and spectator counts."""
import asyncio

import pytest
from channels.db import database_sync_to_async

from game.live import frames
from game import services
from game.models import Match, MatchEvent

from .helpers import GUEST_TEAMS, HOST_TEAMS, db_match, event_count, live_match, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def play_skips_and_attacks(match_id, host, guest, count):
    """``count`` more commands from whoever is to move: skip the assertion, attack the first enemy."""
    for _ in range(count):
        match = Match.objects.get(pk=match_id)
        seat = match.state["to_move"]
        user = (host, guest)[seat]
        if match.state["phase"] == "assert":
            body = {"assert": None}
        else:
            enemy = next(i for i, f in enumerate(match.state["teams"][1 - seat]) if f["alive"])
            actor = next(i for i, f in enumerate(match.state["teams"][seat]) if f["alive"])
            body = {"act": {"actor": actor, "kind": "attack", "enemy": enemy}}
        services.apply_command(match_id, user, f"c{match.version}", match.version, body)


@database_sync_to_async
def started_match(host, guest):
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    return match


async def test_it_sends_exactly_the_missed_versions_on_resume(host, guest):
    match = await started_match(host, guest)
    socket = await open_socket(match.pk, host)
    first = await socket.hello()
    assert first[-1]["type"] == "snapshot" and first[-1]["version"] == 2
    await socket.disconnect()

    await play_skips_and_attacks(match.pk, host, guest, 7)
    socket = await open_socket(match.pk, host)
    try:
        resumed = [f for f in await socket.hello(2) if f["type"] != "presence"]
        assert [f["version"] for f in resumed if f["type"] == "version"] == [3, 4, 5, 6, 7, 8, 9]
        assert resumed[-1]["type"] == "state" and resumed[-1]["version"] == 9
        assert all(f["events"] for f in resumed[:-1])
        assert await socket.nothing_more()
    finally:
        await socket.disconnect()


async def test_it_sends_a_spectator_only_that_a_player_picked(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    socket = await open_socket(match.pk)
    try:
        resumed = [f for f in await socket.hello(0) if f["type"] != "presence"]
        assert resumed[0] == {"type": "version", "version": 1, "events": [{"type": "pick", "player": 1}]}
        assert resumed[-1]["version"] == 1
    finally:
        await socket.disconnect()


@database_sync_to_async
def append_owner_only_version(match_id):
    """A version whose every event belongs to player 0 alone (as an ATK change does)."""
    match = Match.objects.get(pk=match_id)
    MatchEvent.objects.create(match=match, version=1, seat=0, events=[{"type": "atk", "side": 0, "pos": 0, "atk": 120}])
    Match.objects.filter(pk=match_id).update(version=1)


async def test_it_sends_an_empty_version_rather_than_a_gap(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    await append_owner_only_version(match.pk)
    sockets = [await open_socket(match.pk, guest), await open_socket(match.pk), await open_socket(match.pk, host)]
    try:
        for socket in sockets[:2]:
            resumed = [f for f in await socket.hello(0) if f["type"] != "presence"]
            assert resumed[0] == {"type": "version", "version": 1, "events": []}
        resumed = [f for f in await sockets[2].hello(0) if f["type"] != "presence"]
        assert resumed[0]["events"] == [{"type": "atk", "side": 0, "pos": 0, "atk": 120}]
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_it_sends_a_snapshot_when_the_client_is_lost(host, guest):
    match = await started_match(host, guest)
    socket = await open_socket(match.pk, guest)
    try:
        assert (await socket.hello(None))[-1]["type"] == "snapshot"
        assert (await socket.hello(99))[-1]["type"] == "snapshot"
        frames.REPLAY_LIMIT, limit = 1, frames.REPLAY_LIMIT
        try:
            assert (await socket.hello(0))[-1]["type"] == "snapshot"
        finally:
            frames.REPLAY_LIMIT = limit
        assert (await socket.hello(1))[-1]["type"] == "state"
    finally:
        await socket.disconnect()


async def test_it_applies_a_repeated_command_id_once(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    socket = await open_socket(match.pk, host)
    try:
        await socket.hello()
        frame = {"type": "command", "id": "once", "version": 0, "command": HOST_TEAMS[1]}
        await socket.send(frame)
        assert (await socket.receive_type("ack")) == {"type": "ack", "id": "once", "version": 1, "duplicate": False}
        await socket.receive_until(lambda f: f["type"] == "state")
        await socket.send(frame)
        assert (await socket.receive_type("ack")) == {"type": "ack", "id": "once", "version": 1, "duplicate": True}
        assert await event_count(match.pk) == 1
        assert (await db_match(match.pk)).version == 1
        assert await socket.nothing_more()
    finally:
        await socket.disconnect()


async def test_it_applies_one_of_two_racing_commands(host, guest):
    match = await started_match(host, guest)
    mover = (host, guest)[(await db_match(match.pk)).state["to_move"]]
    tabs = [await open_socket(match.pk, mover), await open_socket(match.pk, mover)]
    try:
        await asyncio.gather(
            *(
                tab.send({"type": "command", "id": f"tab{n}", "version": 2, "command": {"assert": None}})
                for n, tab in enumerate(tabs)
            )
        )
        replies = [await tab.receive_until(lambda f: f["type"] in ("ack", "error")) for tab in tabs]
        kinds = sorted(r[-1]["type"] for r in replies)
        assert kinds == ["ack", "error"]
        error = next(r[-1] for r in replies if r[-1]["type"] == "error")
        assert error["code"] == "stale_version"
        assert (await db_match(match.pk)).version == 3
        assert await event_count(match.pk) == 3
    finally:
        for tab in tabs:
            await tab.disconnect()


def stripped_of_now(frame):
    """The frame without the server's time at sending (``clock.server_time``), new in every frame."""
    return {**frame, "clock": {**frame["clock"], "server_time": None}}


async def test_it_loses_nothing_when_the_server_restarts(host, guest):
    match = await started_match(host, guest)
    await play_skips_and_attacks(match.pk, host, guest, 4)
    socket = await open_socket(match.pk, guest)
    before = (await socket.hello())[-1]
    await socket.disconnect()
    # Nothing lives in the server between sockets: a new one, as after a restart, reads the database.
    socket = await open_socket(match.pk, guest)
    try:
        after = (await socket.hello())[-1]
        assert stripped_of_now(after) == stripped_of_now(before) and after["version"] == 6
        stored = await database_sync_to_async(lambda: list(MatchEvent.objects.filter(match=match).values_list("version", flat=True)))()
        assert stored == [1, 2, 3, 4, 5, 6]
    finally:
        await socket.disconnect()


async def test_it_pushes_the_number_of_spectators(host, guest, outsider):
    match = await database_sync_to_async(live_match)(host, guest)
    player = await open_socket(match.pk, host)
    try:
        first = await open_socket(match.pk)
        assert (await player.receive()) == {"type": "presence", "spectators": 1, "players": [True, False]}
        second = await open_socket(match.pk, outsider)
        assert (await player.receive()) == {"type": "presence", "spectators": 2, "players": [True, False]}
        await first.disconnect()
        assert (await player.receive()) == {"type": "presence", "spectators": 1, "players": [True, False]}
        assert (await second.hello())[-1]["spectators"] == 1
        await second.disconnect()
        assert (await player.receive()) == {"type": "presence", "spectators": 0, "players": [True, False]}
    finally:
        await player.disconnect()


async def test_it_pushes_new_versions_to_every_socket(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = [await open_socket(match.pk, host), await open_socket(match.pk, guest), await open_socket(match.pk)]
    try:
        for socket in sockets:
            await socket.hello()
        await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
        for seat, socket in enumerate(sockets):
            got = [f for f in await socket.receive_until(lambda f: f["type"] == "state") if f["type"] != "presence"]
            assert [f["type"] for f in got] == ["version", "state"]
            expected = GUEST_TEAMS[1]["pick"] if seat == 1 else None
            assert got[0]["events"][0].get("fish") == expected
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_it_tells_the_host_when_the_guest_arrives(host, guest):
    match = await database_sync_to_async(services.create_match)(host)
    socket = await open_socket(match.pk, host)
    try:
        waiting = (await socket.hello())[-1]
        assert (waiting["status"], waiting["view"], waiting["players"]) == ("open", None, ["host", None])
        await database_sync_to_async(services.join_match)(match, guest)
        started = await socket.receive_type("state")
        assert (started["status"], started["version"], started["players"]) == ("live", 0, ["host", "guest"])
        assert started["view"]["phase"] == "pick" and started["pick"]["count"] == 4
    finally:
        await socket.disconnect()


async def test_it_shows_everything_to_everyone_after_a_resignation(host, guest):
    match = await started_match(host, guest)
    player, watcher = await open_socket(match.pk, guest), await open_socket(match.pk)
    try:
        await watcher.hello()
        await player.send({"type": "resign", "id": "bye"})
        assert (await player.receive_type("ack"))["version"] == 3
        got = [f for f in await watcher.receive_until(lambda f: f["type"] == "state") if f["type"] != "presence"]
        assert got[0]["events"] == [{"type": "match_end", "winner": 0, "reason": "resign", "score": [0, 0]}]
        final = got[-1]
        assert (final["status"], final["audience"], final["winner"], final["end_reason"]) == ("finished", "all", 0, "resign")
        assert [f["fish"] for f in final["view"]["teams"][1]] == GUEST_TEAMS[1]["pick"]
        assert final["view"]["teams"][1][3]["mimic_of"] == GUEST_TEAMS[1]["mimic"]
        await player.send({"type": "resign", "id": "bye"})
        assert await player.receive_type("ack") == {"type": "ack", "id": "bye", "version": 3, "duplicate": True}
    finally:
        await player.disconnect()
        await watcher.disconnect()
