"""What the match sockets of one process share when a match changes (game/live/fanout.py): the work per
change must not grow with the sockets watching, and sharing must never cost a version or show one
audience another's view."""
import asyncio
import gc
import json
import random
import threading
import time

import pytest
from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.db.backends import utils as db_utils

from game.live import fanout, frames, groups, presenter
from game.live.consumers import MatchConsumer, sent_key
from game.live.protocol import encode
from game.history import imports
from game import asyncdb, games, services
from game.models import Match, MatchEvent

from .helpers import GUEST_TEAMS, HOST_TEAMS, Socket, live_match, matches_in_each_status, open_socket, tournament_match
from .leaks import hidden_from, leaked, own_available, strip_html, view_all

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def queries(monkeypatch, settings):
    """The SQL statements the sockets' database thread runs (asgiref's single thread, where every
    database call of a socket, and of these tests, runs), and those sent on the event loop's own
    connection (game/asyncdb.py, PostgreSQL), in order. Background threads (bot runner,
    clocks) are left out: they run on timers of their own. So is the process's recheck
    (game/recheck.py, tests/faults/test_resume.py): it shares that thread but runs on a timer."""
    settings.RECHECK_SECONDS = 0
    seen = []
    execute = db_utils.CursorWrapper._execute_with_wrappers
    sockets_thread = SyncToAsync.single_thread_executor.submit(threading.get_ident).result()

    def counting(self, sql, *args, **kwargs):
        if threading.get_ident() == sockets_thread:
            seen.append(sql)
        return execute(self, sql, *args, **kwargs)

    fetch = asyncdb.fetch

    async def counting_on_loop(sql, params):
        seen.append(sql)
        return await fetch(sql, params)

    monkeypatch.setattr(db_utils.CursorWrapper, "_execute_with_wrappers", counting)
    monkeypatch.setattr(asyncdb, "fetch", counting_on_loop)
    return seen


@pytest.fixture
def whole_batches(monkeypatch):
    """Holds a batch, when the database thread or the event loop takes it up, until ``size`` sockets
    have joined it.

    On a busy machine a batch can be taken up before every socket that heard the ring has run its
    handler; a late socket then rightly opens the next batch, and a count of calls or of fragments
    drawn would measure the machine. Held here, the sockets that heard one ring must all end up in
    one batch, which is what these tests check."""
    holding = {"size": 1}
    run = fanout.Batch.run
    finish = fanout.Batch.finish

    def held(self):
        deadline = time.monotonic() + 10
        while len(self.calls) < holding["size"] and time.monotonic() < deadline:
            time.sleep(0.005)
        return run(self)

    async def held_on_loop(self):
        deadline = time.monotonic() + 10
        while len(self.calls) < holding["size"] and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        return await finish(self)

    monkeypatch.setattr(fanout.Batch, "run", held)
    monkeypatch.setattr(fanout.Batch, "finish", held_on_loop)
    return holding


async def watched_match(host, guest, spectators):
    """A live match with both players' sockets and ``spectators`` spectator sockets, all said hello."""
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = [await open_socket(match.pk, host), await open_socket(match.pk, guest)]
    # Anonymous spectators count once per address: these are different people.
    sockets += [await open_socket(match.pk, address=f"10.0.0.{n}") for n in range(spectators)]
    for socket in sockets:
        await socket.hello()
    for socket in sockets:
        # The presence news of the later arrivals.
        while not await socket.nothing_more():
            await socket.receive()
    return match, sockets


@pytest.fixture
def elsewhere():
    """The commands are applied as by another process: this one keeps no row of its own commands
    (``services.applied``), so its sockets read the match after the doorbell as that one's do."""
    services.applied.disconnect(dispatch_uid="fanout.written")
    yield
    services.applied.connect(fanout.written, dispatch_uid="fanout.written")


async def queries_for_one_pick(host, guest, spectators, queries, whole_batches, through_socket=False):
    """The statements a pick costs, its own and every socket's, until every socket has its state;
    ``through_socket``: the host picks on their socket, whose acknowledgement comes first."""
    fanout.clear()
    match, sockets = await watched_match(host, guest, spectators)
    whole_batches["size"] = len(sockets)
    try:
        queries.clear()
        if through_socket:
            await sockets[0].send({"type": "command", "id": "h", "version": 0, "command": HOST_TEAMS[1]})
            assert (await sockets[0].receive_type("ack"))["version"] == 1
        else:
            await database_sync_to_async(services.apply_command)(match.pk, host, "h", 0, HOST_TEAMS[1])
        for socket in sockets:
            got = [f["type"] for f in await socket.receive_until(lambda f: f["type"] == "state")]
            assert got == ["version", "state"]
        for socket in sockets:
            assert await socket.nothing_more()
        return list(queries)
    finally:
        for socket in sockets:
            await socket.disconnect()


