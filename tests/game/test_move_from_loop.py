"""A move between people written from the event loop (``services.apply_known_from_loop``, ``asyncdb``;
PostgreSQL only): acknowledged, rung and seen with no call on the process's database thread; every
case that needs more than its one statement still decided on that thread, as before; a connection
that fails costs no move; two moves that race are both applied, once each."""
import asyncio
import contextlib
import threading
import time

import pytest
from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async
from django.db import connection

from game import asyncdb, games, services
from game.live import fanout, sessions
from game.models import BotSeat, Match, MatchEvent
from game.programs import runner, seats
from tests.security.test_session_end import logout

from .helpers import GUEST_TEAMS, HOST_TEAMS, LockHolder, Socket, live_match, open_socket, session_cookie

FETCH = asyncdb.fetch

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite's writes stay on the database thread"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def no_rows_kept(settings):
    # The process's recheck would ring a socket left behind on a timer: these tests count rings.
    settings.RECHECK_SECONDS = 0
    fanout.clear()
    yield
    fanout.clear()


@pytest.fixture
def statements(monkeypatch):
    """Each move's statement sent on the loop's connection: ("written" | "nothing" | "integrity" |
    "unavailable"), in order; the sockets' reads of the match sent there too
    (tests/game/test_loop_batches.py) are left out."""
    seen = []
    fetch = asyncdb.fetch

    async def counted(sql, params):
        if sql.startswith("SELECT"):
            return await fetch(sql, params)
        try:
            rows = await fetch(sql, params)
        except Exception as error:
            seen.append("integrity" if "unique" in str(error).lower() else "unavailable")
            raise
        seen.append("written" if rows else "nothing")
        return rows

    monkeypatch.setattr(asyncdb, "fetch", counted)
    return seen


@contextlib.asynccontextmanager
async def database_thread_held():
    """The process's one database thread, busy until the block ends: whatever needs it waits."""
    release, busy = threading.Event(), threading.Event()
    held = SyncToAsync.single_thread_executor.submit(lambda: (busy.set(), release.wait(20)))
    assert busy.wait(5)
    try:
        yield
    finally:
        release.set()
        await asyncio.wrap_future(held)


async def players(match, host, guest):
    """The players' sockets on ``match``, said hello (their process has read the match)."""
    sockets = [await open_socket(match.pk, host), await open_socket(match.pk, guest)]
    for socket in sockets:
        await socket.hello()
    return sockets


async def command(socket, client_id, version, move):
    """The acknowledgement of the command (frames of earlier changes before it are passed over)."""
    await socket.send({"type": "command", "id": client_id, "version": version, "command": move})
    return await acknowledged(socket)


async def acknowledged(socket):
    frames = await socket.receive_until(lambda f: f["type"] in ("ack", "error"))
    assert frames[-1]["type"] == "ack", frames[-1]
    return frames[-1]


async def seen_at(socket, version):
    """The socket's frames up to its state frame of ``version``."""
    return await socket.receive_until(lambda f: f["type"] == "state" and f["version"] == version)


async def stored(match_id):
    return await database_sync_to_async(lambda: (
        Match.objects.get(pk=match_id).version,
        list(MatchEvent.objects.filter(match_id=match_id).order_by("version").values_list("version", "seat", "client_id")),
    ))()


async def disconnect(sockets):
    for socket in sockets:
        await socket.disconnect()


async def test_a_move_is_written_acknowledged_and_rung_while_the_database_thread_is_busy(host, guest, statements):
    match = await database_sync_to_async(live_match)(host, guest)
    host_socket, guest_socket = sockets = await players(match, host, guest)
    try:
        async with database_thread_held():
            ack = await command(host_socket, "h", 0, HOST_TEAMS[1])
            assert (ack["version"], ack["duplicate"]) == (1, False)
            assert statements == ["written"]
        # The ring was sent from the loop; hearing it takes the database thread (the sockets' read).
        assert [f["type"] for f in await seen_at(guest_socket, 1)] == ["version", "state"]
        assert await stored(match.pk) == (1, [(1, 0, "h")])
    finally:
        await disconnect(sockets)


