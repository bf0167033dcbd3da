"""What the fault test (bench/chaos.py) relies on, checked in-process on both setups:

- a program that reconnects resumes exactly where it was: ``join`` with the last version it has
  gets the versions after it and a ``state`` (not a ``snapshot`` that would drop the ones in
  between), the same as ``hello``;
- a socket that lost its channel-layer group (a Redis restart forgets every group while sockets
  stay open) still hears of its match, and of who comes and goes, by its process's recheck
  (game/live/recheck.py): program sockets, JSON match sockets and pages alike, and a 三国 game's
  page and program sockets.
"""
import json
import random

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.cache import cache
from redis.exceptions import ConnectionError as RedisConnectionError

from game.live import presence
from game import services
from game.games.aquawar.engine import project
from game.models import Match, MatchEvent
from game.programs import winchances
from game.live.groups import match_group
from sanguo import services as sanguo_services
from sanguo.live import game_group
from tests.bots.helpers import program, random_command, take_seat
from tests.game.helpers import GUEST_TEAMS, live_match, open_socket
from tests.sanguo.helpers import started_game
from tests.sanguo.test_programs import Program as SanguoProgram
from tests.sanguo.test_services import a_submission
from tests.sanguo.test_socket import open_game_socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def program_settings(settings):
    # As in tests/bots: no forfeit on a busy machine, no background sweeps.
    settings.BOT_MOVE_SECONDS = 30
    settings.BOT_SWEEP_SECONDS = 0


async def play_until(socket, version):
    """Play random legal commands until the match is at least at ``version``; the versions seen."""
    rng, seen, waiting, sent = random.Random(3), [], None, 0
    while True:
        frame = await socket.receive()
        if frame["type"] == "version":
            seen.append(frame["version"])
        elif frame["type"] in ("ack", "error") and frame.get("id") == waiting:
            assert frame["type"] == "ack", frame
            waiting = None
        elif frame["type"] in ("state", "snapshot"):
            if frame["version"] >= version and waiting is None:
                return seen, frame
            command = None if waiting else random_command(frame, rng)
            if command is not None:
                sent += 1
                waiting = f"p{sent}"
                await socket.send({"type": "command", "id": waiting, "version": frame["version"], "command": command})


async def test_join_with_a_version_resumes_after_it(host):
    first = await program(host)
    try:
        seated = await take_seat(first, {"type": "play", "level": "random"})
        _seen, state = await play_until(first, 6)
    finally:
        await first.disconnect()
    again = await program(host)
    try:
        await take_seat(again, {"type": "join", "match": seated["match"], "version": 2})
        frames = []
        while not frames or frames[-1]["type"] not in ("state", "snapshot"):
            frames.append(await again.receive())
    finally:
        await again.disconnect()
    # (The built-in bot may have moved once more after the first socket left.)
    assert frames[-1]["type"] == "state" and frames[-1]["version"] >= state["version"]
    assert [f["version"] for f in frames[:-1]] == list(range(3, frames[-1]["version"] + 1))
    logged = await database_sync_to_async(list)(
        MatchEvent.objects.filter(match_id=seated["match"], version__gt=2, version__lte=frames[-1]["version"])
        .order_by("version")
        .values_list("events", flat=True)
    )
    assert [f["events"] for f in frames[:-1]] == [project(events, 0) for events in logged]


@pytest.mark.parametrize("request_extra", [{}, {"version": None}])
async def test_join_without_a_version_still_sends_a_snapshot(host, request_extra):
    socket = await program(host)
    try:
        seated = await take_seat(socket, {"type": "play", "level": "random"})
        await socket.receive_until(lambda f: f["type"] == "snapshot")
    finally:
        await socket.disconnect()
    again = await program(host)
    try:
        await take_seat(again, {"type": "join", "match": seated["match"], **request_extra})
        assert (await again.receive())["type"] == "snapshot"
    finally:
        await again.disconnect()