# How ``plainsql.seen_match`` starts: the read of a match after its doorbell (the command's own
# locked read names no table before its columns).
READ_AFTER_DOORBELL = 'SELECT "game_match"."id"'


def command_only(match_id, user, queries):
    """The statements of the same pick with no socket open."""
    queries.clear()
    services.apply_command(match_id, user, "h", 0, HOST_TEAMS[1])
    return list(queries)


async def test_a_doorbell_costs_the_process_one_call_on_the_database_thread(host, guest, monkeypatch, whole_batches, elsewhere):
    """The database thread runs every database call of a process's sockets one after another, each
    with a thread hop and a health check: the sockets that heard a ring make one call between them
    where the process must read, on SQLite (tests/game/test_loop_batches.py: where it need not, or
    on PostgreSQL, none)."""
    match, sockets = await watched_match(host, guest, 3)
    whole_batches["size"] = len(sockets)
    executor = SyncToAsync.single_thread_executor
    submitted = []
    submit = executor.submit
    monkeypatch.setattr(executor, "submit", lambda *args, **kwargs: submitted.append(args) or submit(*args, **kwargs))
    try:
        await database_sync_to_async(services.apply_command)(match.pk, host, "h", 0, HOST_TEAMS[1])
        for socket in sockets:
            await socket.receive_until(lambda f: f["type"] == "state")
        # The command's own call, then one for the five sockets; none on PostgreSQL, where their
        # read is made on the event loop's own connection (tests/game/test_loop_batches.py).
        assert len(submitted) == (1 if connection.vendor == "postgresql" else 2)
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_a_change_costs_the_same_queries_with_one_spectator_or_six(host, guest, queries, whole_batches, elsewhere):
    one = await queries_for_one_pick(host, guest, 1, queries, whole_batches)
    six = await queries_for_one_pick(host, guest, 6, queries, whole_batches)
    match = await database_sync_to_async(live_match)(host, guest)
    alone = await database_sync_to_async(command_only)(match.pk, host, queries)
    assert len(six) == len(one), "\n".join(s[:90] for s in ["ONE"] + one + ["SIX"] + six)
    # Eight sockets of one process: one read of the match after the doorbell between them, which
    # brings the new version's events too, and no presence count (nobody came or went).
    shared = len(six) - len(alone)
    assert shared == 1, six[len(alone):]
    assert not any("presence" in sql.lower() for sql in six[len(alone):])


async def test_the_process_that_applied_a_command_reads_nothing_after_its_doorbell(host, guest, queries, whole_batches):
    """The command's update returns the row as the command left it (``services.applied``): the
    sockets of its process that hear its ring use it and make no statement at all."""
    with_sockets = await queries_for_one_pick(host, guest, 2, queries, whole_batches)
    match = await database_sync_to_async(live_match)(host, guest)
    alone = await database_sync_to_async(command_only)(match.pk, host, queries)
    assert len(with_sockets) == len(alone), with_sockets[len(alone):]


async def test_the_socket_that_sent_the_command_uses_the_row_it_kept_once_acknowledged(host, guest, queries, whole_batches):
    """The acting socket's acknowledgement of version 1 does not make the row kept at version 1
    look old to it (``MatchConsumer.stale``): the pick on a socket costs no read either. (On
    PostgreSQL the socket's command is written in one statement from the row its process read at
    the hello, ``services._change_known``: fewer statements than the command alone.)"""
    with_sockets = await queries_for_one_pick(host, guest, 2, queries, whole_batches, through_socket=True)
    match = await database_sync_to_async(live_match)(host, guest)
    alone = await database_sync_to_async(command_only)(match.pk, host, queries)
    assert len(with_sockets) <= len(alone), with_sockets
    assert not any(sql.startswith(READ_AFTER_DOORBELL) for sql in with_sockets), with_sockets


