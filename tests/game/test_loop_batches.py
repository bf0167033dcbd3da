"""A change's fan-out made on the event loop when nothing needs the database (game/offloop.py,
``fanout.together(..., on_loop=True)``), on the database thread otherwise, with the same frames
either way; and the estimate a worker's ring carries to spectators (game/programs/winchances.py)."""
import asyncio
import contextlib
import contextvars
import json
import re

import pytest
from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import connection

from game import asyncdb, offloop, services
from game.games.aquawar.log import LogBook
from game.live import fanout, frames, groups
from game.live.consumers import MatchConsumer
from game.programs import winchances

from .helpers import GUEST_TEAMS, HOST_TEAMS, live_match, open_socket
from . import test_fanout
from .test_fanout import deliver, drain, versions_in

# Fixtures of test_fanout's: commands applied as by another process, doorbells held, batches held
# until every socket has joined.
elsewhere = test_fanout.elsewhere
held_rings = test_fanout.held_rings
whole_batches = test_fanout.whole_batches

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hops(monkeypatch, settings):
    """The calls submitted to the sockets' database thread (asgiref's single thread), in order; the
    process's recheck, which shares that thread on a timer of its own, is off."""
    settings.RECHECK_SECONDS = 0
    executor = SyncToAsync.single_thread_executor
    submitted = []
    submit = executor.submit
    monkeypatch.setattr(executor, "submit", lambda *args, **kwargs: submitted.append(args) or submit(*args, **kwargs))
    return submitted


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


async def sockets_on(match, host, guest, marker):
    """Both players' sockets and two spectators', in each dialect, all brought to the match's state.
    ``marker``: the client addresses' second number, to tell two such sets apart."""
    sockets = []
    for html in (False, True):
        sockets += [
            await open_socket(match.pk, host, html=html, address=f"10.{marker}.{int(html)}.1"),
            await open_socket(match.pk, guest, html=html, address=f"10.{marker}.{int(html)}.2"),
            await open_socket(match.pk, html=html, address=f"10.{marker}.{int(html)}.3"),
            await open_socket(match.pk, html=html, address=f"10.{marker}.{int(html)}.4"),
        ]
    for socket in sockets[:4]:
        await socket.hello()
    return sockets


async def settled(sockets):
    for socket in sockets:
        await drain(socket)
        socket.frames.clear()


async def close(sockets):
    for socket in sockets:
        await socket.disconnect()


@contextlib.asynccontextmanager
async def host_pick_seen(host, guest, hops, whole_batches=None, before_pick=None):
    """A live match with ``sockets_on``'s sockets, brought to the host's pick (version 1) after
    ``hops`` was emptied; yields (match, sockets). ``whole_batches``: hold each batch until every
    socket has joined it; ``before_pick``: called once the sockets have settled."""
    fanout.clear()
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = await sockets_on(match, host, guest, 1)
    try:
        await settled(sockets)
        if whole_batches is not None:
            whole_batches["size"] = len(sockets)
        if before_pick is not None:
            before_pick()
        hops.clear()
        await database_sync_to_async(services.apply_command)(match.pk, host, "h", 0, HOST_TEAMS[1])
        for socket in sockets[:4]:
            assert versions_in(await socket.receive_until(lambda f: f["type"] == "state")) == [1, 1]
        for socket in sockets[4:]:
            await socket.receive_until(lambda text: 'data-version="1"' in text)
        yield match, sockets
    finally:
        await close(sockets)


async def test_a_ring_heard_where_the_command_was_applied_brings_every_socket_up_to_date_with_no_database_call(
    host, guest, hops
):
    """The process keeps the row its command wrote, the version's events with it: its sockets, both
    dialects and every audience, need nothing from the database thread after the ring."""
    async with host_pick_seen(host, guest, hops) as (_match, sockets):
        for socket in sockets:
            await drain(socket)
        # The command's own call, and nothing else.
        assert len(hops) == 1


@pytest.fixture
def on_sqlite():
    if connection.vendor == "postgresql":
        pytest.skip("PostgreSQL reads the row on the event loop's own connection")


@pytest.fixture
def on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the event loop's own connection is PostgreSQL's (game/asyncdb.py)")


@pytest.fixture
def loop_reads(monkeypatch):
    """The statements sent on the event loop's own connection, as their parameters, in order."""
    sent = []
    fetch = asyncdb.fetch

    async def counted(sql, params):
        sent.append(params)
        return await fetch(sql, params)

    monkeypatch.setattr(asyncdb, "fetch", counted)
    return sent