@pytest.mark.parametrize("version", [-1, "3", True, 1.5])
async def test_join_with_a_bad_version_is_refused(host, guest, version):
    match = await database_sync_to_async(services.create_match)(guest)
    socket = await program(host)
    try:
        refused = await take_seat(socket, {"type": "join", "match": match.pk, "version": version})
        assert refused["type"] == "error" and refused["code"] == "bad_field"
    finally:
        await socket.disconnect()


async def forget_group(group):
    """What a Redis restart does to a socket that stays open: its group membership is gone."""
    layer = get_channel_layer()
    if hasattr(layer, "groups"):  # the in-memory layer
        layer.groups.pop(group, None)
    else:
        async with layer.connection(layer.consistent_hash(group)) as connection:
            await connection.delete(layer._group_key(group))


async def forget_every_group():
    """A Redis restart, as the sockets that stay open see it: no group of this test's layer is left."""
    layer = get_channel_layer()
    if hasattr(layer, "groups"):
        layer.groups.clear()
        return
    async with layer.connection(0) as connection:
        keys = [key async for key in connection.scan_iter(match=f"{layer.prefix}:group:*")]
        if keys:
            await connection.delete(*keys)


async def test_a_socket_that_lost_its_group_still_hears_of_its_match(host, guest, settings):
    settings.RECHECK_SECONDS = 0.2
    socket = await program(host)
    try:
        created = await take_seat(socket, {"type": "create"})
        snapshot = await socket.receive()
        assert snapshot["type"] == "snapshot" and snapshot["status"] == "open"
        await forget_group(match_group(created["match"]))
        match = await database_sync_to_async(Match.objects.get)(pk=created["match"])
        await database_sync_to_async(services.join_match)(match, guest)
        state = await socket.receive_until(lambda f: f["type"] == "state")
        assert state["status"] == "live" and state["pick"] is not None
    finally:
        await socket.disconnect()


async def the_guest_picks_unrung(match, guest):
    """The match moves on while the host's socket is out of its group: its doorbell is lost."""
    await forget_group(match_group(match.pk))
    await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])


@pytest.mark.parametrize("html", [False, True], ids=["json", "page"])
async def test_a_match_socket_that_lost_its_group_still_hears_of_the_move(host, guest, settings, html):
    settings.RECHECK_SECONDS = 0.2
    match = await database_sync_to_async(live_match)(host, guest)
    socket = await open_socket(match.pk, host, html=html)
    try:
        if html:
            await socket.receive_until(lambda f: 'data-version="0"' in f)
        else:
            assert (await socket.hello())[-1]["version"] == 0
        await the_guest_picks_unrung(match, guest)
        if html:
            await socket.receive_until(lambda f: 'data-version="1"' in f)
        else:
            state = await socket.receive_until(lambda f: f["type"] == "state")
            assert state[-1]["version"] == 1
            assert [f["version"] for f in state if f["type"] == "version"] == [1]
    finally:
        await socket.disconnect()


async def test_after_every_group_is_lost_sockets_rejoin_and_hear_who_comes(host, guest, settings):
    settings.RECHECK_SECONDS = 0.2
    match = await database_sync_to_async(live_match)(host, guest)
    socket = await open_socket(match.pk, host)
    try:
        assert (await socket.hello())[-1]["connected"] == [True, False]
        await forget_every_group()
        # Nothing changed in the database: only the canary can tell this socket must re-join.
        await socket.communicator.receive_nothing(timeout=2.5)
        opponent = await open_socket(match.pk, guest)
        try:
            assert await socket.receive() == {"type": "presence", "spectators": 0, "players": [True, True]}
        finally:
            await opponent.disconnect()
    finally:
        await socket.disconnect()