@pytest.fixture
def held_rings(monkeypatch, settings):
    """The doorbells of the changes made from now on, held: [(version, ring)] in the order rung.
    The test delivers them itself (``deliver``), in the order it wants; the process's recheck,
    which rings a socket left behind (game/live/recheck.py), is off."""
    settings.RECHECK_SECONDS = 0
    held = []
    monkeypatch.setattr(groups, "ring_doorbell", lambda match_id, version, ring=None: held.append((version, ring)))
    return held


async def deliver(match, version, ring, channel=None):
    """The doorbell of ``version`` named ``ring``, to every socket on the match or to ``channel``."""
    message = {"type": "match.changed", "version": version, "ring": ring}
    if channel is None:
        await get_channel_layer().group_send(groups.match_group(match.pk), message)
    else:
        await get_channel_layer().send(channel, message)


def versions_in(frames_received):
    return [f["version"] for f in frames_received if f["type"] in ("version", "state", "snapshot")]


async def drain(socket):
    """Receive until nothing more comes (a browser socket's fragments have no type to wait for)."""
    while not await socket.nothing_more():
        await socket.receive()


async def test_a_socket_that_handled_a_later_ring_first_is_not_sent_the_row_kept_for_the_earlier(host, guest, held_rings):
    """Both picks were applied in this process, which kept a row for each ring; the rings reach the
    sockets in the opposite order. The row kept for the earlier ring is older than what every socket
    was just sent: it is read anew (and the same version is sent to nobody twice)."""
    fanout.clear()
    match, sockets = await watched_match(host, guest, 1)
    page = await open_socket(match.pk, html=True, address="10.0.1.1")
    try:
        await drain(page)
        for socket in sockets:
            await drain(socket)
        held_rings.clear()
        await database_sync_to_async(services.apply_command)(match.pk, host, "h", 0, HOST_TEAMS[1])
        await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
        (one, first), (two, second) = held_rings
        assert (one, two) == (1, 2) and isinstance(fanout.rows.get((match.pk, first)), fanout.Kept)
        await deliver(match, two, second)
        for socket in sockets:
            got = await socket.receive_until(lambda f: f["type"] == "state")
            assert versions_in(got) == [1, 2, 2]
        await page.receive()  # the page's update to version 2
        await drain(page)
        await deliver(match, one, first)
        for socket in sockets + [page]:
            assert await socket.nothing_more()
        # The read made for the earlier ring replaced its row: a socket hearing it later uses it.
        assert fanout.rows.get((match.pk, first)).version == 2
    finally:
        for socket in sockets + [page]:
            await socket.disconnect()


