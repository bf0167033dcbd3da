"""Every game on the match socket: a reconnecting socket gets exactly the versions it missed, and a
refused command (illegal, or made by the wrong seat, or against an old position) changes nothing."""
import json

import pytest
from channels.db import database_sync_to_async

from tests.game.helpers import open_socket

from .table import Table, fingerprint, new_match

pytestmark = pytest.mark.django_db(transaction=True)


async def table_for(kit, host, guest):
    match = await database_sync_to_async(new_match)(kit, host, guest)
    return await Table(kit, match, (host, guest)).open(html=False)


@pytest.mark.parametrize("seat", [0, None])
async def test_a_reconnecting_socket_gets_exactly_the_versions_it_missed(kit, host, guest, seat):
    table = await table_for(kit, host, guest)
    user = (host, guest)[seat] if seat is not None else None
    try:
        left_at = (await table.play_out(3, pages=False, until=6)).version
        # Another tab of the same viewer, which leaves here and comes back later.
        leaving = await open_socket(table.match_id, user)
        assert (await leaving.hello(None))[-1]["version"] == left_at
        await leaving.disconnect()
        now = (await table.play_out(3, pages=False, until=left_at + 5)).version
        back = await open_socket(table.match_id, user)
        fresh = await open_socket(table.match_id, user)
        try:
            caught_up = await back.hello(left_at)
            snapshot = (await fresh.hello(None))[-1]
        finally:
            await back.disconnect()
            await fresh.disconnect()
    finally:
        await table.close()
    versions = [f["version"] for f in caught_up if f["type"] == "version"]
    assert versions == list(range(left_at + 1, now + 1))
    state = caught_up[-1]
    assert state["type"] == "state" and state["version"] == now
    # The versions it missed bring it to where a socket that just arrived starts.
    assert snapshot["type"] == "snapshot"
    drop = ("type", "clock", "spectators", "connected")
    assert {k: v for k, v in state.items() if k not in drop} == {k: v for k, v in snapshot.items() if k not in drop}


def refusals(game, adapter, state, seat, version):
    """(frame, why) pairs the seat's socket must refuse at ``version``, whatever the game."""
    command = {"type": "command", "version": version}
    out = [({**command, "command": {}}, "empty"), ({**command, "command": {"no such": ["command"]}}, "nonsense")]
    out += [({**command, "command": c}, "illegal") for c in adapter.illegal_commands(state, seat)]
    due = game.to_move(state)
    other = 1 - seat
    if seat not in due and other in due:
        # The other seat's move, sent by this one.
        out += [({**command, "command": c}, "not theirs") for c in game.legal_commands(state, other)[:3]]
    if seat in due and version > 0:
        stale = [c for c in game.legal_commands(state, seat) if not game.blind(c)][:2]
        out += [({**command, "version": version - 1, "command": c}, "stale") for c in stale]
    return out


async def test_a_refused_command_changes_nothing(kit, host, guest):
    table = await table_for(kit, host, guest)
    refused = 0
    try:
        for until in (0, 3, 9, 16, 25):
            match = await table.play_out(11, pages=False, until=until)
            if match.status != "live":
                break
            state = kit.game.load(match.state)
            before = await database_sync_to_async(fingerprint)(match.pk)
            for seat in (0, 1):
                for n, (frame, why) in enumerate(refusals(kit.game, kit.adapter, state, seat, match.version)):
                    client_id = f"bad-{until}-{seat}-{n}"
                    await table.json[seat].send({**frame, "id": client_id})
                    answer = await table.answer(table.json[seat], client_id)
                    assert answer["type"] == "error" and answer["code"], (why, frame, answer)
                    refused += 1
            assert await database_sync_to_async(fingerprint)(match.pk) == before
            # Nobody was told of a change, because there was none.
            for socket in table.json.values():
                assert await socket.nothing_more()
    finally:
        await table.close()
    assert refused > 30, refused


async def test_a_frame_that_is_no_command_is_refused_on_every_socket(kit, host, guest):
    table = await table_for(kit, host, guest)
    try:
        match = await table.play_out(2, pages=False, until=2)
        before = await database_sync_to_async(fingerprint)(match.pk)
        for seat, socket in table.json.items():
            for text in (" ", "[]", json.dumps({"type": "command", "id": "x1", "version": 0, "command": []})):
                await socket.send(text)
                answer = (await socket.receive_until(lambda f: f["type"] == "error"))[-1]
                assert answer["code"], (seat, text)
        assert await database_sync_to_async(fingerprint)(match.pk) == before
    finally:
        await table.close()