async def test_after_every_group_is_lost_a_spectator_still_hears_of_the_estimates(host, guest, settings):
    settings.RECHECK_SECONDS = 0.2
    cache.clear()  # an estimate already kept is never made, nor rung, again
    match = await database_sync_to_async(live_match)(host, guest)
    spectator = await open_socket(match.pk, address="10.0.0.9")
    try:
        await spectator.hello()
        await forget_every_group()
        await spectator.communicator.receive_nothing(timeout=2.5)
        chance = await database_sync_to_async(winchances.estimate)(match.pk)
        pushed = await spectator.receive_until(lambda f: f["type"] == "win_chance")
        assert pushed[-1] == {"type": "win_chance", "version": match.version, "host": chance}
    finally:
        await spectator.disconnect()


async def test_with_the_recheck_off_a_lost_group_stays_deaf(host, guest, settings):
    """The control for the tests above: what the recheck makes up for does get lost without it."""
    settings.RECHECK_SECONDS = 0
    match = await database_sync_to_async(live_match)(host, guest)
    socket = await open_socket(match.pk, host)
    try:
        await socket.hello()
        await the_guest_picks_unrung(match, guest)
        assert await socket.communicator.receive_nothing(timeout=1.0)
    finally:
        await socket.disconnect()


async def a_sanguo_seat_moves_unrung(row, user, seat):
    """A 三国 seat submits while its sockets are out of the game's group: their doorbell is lost."""
    await forget_group(game_group(row.pk))
    await database_sync_to_async(sanguo_services.command)(row.pk, user, "", a_submission(row, seat))


@pytest.mark.parametrize("recheck", [0.2, 0], ids=["recheck", "control"])
async def test_a_sanguo_page_socket_that_lost_its_group_still_hears_of_its_change(settings, recheck):
    """The control, with the recheck off, stays deaf."""
    settings.RECHECK_SECONDS = recheck
    row, _gm, players = await database_sync_to_async(started_game)()
    socket, connected = await open_game_socket(row.pk, players[0])
    assert connected
    try:
        await a_sanguo_seat_moves_unrung(row, players[0], 0)
        if recheck:
            assert json.loads(await socket.receive_text()) == {"type": "changed"}
        else:
            assert await socket.communicator.receive_nothing(timeout=1.0)
    finally:
        await socket.disconnect()


async def test_a_sanguo_program_that_lost_its_group_is_still_pushed_its_state(settings):
    settings.RECHECK_SECONDS = 0.2
    row, _gm, players = await database_sync_to_async(started_game)()
    program = await SanguoProgram.open(players[0], row.pk)
    try:
        await program.send({"type": "hello"})
        before = await program.until(lambda f: f["type"] == "state")
        await a_sanguo_seat_moves_unrung(row, players[0], 0)
        after = await program.until(lambda f: f["type"] == "state")
        assert after["view"] != before["view"]
    finally:
        await program.disconnect()


async def redis_is_down(*args, **kwargs):
    raise RedisConnectionError("Connection refused")


@pytest.mark.parametrize("failing", ["group_add", "group_send"])
async def test_a_match_socket_the_layer_fails_is_closed_to_be_retried(host, guest, monkeypatch, failing):
    """Redis down while a page connects: joining its group (or telling the others it came) fails.
    Left open, the socket would be deaf; closed with 4013, the page reconnects by itself."""
    match = await database_sync_to_async(live_match)(host, guest)
    monkeypatch.setattr(get_channel_layer(), failing, redis_is_down)
    socket = await open_socket(match.pk, host, html=True)
    assert await socket.closed_with() == 4013
    await socket.disconnect()  # the browser's side of the closing handshake
    # Gone for good, presence row and all: the opponent is not shown a player who is not there.
    assert await database_sync_to_async(presence.players)(match.pk) == [False, False]


async def test_a_program_whose_seat_the_layer_fails_is_closed_to_be_retried(host, monkeypatch):
    socket = await program(host)
    monkeypatch.setattr(get_channel_layer(), "group_add", redis_is_down)
    await socket.send({"type": "play", "level": "random"})
    assert await socket.closed_with() == 4013