async def test_a_socket_is_not_sent_a_row_older_than_the_command_it_had_acknowledged(host, guest, held_rings):
    """The failure of the first try (docs/performance.md, issue #26): the guest's pick (version 1)
    kept its row, its ring still on its way; the host's pick (version 2) was then applied and
    acknowledged on the host's socket. That socket must not show version 1 (where it still had to
    pick) after the acknowledgement; the others may, as they have seen nothing newer."""
    fanout.clear()
    match, sockets = await watched_match(host, guest, 1)
    mine = sockets[0]
    try:
        held_rings.clear()
        await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
        await mine.send({"type": "command", "id": "h", "version": 0, "command": HOST_TEAMS[1]})
        assert (await mine.receive_type("ack"))["version"] == 2
        (one, first), (two, second) = held_rings
        assert (one, two) == (1, 2)
        await deliver(match, one, first)
        got = await mine.receive_until(lambda f: f["type"] in ("state", "snapshot"))
        assert versions_in(got) == [1, 2, 2]
        await deliver(match, two, second)
        assert await mine.nothing_more()
        for socket in sockets[1:]:
            # Version 1's row or the host's newer read, whichever its batch met first; then 2.
            got = await socket.receive_until(lambda f: f["type"] in ("state", "snapshot") and f["version"] == 2)
            assert [f["type"] for f in got if f["type"] != "presence"] in (
                ["version", "state", "version", "state"], ["version", "version", "state"]
            )
            assert versions_in(got) == sorted(versions_in(got))
            assert await socket.nothing_more()
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_a_socket_is_not_sent_the_row_another_socket_read_for_a_ring_before_its_command(
    host, guest, held_rings, monkeypatch, elsewhere
):
    """No kept rows here (``elsewhere``): the spectator's socket read the match for the guest's ring,
    then the host's pick was applied and acknowledged, then the host's socket heard the same ring.
    The spectator's read is older than that acknowledgement, so the host's socket reads anew."""
    fanout.clear()
    channels = []
    layer = get_channel_layer()
    group_add = layer.group_add

    async def joining(group, channel):
        if group.startswith("match-"):
            channels.append(channel)
        await group_add(group, channel)

    monkeypatch.setattr(layer, "group_add", joining)
    match, sockets = await watched_match(host, guest, 1)
    mine, spectator = sockets[0], sockets[2]
    try:
        held_rings.clear()
        await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
        [(one, first)] = held_rings
        await deliver(match, one, first, channels[2])
        assert versions_in(await spectator.receive_until(lambda f: f["type"] == "state")) == [1, 1]
        assert fanout.rows.get((match.pk, first)).version == 1
        await mine.send({"type": "command", "id": "h", "version": 0, "command": HOST_TEAMS[1]})
        assert (await mine.receive_type("ack"))["version"] == 2
        await deliver(match, one, first, channels[0])
        assert versions_in(await mine.receive_until(lambda f: f["type"] in ("state", "snapshot"))) == [1, 2, 2]
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_a_rematch_offer_acknowledged_is_not_undone_by_the_row_kept_for_the_end_before_it(host, guest, held_rings):
    """A rematch answer changes the match without a new version: the row the guest's resignation
    kept (version 1, no offer) is older than the host's offer acknowledged since, at the same version."""
    fanout.clear()
    match, sockets = await watched_match(host, guest, 0)
    mine = sockets[0]
    try:
        held_rings.clear()
        await database_sync_to_async(services.resign)(match, guest, "r")
        await mine.send({"type": "rematch", "id": "m1"})
        assert (await mine.receive_type("rematch"))["status"] == "offered"
        (version, ring), _offer = held_rings
        await deliver(match, version, ring)
        state = (await mine.receive_until(lambda f: f["type"] in ("state", "snapshot")))[-1]
        assert (state["version"], state["status"], state["rematch"]["status"]) == (1, "finished", "offered")
        # The guest acknowledged nothing: the kept row is news to them, then the offer's ring.
        state = (await sockets[1].receive_until(lambda f: f["type"] in ("state", "snapshot")))[-1]
        assert (state["version"], state["status"]) == (1, "finished")
    finally:
        for socket in sockets:
            await socket.disconnect()


def test_a_socket_judges_a_row_by_what_it_was_sent_and_the_newest_change_it_acknowledged(host, guest):
    socket = MatchConsumer()
    socket.user, socket.last_sent, socket.acked = host, None, None
    match = live_match(host, guest)

    def row(version, status=Match.Status.LIVE):
        return Match(pk=match.pk, host=host, guest=guest, version=version, status=status, seed=match.seed)

    assert not socket.stale(row(0))
    socket.acknowledged(3, True)
    # A repeat of an older command, acknowledged again, does not lower what the socket knows.
    socket.acknowledged(1, True)
    assert socket.acked == (3, True)
    assert (socket.stale(row(2)), socket.stale(row(3)), socket.stale(row(4))) == (True, False, False)
    # An abort at version 3: a row at 3 may predate it; and a command acknowledged again at 3 does
    # not make it trusted again.
    socket.acknowledged(3, False)
    socket.acknowledged(3, True)
    assert (socket.stale(row(3)), socket.stale(row(4))) == (True, False)
    socket.acked = None
    socket.last_sent = sent_key(row(5), 0)
    assert (socket.stale(row(4)), socket.stale(row(5)), socket.stale(row(6))) == (True, False, False)
    # Sent the aborted match at 5: the live row at 5 is older or newer, which cannot be told: read.
    socket.last_sent = sent_key(row(5, Match.Status.ABORTED), 0)
    assert socket.stale(row(5)) and not socket.stale(row(5, Match.Status.ABORTED))