async def test_where_the_row_must_be_read_the_sockets_make_one_call(
    host, guest, hops, elsewhere, caplog, whole_batches, on_sqlite
):
    """Applied by another process, on SQLite: the first socket's read is refused on the loop, and the
    whole batch is made on the database thread."""
    async with host_pick_seen(host, guest, hops, whole_batches):
        assert len(hops) == 2
        # Refused by the read's own question, not by Django's safety net.
        assert "did not ask" not in caplog.text


async def test_where_the_row_must_be_read_the_batch_reads_it_on_the_loop_s_own_connection(
    host, guest, hops, elsewhere, caplog, whole_batches, on_postgresql, loop_reads
):
    """Applied by another process, on PostgreSQL: one read of the row on the event loop's own
    connection serves every socket of the batch, and nothing goes to the database thread but the
    command itself."""
    async with host_pick_seen(host, guest, hops, whole_batches) as (match, sockets):
        for socket in sockets:
            await drain(socket)
        assert len(hops) == 1
        assert loop_reads == [[match.pk]]
        assert "did not ask" not in caplog.text


async def test_where_the_loop_s_connection_has_no_answer_the_batch_is_made_on_the_database_thread(
    host, guest, hops, elsewhere, whole_batches, on_postgresql, monkeypatch
):
    """The loop's connection fails under the read: the batch is made on the database thread, and
    every socket still gets the change."""

    async def unavailable(sql, params):
        raise asyncdb.Unavailable

    failing = host_pick_seen(
        host, guest, hops, whole_batches, before_pick=lambda: monkeypatch.setattr(asyncdb, "fetch", unavailable)
    )
    async with failing:
        assert len(hops) == 2


async def test_a_call_that_comes_while_its_batch_reads_on_the_loop_waits_for_a_read_of_its_own(
    host, guest, on_postgresql, monkeypatch
):
    """A read on the loop must come after everything each socket of its batch had handled: a call
    made while the read is on its way may have handled something newer (its own command,
    acknowledged), so it opens a batch of its own and reads again."""
    match = await database_sync_to_async(live_match)(host, guest)
    fetch = asyncdb.fetch
    began, go = asyncio.Event(), asyncio.Event()
    reads = []

    async def held(sql, params):
        reads.append(params)
        began.set()
        await go.wait()
        return await fetch(sql, params)

    monkeypatch.setattr(asyncdb, "fetch", held)
    fanout.clear()

    def call(shared):
        return fanout.match_for(shared, match.pk, None).version

    first = asyncio.ensure_future(fanout.together(("read", match.pk), call, on_loop=True))
    await began.wait()
    second = asyncio.ensure_future(fanout.together(("read", match.pk), call, on_loop=True))
    await asyncio.sleep(0.05)
    go.set()
    assert await first == 0 and await second == 0
    assert reads == [[match.pk], [match.pk]]


async def test_a_socket_whose_kept_row_is_stale_reads_the_match_anew(host, guest, held_rings, hops, caplog):
    """The guest's pick kept its row (version 1); the host's pick (version 2) was acknowledged on the
    host's socket before the first ring came. The kept row is older than that for the host's socket
    only: its call, and it alone, needs a read, made on the thread (on PostgreSQL on the event
    loop's own connection); the others use the kept row."""
    fanout.clear()
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = (await sockets_on(match, host, guest, 1))[:3]
    mine = sockets[0]
    try:
        await settled(sockets)
        held_rings.clear()
        await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
        await mine.send({"type": "command", "id": "h", "version": 0, "command": HOST_TEAMS[1]})
        assert (await mine.receive_type("ack"))["version"] == 2
        (one, first), _second = held_rings
        hops.clear()
        await deliver(match, one, first)
        assert versions_in(await mine.receive_until(lambda f: f["type"] == "state")) == [1, 2, 2]
        for socket in sockets[1:]:
            # The kept row, or the host's socket's read if its call came first in the batch.
            got = versions_in(await socket.receive_until(lambda f: f["type"] == "state"))
            assert got in ([1, 1], [1, 2, 2])
        assert len(hops) == (0 if connection.vendor == "postgresql" else 1) and "did not ask" not in caplog.text
    finally:
        await close(sockets)