async def test_the_row_written_from_the_loop_is_the_row_a_read_finds(host, guest, statements):
    """Read back on the loop's connection with Django's adapters and time zone, the row kept for the
    sockets converts as the ORM's read does (JSON, times, the seen-with columns), whatever time zone
    the database gives a new session."""
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = await players(match, host, guest)
    name = connection.settings_dict["NAME"]
    await database_sync_to_async(lambda: connection.cursor().execute(f'ALTER DATABASE "{name}" SET timezone = \'Asia/Shanghai\''))()
    try:
        await asyncdb.close()
        await command(sockets[0], "h", 0, HOST_TEAMS[1])
        assert statements == ["written"]
        kept = fanout.latest(match.pk)
        read = await database_sync_to_async(fanout.read_match)(match.pk)
        assert [getattr(kept, f.attname) for f in Match._meta.concrete_fields] == [
            getattr(read, f.attname) for f in Match._meta.concrete_fields
        ]
        assert kept.updated.utcoffset().total_seconds() == 0
    finally:
        await database_sync_to_async(lambda: connection.cursor().execute(f'ALTER DATABASE "{name}" RESET timezone'))()
        await asyncdb.close()
        await disconnect(sockets)


async def test_a_row_the_match_moved_past_takes_the_locked_path(host, guest, statements):
    """The guest's pick made by another process: this one's row is old, its statement writes nothing."""
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = await players(match, host, guest)
    services.applied.disconnect(dispatch_uid="fanout.written")
    try:
        await database_sync_to_async(services.apply_command)(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    finally:
        services.applied.connect(fanout.written, dispatch_uid="fanout.written")
    try:
        ack = await command(sockets[0], "h", 0, HOST_TEAMS[1])
        assert (ack["version"], ack["duplicate"]) == (2, False)
        assert statements == ["nothing"]
        assert await stored(match.pk) == (2, [(1, 1, "g"), (2, 0, "h")])
    finally:
        await disconnect(sockets)


async def test_a_repeated_client_id_is_acknowledged_with_the_version_it_made(host, guest, statements):
    match = await database_sync_to_async(live_match)(host, guest)
    host_socket, guest_socket = sockets = await players(match, host, guest)
    try:
        await command(host_socket, "x", 0, HOST_TEAMS[1])
        await command(guest_socket, "g", 1, GUEST_TEAMS[1])
        await seen_at(host_socket, 2)
        game = games.get(match.game)
        row = fanout.latest(match.pk)
        move = game.legal_commands(game.load(row.state), game.to_move(game.load(row.state))[0])[0]
        mover = host_socket if game.to_move(game.load(row.state))[0] == 0 else guest_socket
        client_id = "x" if mover is host_socket else "g"
        ack = await command(mover, client_id, 2, move)
        assert (ack["version"], ack["duplicate"]) == (1 if client_id == "x" else 2, True)
        assert statements == ["written", "written", "integrity"]
        assert (await stored(match.pk))[0] == 2
    finally:
        await disconnect(sockets)


async def test_a_move_on_an_ended_login_writes_nothing_and_closes_the_socket(host, guest, statements, monkeypatch):
    match = await database_sync_to_async(live_match)(host, guest)
    cookie = await database_sync_to_async(session_cookie)(host)
    player = Socket(match.pk, cookie)
    assert await player.connect()
    await player.hello()
    try:
        # The news of the logout lost: the statement itself finds the session gone.
        monkeypatch.setattr("game.live.sessions.send", lambda group, message: None)
        await database_sync_to_async(logout)(cookie)
        await player.send({"type": "command", "id": "h", "version": 0, "command": HOST_TEAMS[1]})
        assert await player.closed_with() == sessions.CLOSE_CODE
        assert statements == ["nothing"]
        assert await stored(match.pk) == (0, [])
    finally:
        await player.disconnect()


async def test_a_timed_match_takes_the_locked_path_for_its_clocks(host, guest, statements):
    match = await database_sync_to_async(
        lambda: services.join_match(services.create_match(host, move_seconds=60), guest)
    )()
    sockets = await players(match, host, guest)
    try:
        assert (await command(sockets[0], "h", 0, HOST_TEAMS[1]))["version"] == 1
        assert statements == []
        after = await database_sync_to_async(Match.objects.get)(pk=match.pk)
        assert after.deadline_0 is None and after.deadline_1 is not None
    finally:
        await disconnect(sockets)


async def test_a_seat_a_program_claimed_takes_the_locked_path(host, guest, statements, monkeypatch):
    monkeypatch.setattr(seats, "wake", lambda match_id: None)
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = await players(match, host, guest)
    try:
        await database_sync_to_async(seats.claim_seat)(match.pk, host)
        assert (await command(sockets[1], "g", 0, GUEST_TEAMS[1]))["version"] == 1
        # The row this process had predates the claim: the statement wrote nothing.
        assert statements == ["nothing"]
        assert (await database_sync_to_async(BotSeat.objects.get)(match_id=match.pk)).deadline is not None
    finally:
        await disconnect(sockets)


async def test_a_move_that_ends_the_match_takes_the_locked_path(host, guest, statements, monkeypatch):
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = await players(match, host, guest)
    monkeypatch.setattr(type(games.get(match.game)), "outcome", lambda self, state: (0, "test"))
    ended = []
    services.match_ended.connect(lambda sender, match, **kwargs: ended.append(match.pk), weak=False,
                                 dispatch_uid="test-ended")
    try:
        assert (await command(sockets[0], "h", 0, HOST_TEAMS[1]))["version"] == 1
        assert statements == [] and ended == [match.pk]
        assert (await database_sync_to_async(Match.objects.get)(pk=match.pk)).status == Match.Status.FINISHED
    finally:
        services.match_ended.disconnect(dispatch_uid="test-ended")
        await disconnect(sockets)


async def backend_of_the_loop_s_connection():
    """Its backend's process id (made if there is none), asked past the ``statements`` fixture."""
    rows = await FETCH("SELECT pg_backend_pid()", [])
    return rows[0][0]


async def test_a_killed_connection_costs_no_move_and_the_next_is_written_from_the_loop_again(host, guest, statements):
    match = await database_sync_to_async(live_match)(host, guest)
    host_socket, guest_socket = sockets = await players(match, host, guest)
    try:
        await command(host_socket, "h", 0, HOST_TEAMS[1])
        killed = await backend_of_the_loop_s_connection()
        await database_sync_to_async(
            lambda: connection.cursor().execute("SELECT pg_terminate_backend(%s)", [killed])
        )()
        ack = await command(guest_socket, "g", 1, GUEST_TEAMS[1])
        assert (ack["version"], ack["duplicate"]) == (2, False)
        await seen_at(host_socket, 2)
        game = games.get(match.game)
        state = game.load(fanout.latest(match.pk).state)
        mover = game.to_move(state)[0]
        async with database_thread_held():
            ack = await command(sockets[mover], "next", 2, game.legal_commands(state, mover)[0])
        assert (ack["version"], ack["duplicate"]) == (3, False)
        assert statements == ["written", "unavailable", "written"]
        assert await backend_of_the_loop_s_connection() != killed
        assert (await stored(match.pk))[0] == 3
    finally:
        await disconnect(sockets)


async def test_a_connection_closed_under_it_is_made_again(host, guest, statements):
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = await players(match, host, guest)
    try:
        await backend_of_the_loop_s_connection()
        await asyncdb.close()
        async with database_thread_held():
            assert (await command(sockets[0], "h", 0, HOST_TEAMS[1]))["version"] == 1
        assert statements == ["written"]
    finally:
        await disconnect(sockets)


async def test_a_move_committed_whose_answer_was_lost_is_acknowledged_and_rung(host, guest, monkeypatch):
    """The connection failed after the commit: the database thread's path finds the move made (its
    client id) and acknowledges it as made before, and it is rung, or the opponent would not hear it."""
    fetch = asyncdb.fetch

    async def answer_lost(sql, params):
        await fetch(sql, params)
        raise asyncdb.Unavailable

    match = await database_sync_to_async(live_match)(host, guest)
    host_socket, guest_socket = sockets = await players(match, host, guest)
    monkeypatch.setattr(asyncdb, "fetch", answer_lost)
    try:
        ack = await command(host_socket, "h", 0, HOST_TEAMS[1])
        assert (ack["version"], ack["duplicate"]) == (1, True)
        assert [f["type"] for f in await seen_at(guest_socket, 1)] == ["version", "state"]
        assert await stored(match.pk) == (1, [(1, 0, "h")])
    finally:
        await disconnect(sockets)


async def test_two_moves_written_from_the_same_row_are_both_applied_once(host, guest, statements, monkeypatch):
    """Both picks are planned from version 0 while the match's row is held: the first statement makes
    version 1, the second finds the match moved on and the locked path applies it at version 2."""
    match = await database_sync_to_async(live_match)(host, guest)
    host_socket, guest_socket = sockets = await players(match, host, guest)
    planned, both = [], threading.Event()
    plan = services._planned

    def counted(*args):
        planned.append(plan(*args))
        if len(planned) == 2:
            both.set()
        return planned[-1]

    monkeypatch.setattr(services, "_planned", counted)
    holder = await database_sync_to_async(LockHolder)(match.pk, lambda: both.wait(10))
    holder.waiter = await backend_of_the_loop_s_connection()
    holder.start()
    try:
        await host_socket.send({"type": "command", "id": "h", "version": 0, "command": HOST_TEAMS[1]})
        await guest_socket.send({"type": "command", "id": "g", "version": 0, "command": GUEST_TEAMS[1]})
        acks = [await acknowledged(host_socket), await acknowledged(guest_socket)]
        await asyncio.get_running_loop().run_in_executor(None, holder.join)
        assert holder.failed == [] and len(planned) == 2
        assert sorted(ack["version"] for ack in acks) == [1, 2] and not any(ack["duplicate"] for ack in acks)
        assert sorted(statements) == ["nothing", "written"]
        version, events = await stored(match.pk)
        assert version == 2 and sorted((seat, client_id) for _, seat, client_id in events) == [(0, "h"), (1, "g")]
    finally:
        await disconnect(sockets)


async def test_a_change_committed_while_the_statement_waited_for_the_lock_stops_it(host, guest, statements):
    """The guest's pick is committed by a transaction that held the match's row while the host's
    statement waited for it: the statement finds the version moved and writes nothing (READ
    COMMITTED's recheck of the updated row), and the locked path applies the host's pick after it."""
    match = await database_sync_to_async(live_match)(host, guest)
    sockets = await players(match, host, guest)
    holder = await database_sync_to_async(LockHolder)(
        match.pk, lambda: services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    )
    holder.waiter = await backend_of_the_loop_s_connection()
    holder.start()
    try:
        ack = await command(sockets[0], "h", 0, HOST_TEAMS[1])
        await asyncio.get_running_loop().run_in_executor(None, holder.join)
        assert holder.failed == []
        assert (ack["version"], ack["duplicate"]) == (2, False)
        assert statements == ["nothing"]
        assert await stored(match.pk) == (2, [(1, 1, "g"), (2, 0, "h")])
    finally:
        await disconnect(sockets)


def test_the_loop_s_connection_is_closed_when_its_loop_ends():
    """Tests, and asgiref's ``async_to_sync``, make a loop after another: none may leave its backend
    behind (the test database could not be dropped, and PostgreSQL's connections would run out)."""
    async def backend():
        return await backend_of_the_loop_s_connection()

    with asyncio.Runner() as runner:
        pid = runner.run(backend())
        # Kept past its end, as whatever made a loop may keep it: its connection must not wait for
        # the loop's collection to be closed.
        ended = runner.get_loop()
    with connection.cursor() as cursor:
        for _ in range(100):
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
            if cursor.fetchone() == (0,):
                return
            time.sleep(0.05)
    pytest.fail(f"backend {pid} of {ended} is still there")