def test_the_row_a_command_keeps_is_what_a_read_after_its_doorbell_finds(host, guest):
    kept = []
    written = fanout.written

    def keeping(sender, match_id, ring, row, **kwargs):
        written(sender, match_id, ring, row, **kwargs)
        kept.append((match_id, ring))

    services.applied.disconnect(dispatch_uid="fanout.written")
    services.applied.connect(keeping, dispatch_uid="fanout.written")
    try:
        match = live_match(host, guest)
        for seat, user, teams in ((0, host, HOST_TEAMS[1]), (1, guest, GUEST_TEAMS[1])):
            services.apply_command(match.pk, user, f"c{seat}", 0, teams)
        assert all(isinstance(fanout.rows.get(key), fanout.Kept) for key in kept)
        assert [fanout.match_after(*key).version for key in kept] == [1, 2]
        same_row(frames.load_match(match.pk), fanout.match_after(*kept[-1]))
        fanout.clear()
        services.resign(match, guest, "r")
        assert len(kept) == 3 and len({ring for _match, ring in kept}) == 3
        # Made into a match only when a socket uses it; with the events, so with no read.
        assert isinstance(fanout.rows.get(kept[-1]), fanout.Kept) and len(fanout.events) == 0
        row = fanout.match_after(*kept[-1])
        assert (row.version, row.status, row.deadline_0, row.deadline_1) == (3, "finished", None, None)
        assert fanout.events.get((match.pk, match.seed, 3)) == MatchEvent.objects.get(match=match, version=3).events
        same_row(frames.load_match(match.pk), row)
    finally:
        services.applied.disconnect(dispatch_uid="fanout.written")
        services.applied.connect(written, dispatch_uid="fanout.written")


def test_the_row_of_a_timed_command_holds_its_clocks_and_a_refused_or_rolled_back_one_keeps_none(host, guest, monkeypatch):
    kept = []
    monkeypatch.setattr(services.applied, "send", lambda sender, **kwargs: kept.append(kwargs))
    match = live_match(host, guest)
    Match.objects.filter(pk=match.pk).update(move_seconds=60)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    [applied] = kept
    # As the process's sockets get it after the ring: the write's row and the clocks set after it.
    fanout.written(Match, **applied)
    row = fanout.match_after(match.pk, applied["ring"])
    stored = frames.load_match(match.pk)
    # The host has picked, the guest owes a pick: only the guest's clock runs, as stored.
    assert (row.deadline_0, row.deadline_1) == (stored.deadline_0, stored.deadline_1)
    assert row.deadline_0 is None and row.deadline_1 is not None
    same_row(stored, row)
    with pytest.raises(services.ServiceError):
        services.apply_command(match.pk, host, "x", 1, {"pick": []})

    def fail(sender, match, **kwargs):
        raise RuntimeError("a receiver of the end failed")

    services.match_ended.connect(fail, dispatch_uid="test-fail")
    try:
        with pytest.raises(RuntimeError):
            services.resign(match, guest, "r")
    finally:
        services.match_ended.disconnect(dispatch_uid="test-fail")
    assert len(kept) == 1
    assert frames.load_match(match.pk).version == 1


async def test_a_presence_change_is_counted_once_for_every_socket_of_a_process(host, guest, outsider, queries):
    match, sockets = await watched_match(host, guest, 4)
    try:
        queries.clear()
        newcomer = await open_socket(match.pk, address="10.0.1.1")
        for socket in sockets:
            assert (await socket.receive()) == {"type": "presence", "spectators": 5, "players": [True, True]}
        counts = [sql for sql in queries if "presence" in sql.lower() and "count" in sql.lower()]
        # The newcomer's own check (sockets from its address; none per user for an anonymous
        # spectator) and one count shared by the six sockets that heard of it.
        assert len(counts) == 2, counts
        await newcomer.disconnect()
        for socket in sockets:
            assert (await socket.receive())["spectators"] == 4
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_a_tournament_match_page_s_socket_reads_its_round_once_not_per_change(host, guest, queries):
    """The links row names the match's tournament round; the socket redraws that row when the
    status changes, from what it read once at connect."""
    match = await database_sync_to_async(tournament_match)(host, guest)
    page = await open_socket(match.pk, host, html=True)
    try:
        first = await page.receive_until(lambda text: 'id="match-links"' in text)
        assert "Spring cup, round 1" in first[-1].split('id="match-links"')[1].split("</p>")[0]
        queries.clear()
        await database_sync_to_async(services.resign)(match, guest, "r")
        ended = await page.receive_until(lambda text: 'data-status="finished"' in text)
        links = ended[-1].split('id="match-links"')[1].split("</p>")[0]
        assert "Spring cup, round 1" in links and "Summary and HP chart" in links
        # (The end itself asks whether the match is a tournament's, for the runner: that is all.)
        assert not [sql for sql in queries if "tournaments_tournament" in sql.lower()]
    finally:
        await page.disconnect()