# Whether the match sockets' batches are made on the database thread only (as before the loop was
# tried): set per socket handler, so that one match can have sockets of both kinds.
thread_only = contextvars.ContextVar("thread_only", default=False)


@pytest.fixture
def two_kinds(monkeypatch):
    """Sockets whose client address is 10.2.x.x have every batch made on the database thread."""
    together = fanout.together
    handler = MatchConsumer.match_changed

    async def choosing(key, call, on_loop=False):
        if thread_only.get():
            return await together((*key, "thread only"), call)
        return await together(key, call, on_loop=on_loop)

    async def match_changed(consumer, message):
        thread_only.set(consumer.address.startswith("10.2."))
        await handler(consumer, message)

    monkeypatch.setattr(fanout, "together", choosing)
    monkeypatch.setattr(MatchConsumer, "match_changed", match_changed)


def comparable(socket):
    """What the socket received, less what differs from one moment or one drawing to the next."""
    out = []
    for text in socket.frames:
        if not socket.html:
            frame = json.loads(text)
            if "clock" in frame:
                frame["clock"].pop("server_time")
            text = json.dumps(frame, sort_keys=True)
        # A rematch form's id is new with every drawing.
        out.append(re.sub(r"[0-9a-f]{32}", "<id>", text))
    return out


@pytest.mark.parametrize("applied_here", [True, False])
async def test_the_frames_are_those_the_database_thread_makes(host, guest, two_kinds, request, applied_here):
    """Two sets of the same sockets on one match: one brought up to date as the loop allows, the other
    on the database thread only. Through the picks (made on the loop where the row is kept) and the
    end (the whole log, the ratings: read on the thread), every socket gets exactly what its twin
    gets. Applied by another process (no kept row), the first ring of each change is read."""
    if not applied_here:
        request.getfixturevalue("elsewhere")
    fanout.clear()
    match = await database_sync_to_async(live_match)(host, guest)
    loop_first = await sockets_on(match, host, guest, 1)
    on_thread = await sockets_on(match, host, guest, 2)
    everyone = loop_first + on_thread
    try:
        await settled(everyone)
        await database_sync_to_async(services.apply_command)(match.pk, host, "h", 0, HOST_TEAMS[1])
        await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
        for socket in everyone:
            await socket.receive_until(lambda f: 'data-version="2"' in f if socket.html else f["type"] == "state" and f["version"] == 2)
        await database_sync_to_async(services.resign)(match, guest, "r")
        for socket in everyone:
            await socket.receive_until(lambda f: 'data-status="finished"' in f if socket.html else f.get("status") == "finished")
            await drain(socket)
        for mine, twin in zip(loop_first, on_thread):
            assert comparable(mine) == comparable(twin)
            assert mine.frames
    finally:
        await close(everyone)


async def test_a_call_refused_on_the_loop_had_changed_nothing_of_its_socket(host, guest, monkeypatch, hops):
    """The host's page, the guest away: the status line asks since when (a read), which the loop
    refuses after the version's events were found. The log book must not have read them by then:
    the thread makes the call again from the start, and the book reads each version once."""
    fanout.clear()
    read = []
    entries = LogBook.entries

    def reading(book, versions):
        read.extend(version for version, _events in versions)
        return entries(book, versions)

    monkeypatch.setattr(LogBook, "entries", reading)
    match = await database_sync_to_async(live_match)(host, guest)
    page = await open_socket(match.pk, host, html=True)
    try:
        await drain(page)
        read.clear()
        hops.clear()
        await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
        await page.receive_until(lambda text: 'data-version="1"' in text)
        assert read == [1]
        # The command, then the host page's call made again on the thread.
        assert len(hops) == 2
    finally:
        await page.disconnect()


def test_counts_refused_on_the_loop_are_still_owed_a_fresh_read(host, guest):
    """A socket that must count afresh (it just arrived or took a seat) still must after its call was
    refused on the loop: the thread makes the call again and reads them."""
    fanout.clear()
    match = live_match(host, guest)
    socket = MatchConsumer()
    socket.recount = True
    with offloop.attempt(), pytest.raises(offloop.NeedsDatabase):
        socket.counts(match)
    assert socket.recount
    socket.counts(match)
    assert not socket.recount