async def test_state_frames_carry_the_counts_of_the_last_presence_change(host, guest):
    match, sockets = await watched_match(host, guest, 2)
    host_socket, guest_socket, first, second = sockets
    try:
        await first.disconnect()
        for socket in (host_socket, guest_socket, second):
            assert (await socket.receive())["spectators"] == 1
        await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
        for socket in (host_socket, guest_socket, second):
            state = (await socket.receive_until(lambda f: f["type"] == "state"))[-1]
            assert (state["spectators"], state["connected"]) == (1, [True, True])
        await guest_socket.disconnect()
        assert (await host_socket.receive())["players"] == [True, False]
        await database_sync_to_async(services.apply_command)(match.pk, host, "h", 0, HOST_TEAMS[1])
        state = (await host_socket.receive_until(lambda f: f["type"] == "state"))[-1]
        assert (state["spectators"], state["connected"]) == (1, [True, False])
    finally:
        for socket in (host_socket, second):
            await socket.disconnect()


async def test_every_socket_gets_its_own_audience_s_view_from_the_shared_parts(host, guest):
    match, sockets = await watched_match(host, guest, 2)
    try:
        await database_sync_to_async(services.apply_command)(match.pk, host, "h", 0, HOST_TEAMS[1])
        await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
        fresh = await database_sync_to_async(Match.objects.select_related("host", "guest").get)(pk=match.pk)
        for seat, socket in zip((0, 1, None, None), sockets):
            got = [f for f in await socket.receive_until(lambda f: f["type"] == "state" and f["version"] == 2)]
            versions = [(f["version"], f["events"]) for f in got if f["type"] == "version"]
            expected = await database_sync_to_async(frames.versions)(fresh, seat, 0)
            assert versions == [(v, e) for v, e in expected]
            state = got[-1]
            truth = await database_sync_to_async(frames.payload)(fresh, seat)
            assert (state["audience"], state["view"], state["legal"], state["pick"]) == (
                truth["audience"], truth["view"], truth["legal"], truth["pick"]
            )
    finally:
        for socket in sockets:
            await socket.disconnect()


def test_a_cached_view_never_serves_another_audience(host, guest):
    fanout.clear()
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "h", 0, HOST_TEAMS[1])
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    match = frames.load_match(match.pk)
    # Each audience asks right after another has filled the cache for the same version.
    for seat in (0, 1, None, 0, None, 1):
        assert fanout.game_part(match, seat) == frames.game_part(match, seat)
        assert fanout.versions(match, seat, 0) == frames.versions(match, seat, 0)
    spectator = fanout.game_part(match, None)[0]
    assert all(fish.get("fish") is None for side in spectator["teams"] for fish in side)


@pytest.mark.parametrize("game_name", ["aquawar", "miracle"])
def test_a_shared_game_part_is_kept_as_bytes_and_sent_as_it_was_made(host, guest, game_name):
    """The parts table keeps each part marshalled, as bytes the garbage collector does not scan (a
    tree of dicts and lists per entry made most of a server's full collections); the part loaded
    from them is the part made fresh, and what a socket is sent from it is the same, byte for byte.
    Random matches of both games, every audience, before the match is over and after."""
    rng = random.Random(26)
    game = games.get(game_name)
    users = (host, guest)
    match = services.join_match(services.create_match(host, game=game_name), guest)
    while True:
        fanout.clear()
        match = frames.load_match(match.pk)
        for seat in (0, 1, None):
            made = fanout.game_part(match, seat)
            kept = fanout.parts.get((match.pk, match.seed, match.version, match.status, frames.audience_for(match, seat)))
            assert isinstance(kept, bytes) and not gc.is_tracked(kept)
            fresh = frames.game_part(match, seat)
            assert made == fanout.game_part(match, seat) == fresh
            sent = encode({**frames.payload(match, seat, fanout.game_part(match, seat)), "clock": None})
            assert sent == encode({**frames.payload(match, seat, fresh), "clock": None})
        if match.status != Match.Status.LIVE:
            return
        state = game.load(match.state)
        seat = game.to_move(state)[0]
        for _ in range(rng.choice((1, 5))):
            command = rng.choice(game.legal_commands(state, seat))
            services.apply_command(match.pk, users[seat], f"c{match.version}", match.version, command)
            match = frames.load_match(match.pk)
            if match.status != Match.Status.LIVE:
                break
            state = game.load(match.state)
            seat = game.to_move(state)[0]


def test_a_read_made_before_a_ring_is_never_used_for_it(host, guest):
    fanout.clear()
    match = live_match(host, guest)
    before = fanout.match_after(match.pk, "ring-1")
    services.cancel_match(match, host)  # a change that keeps the version
    assert fanout.match_after(match.pk, "ring-1") is before  # the same ring: the read made after it
    after = fanout.match_after(match.pk, "ring-2")
    assert (before.status, after.status) == ("live", "cancelled")
    assert fanout.match_after(match.pk) is not after  # an unnamed ring always reads


async def test_a_socket_that_missed_a_doorbell_catches_up_at_the_next(host, guest, monkeypatch):
    match, sockets = await watched_match(host, guest, 1)
    try:
        ring = groups.ring_doorbell
        monkeypatch.setattr(groups, "ring_doorbell", lambda match_id, version, ring=None: None)
        await database_sync_to_async(services.apply_command)(match.pk, host, "h", 0, HOST_TEAMS[1])
        for socket in sockets:
            assert await socket.nothing_more()
        monkeypatch.setattr(groups, "ring_doorbell", ring)
        await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
        for socket in sockets:
            got = [f for f in await socket.receive_until(lambda f: f["type"] == "state") if f["type"] != "presence"]
            assert [(f["type"], f["version"]) for f in got] == [("version", 1), ("version", 2), ("state", 2)]
    finally:
        for socket in sockets:
            await socket.disconnect()


def test_the_shared_tables_are_bounded():
    table = fanout.LRU(3)
    for key in range(5):
        table.put(key, key)
    assert len(table) == 3 and table.get(0) is None and table.get(4) == 4
    table.get(2)  # used: kept over 3, the least recently used now
    table.put(5, 5)
    assert table.get(3) is None and table.get(2) == 2
    assert all(t.size for t in (fanout.rows, fanout.events, fanout.projections, fanout.parts, fanout.counts))


def same_row(plain, fast):
    fields = [field.attname for field in Match._meta.concrete_fields]
    assert [getattr(fast, f) for f in fields] == [getattr(plain, f) for f in fields]
    assert frames.players(fast) == frames.players(plain)
    for seat in (0, 1, None):
        mine, theirs = frames.payload(fast, seat), frames.payload(plain, seat)
        mine["clock"].pop("server_time"), theirs["clock"].pop("server_time")
        assert mine == theirs


def test_the_shared_reads_find_what_the_orm_finds(host, guest):
    waiting, live, over = matches_in_each_status(host, guest)
    for match in (waiting, live, over):
        same_row(frames.load_match(match.pk), fanout.read_match(match.pk))
        fanout.clear()
        fast = fanout.read_match(match.pk)
        stored = dict(MatchEvent.objects.filter(match=match).values_list("version", "events"))
        assert fanout.read_events(match.pk, 0, fast.version) == stored
        # The current version's events came with the row (none for a match at version 0).
        assert fanout.events.get((match.pk, match.seed, fast.version)) == stored.get(fast.version)
    assert fanout.read_match(waiting.pk).guest is None and fanout.read_match(live.pk).host.username == "host"
    assert fanout.read_match(10**9) is None and fanout.read_match(2**63) is None


def test_the_shared_read_knows_which_seats_are_programs_without_another_query(host, guest, monkeypatch):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from game.programs import seats
    from ratings.models import ProgramAccount

    from game.programs import runner

    # The computer's pick, made on another thread, would change the match between the two reads:
    # neither the seat's own wake nor the runner's (a timer left by an earlier test's match of the
    # same id fires it) may set it off.
    monkeypatch.setattr(seats, "wake", lambda match_id: None)
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    ProgramAccount.objects.create(user=host)
    against_level = seats.start_vs_computer(guest, "random")
    between = live_match(host, guest)
    for match, expected in ((against_level, [False, True]), (between, [True, False])):
        same_row(frames.load_match(match.pk), fanout.read_match(match.pk))
        fast = fanout.read_match(match.pk)
        with CaptureQueriesContext(connection) as captured:
            assert frames.programs(fast) == expected
        assert captured.captured_queries == []