async def spectators_and_players(match, host):
    sockets = [
        await open_socket(match.pk, host),
        await open_socket(match.pk, host, html=True),
        await open_socket(match.pk, address="10.0.0.9"),
        await open_socket(match.pk, address="10.0.0.8", html=True),
    ]
    for socket in sockets[::2]:
        await socket.hello()
    return sockets


async def test_the_estimate_a_worker_rings_reaches_spectators_with_no_cache_read_and_no_database_call(
    host, guest, monkeypatch, hops
):
    reads = []
    cached = frames.cached_win_chance
    monkeypatch.setattr(frames, "cached_win_chance", lambda key: reads.append(key) or cached(key))
    rung = []
    send = groups.send
    monkeypatch.setattr(groups, "send", lambda group, message: rung.append(message) or send(group, message))
    match = await database_sync_to_async(live_match)(host, guest)
    player, player_page, spectator, spectator_page = sockets = await spectators_and_players(match, host)
    try:
        await settled(sockets)
        hops.clear()
        reads.clear()
        chance = await database_sync_to_async(winchances.estimate)(match.pk)
        assert [message.get("chance") for message in rung if message["type"] == "win_chance.ready"] == [chance]
        pushed = await spectator.receive_until(lambda f: f["type"] == "win_chance")
        assert pushed[-1] == {"type": "win_chance", "version": match.version, "host": chance}
        drawn = await spectator_page.receive_until(lambda f: f.startswith('<div id="win-chance-value"'))
        assert f"host {round(chance * 100)} %" in drawn[-1]
        for socket in sockets:
            await drain(socket)
        # The estimate's own call; the sockets read nothing, not even the cache.
        assert (len(hops), reads) == (1, [])
    finally:
        await close(sockets)
    # Players: not a frame (their sockets ignore the ring).
    assert player.frames == [] and player_page.frames == []


async def test_a_carried_estimate_serves_a_spectator_whose_socket_must_read_the_match(host, guest, monkeypatch, held_rings):
    """A spectator's socket behind the match (its doorbell still to come) reads the match for the
    estimate's ring, and takes the number the ring carried for that version, not the cache's."""
    reads = []
    cached = frames.cached_win_chance
    monkeypatch.setattr(frames, "cached_win_chance", lambda key: reads.append(key) or cached(key))
    match = await database_sync_to_async(live_match)(host, guest)
    player, player_page, spectator, spectator_page = sockets = await spectators_and_players(match, host)
    try:
        await settled(sockets)
        await database_sync_to_async(services.apply_command)(match.pk, host, "h", 0, HOST_TEAMS[1])
        cache.set(frames.win_chance_key(match.pk, match.seed, 1), 0.25)
        reads.clear()
        ready = {"type": "win_chance.ready", "version": 1, "ring": "carried", "chance": 0.75}
        await get_channel_layer().group_send(groups.match_group(match.pk), ready)
        pushed = await spectator.receive_until(lambda f: f["type"] == "win_chance")
        assert pushed[-1] == {"type": "win_chance", "version": 1, "host": 0.75}
        drawn = await spectator_page.receive_until(lambda f: f.startswith('<div id="win-chance-value"'))
        assert "host 75 %" in drawn[-1]
        for socket in sockets:
            await drain(socket)
        assert reads == []
    finally:
        await close(sockets)
    assert player.frames == [] and player_page.frames == []


async def test_a_ring_without_the_estimate_has_it_read_from_the_cache(host, guest):
    """The rings of a worker that does not carry the number yet (during a deploy) still work."""
    match = await database_sync_to_async(live_match)(host, guest)
    player, player_page, spectator, spectator_page = sockets = await spectators_and_players(match, host)
    try:
        await settled(sockets)
        cache.set(frames.win_chance_key(match.pk, match.seed, 0), 0.25)
        for version, ring in ((0, "at the version"), (None, "unversioned")):
            ready = {"type": "win_chance.ready", "version": version, "ring": ring}
            await get_channel_layer().group_send(groups.match_group(match.pk), ready)
            pushed = await spectator.receive_until(lambda f: f["type"] == "win_chance")
            assert pushed[-1] == {"type": "win_chance", "version": 0, "host": 0.25}
            drawn = await spectator_page.receive_until(lambda f: f.startswith('<div id="win-chance-value"'))
            assert "host 25 %" in drawn[-1]
        for socket in sockets:
            await drain(socket)
    finally:
        await close(sockets)
    assert player.frames == [] and player_page.frames == []