def test_the_shared_reads_find_an_imported_match(host, guest):
    from tests.history.helpers import finish, stored_commands

    played = finish(host, guest, 7)
    commands = [{"player": seat, **command} for seat, command in stored_commands(played)]
    record = {"format": "aquawar-record/1", "seed": played.seed, "commands": commands}
    imported = imports.import_record(json.dumps(record).encode(), host)
    same_row(frames.load_match(imported.pk), fanout.read_match(imported.pk))
    assert (imported.host_id, fanout.read_match(imported.pk).host) == (None, None)


async def test_a_command_does_not_wait_for_its_doorbell(host, guest, monkeypatch):
    """The ring is sent by the event loop: the database thread, which every socket of the process
    shares, goes on meanwhile instead of waiting for the channel layer."""
    match, (host_socket, guest_socket) = await watched_match(host, guest, 0)
    layer = get_channel_layer()
    send = layer.group_send

    async def slow(group, message):
        if message["type"] == "match.changed":
            await asyncio.sleep(1.5)
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", slow)
    try:
        started = time.monotonic()
        await host_socket.send({"type": "command", "id": "h", "version": 0, "command": HOST_TEAMS[1]})
        assert (await host_socket.receive_type("ack"))["version"] == 1
        assert time.monotonic() - started < 1.0
        got = await guest_socket.receive_until(lambda f: f["type"] == "state")
        assert [f["type"] for f in got] == ["version", "state"] and time.monotonic() - started >= 1.5
    finally:
        await host_socket.disconnect()
        await guest_socket.disconnect()


async def test_a_doorbell_that_fails_is_logged_and_the_command_stands(host, guest, monkeypatch, caplog):
    match, (host_socket, guest_socket) = await watched_match(host, guest, 0)
    layer = get_channel_layer()
    send = layer.group_send

    async def failing(group, message):
        if message["type"] == "match.changed":
            raise ConnectionError("Redis is away")
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", failing)
    try:
        await host_socket.send({"type": "command", "id": "h", "version": 0, "command": HOST_TEAMS[1]})
        assert (await host_socket.receive_type("ack"))["version"] == 1
        assert await guest_socket.nothing_more()
        assert "doorbell failed" in caplog.text and "Redis is away" in caplog.text
        assert (await database_sync_to_async(Match.objects.get)(pk=match.pk)).version == 1
    finally:
        await host_socket.disconnect()
        await guest_socket.disconnect()


async def test_spectators_of_one_language_share_a_fragment_and_nobody_else_does(host, guest, monkeypatch, whole_batches):
    """The sockets that heard one ring are brought up to date in one database call, where spectators
    drawn from the same inputs share one fragment (fanout.once): a fragment drawn for one audience
    or language must never reach another."""
    match = await database_sync_to_async(live_match)(host, guest)
    viewers = [(await open_socket(match.pk, host, html=True), 0), (await open_socket(match.pk, guest, html=True), 1)]
    for n, cookie in enumerate((None, None, "django_language=zh-hans")):
        socket = Socket(match.pk, cookie, html=True, address=f"10.0.0.{n}")
        assert await socket.connect()
        viewers.append((socket, None))
    try:
        for socket, _seat in viewers:
            await socket.receive_until(lambda text: 'data-version="0"' in text)
            while not await socket.nothing_more():
                await socket.receive()  # the presence news of the later arrivals
        whole_batches["size"] = len(viewers)
        drawn = []
        render_parts = presenter.render_parts
        monkeypatch.setattr(presenter, "render_parts", lambda *args, **kwargs: drawn.append(args) or render_parts(*args, **kwargs))
        await database_sync_to_async(services.apply_command)(match.pk, host, "h", 0, HOST_TEAMS[1])
        got = [(await socket.receive_until(lambda text: 'data-version="1"' in text))[-1] for socket, _seat in viewers]
        after = view_all(await database_sync_to_async(Match.objects.get)(pk=match.pk))
        for text, (_socket, seat) in zip(got, viewers):
            assert not leaked(strip_html(text, own_available(after, seat)), hidden_from(after, seat)), (seat, text)
        host_page, guest_page, english, english_too, chinese = got
        # The host's page names the team the host just picked: served to anyone else, it would leak.
        assert leaked(strip_html(host_page, own_available(after, 1)), hidden_from(after, 1))
        assert english == english_too
        assert len({host_page, guest_page, english, chinese}) == 4
        assert "观战" in chinese and "观战" not in english
        # The host's, the guest's, the English spectators' (once) and the Chinese spectator's.
        assert len(drawn) == 4
    finally:
        for socket, _seat in viewers:
            await socket.disconnect()
