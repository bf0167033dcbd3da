"""A command written from the row its socket's process already has, in one statement and without
the lock (``services._change_known``, ``plainsql.write_command_if_current``; PostgreSQL only):
it writes exactly what the locked path writes, and whenever that row is not the match's any more,
or the change needs the lock's transaction, the locked path decides instead."""
import copy
import random

import pytest
from django.db import IntegrityError, connection, transaction
from django.contrib.sessions.models import Session
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game import games, plainsql, services
from game.live import fanout
from game.models import BotSeat, Match, MatchEvent
from game.programs import runner, seats

from .helpers import GUEST_TEAMS, HOST_TEAMS, LockHolder, live_match, session_cookie

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has no INSERT or UPDATE inside WITH"),
    # Outside a test's own transaction: the path is taken only where its statement commits itself.
    pytest.mark.django_db(transaction=True),
]

ONE_STATEMENT = "WITH upd AS (UPDATE"


@pytest.fixture(autouse=True)
def no_rows_kept():
    fanout.clear()
    yield
    fanout.clear()


def known(match_id):
    """The match as a socket's process has it after reading it."""
    return fanout.read_match(match_id)


def login_of(user):
    """A session of ``user``'s, as a socket opened with it writes under it."""
    return services.WhileLoggedIn(session_cookie(user).split("=", 1)[1], user.pk, user.password)


def apply(match_id, user, client_id, version, command, row, login=None):
    """What the match socket does (``MatchConsumer.apply_command``), the login's check aside: the
    write from ``row``, else the locked path; (result, the statements made)."""
    login = login or login_of(user)
    with CaptureQueriesContext(connection) as queries:
        result = services.apply_known(row, user, client_id, version, command, login)
        if result is None:
            result = services.apply_command(match_id, user, client_id, version, command)
    return result, [query["sql"] for query in queries.captured_queries]


def stored_events(match_id):
    return list(MatchEvent.objects.filter(match_id=match_id).order_by("version").values_list(
        "version", "seat", "client_id", "command", "events"
    ))


def test_a_command_from_the_match_s_own_row_is_one_statement_that_writes_what_the_locked_path_writes(host, guest):
    quick, locked = live_match(host, guest), live_match(host, guest)
    Match.objects.filter(pk=locked.pk).update(seed=quick.seed, state=quick.state)
    result, statements = apply(quick.pk, host, "h", 0, HOST_TEAMS[1], known(quick.pk))
    assert result == services.Result(1, False)
    assert len(statements) == 1 and statements[0].startswith(ONE_STATEMENT)
    services.apply_command(locked.pk, host, "h", 0, HOST_TEAMS[1])
    one, other = Match.objects.get(pk=quick.pk), Match.objects.get(pk=locked.pk)
    assert (one.version, one.status, one.state) == (other.version, other.status, other.state) == (1, "live", one.state)
    assert stored_events(quick.pk) == stored_events(locked.pk)
    # The row the write returned is kept for the process's sockets, as the locked path's is, and it
    # is the row a read finds.
    kept = fanout.latest(quick.pk)
    read = fanout.read_match(quick.pk)
    assert [getattr(kept, f.attname) for f in Match._meta.concrete_fields] == [
        getattr(read, f.attname) for f in Match._meta.concrete_fields
    ]
    assert fanout.events.get((quick.pk, quick.seed, 1)) == stored_events(quick.pk)[0][4]


@pytest.mark.parametrize("game_name", ["aquawar", "miracle"])
def test_the_rows_shared_with_the_sockets_are_left_as_they_were(host, guest, game_name):
    """The engines change the state they load in place, and the row a command is written from is
    the one the process's sockets draw from: ``Game.load`` must share nothing with the row's state."""
    match = services.join_match(services.create_match(host, game=game_name), guest)
    game = games.get(game_name)
    rng = random.Random(7)
    for version in range(60):
        row = fanout.latest(match.pk) or known(match.pk)
        state = game.load(row.state)
        if game.outcome(state) is not None:
            break
        seat = game.to_move(state)[0]
        command = rng.choice(game.legal_commands(state, seat))
        before = copy.deepcopy(row.state)
        result, statements = apply(match.pk, (host, guest)[seat], f"c{version}", version, command, row)
        assert (row.version, row.state) == (version, before)
        if game.outcome(game.load(Match.objects.get(pk=match.pk).state)) is None:
            assert result == services.Result(version + 1, False) and len(statements) == 1
    assert version > 20


def test_a_row_the_match_has_moved_past_writes_nothing_and_the_locked_path_applies_the_command(host, guest):
    match, twin = live_match(host, guest), live_match(host, guest)
    Match.objects.filter(pk=twin.pk).update(seed=match.seed, state=match.state)
    old = known(match.pk)
    services.apply_command(match.pk, guest, "g", 0, GUEST_TEAMS[1])
    # A pick is blind: made at version 0, it is applied at version 1, on the state the guest's left.
    result, statements = apply(match.pk, host, "h", 0, HOST_TEAMS[1], old)
    assert result == services.Result(2, False)
    assert statements[0].startswith(ONE_STATEMENT) and len(statements) > 1
    assert [(version, seat) for version, seat, *_ in stored_events(match.pk)] == [(1, 1), (2, 0)]
    services.apply_command(twin.pk, guest, "g", 0, GUEST_TEAMS[1])
    services.apply_command(twin.pk, host, "h", 1, HOST_TEAMS[1])
    assert Match.objects.get(pk=match.pk).state == Match.objects.get(pk=twin.pk).state


def test_a_seat_a_program_claimed_after_the_row_was_read_keeps_its_clock_running(host, guest, monkeypatch):
    """Claiming a seat adds a ``BotSeat`` without a new version: the write from a row read before
    must not apply, or the change would not tell the runner about the program's clock."""
    monkeypatch.setattr(seats, "wake", lambda match_id: None)
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    settled = []
    services.settle_requested.connect(lambda sender, match_id, **kwargs: settled.append(match_id), weak=False,
                                      dispatch_uid="test-settled")
    try:
        match = live_match(host, guest)
        row = known(match.pk)
        seats.claim_seat(match.pk, host)
        result, statements = apply(match.pk, guest, "g", 0, GUEST_TEAMS[1], row)
    finally:
        services.settle_requested.disconnect(dispatch_uid="test-settled")
    assert result == services.Result(1, False)
    assert len(statements) > 1
    assert settled == [match.pk]
    assert BotSeat.objects.get(match=match, seat=0).deadline is not None


def test_a_seat_claimed_while_the_write_waited_for_the_lock_stops_the_write(host, guest, monkeypatch):
    """The statement's snapshot may predate the seat: its update, waiting for the claim's lock, finds
    ``updated`` changed once the claim commits, and writes nothing."""
    monkeypatch.setattr(seats, "wake", lambda match_id: None)
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    match = live_match(host, guest)
    row = known(match.pk)
    holder = LockHolder(match.pk, lambda: seats.claim_seat(match.pk, host))
    settled = []
    services.settle_requested.connect(lambda sender, match_id, **kwargs: settled.append(match_id), weak=False,
                                      dispatch_uid="test-settled")
    holder.start()
    try:
        result, statements = apply(match.pk, guest, "g", 0, GUEST_TEAMS[1], row)
    finally:
        holder.join()
        services.settle_requested.disconnect(dispatch_uid="test-settled")
    assert holder.failed == []
    assert result == services.Result(1, False)
    assert statements[0].startswith(ONE_STATEMENT) and len(statements) > 1
    # The locked path saw the program's seat: the runner is told of its clock.
    assert settled == [match.pk]


def test_a_refused_command_is_refused_as_the_locked_path_refuses_it(host, guest):
    match = live_match(host, guest)
    with pytest.raises(services.ServiceError) as refused:
        apply(match.pk, host, "h", 0, {"pick": ["archerfish"]}, known(match.pk))
    assert refused.value.code == "bad_pick" or refused.value.illegal
    assert Match.objects.get(pk=match.pk).version == 0 and stored_events(match.pk) == []


def test_a_command_made_before_is_acknowledged_again_and_written_once(host, guest):
    match = live_match(host, guest)
    assert apply(match.pk, host, "h", 0, HOST_TEAMS[1], known(match.pk))[0] == services.Result(1, False)
    again, _ = apply(match.pk, host, "h", 0, HOST_TEAMS[1], fanout.latest(match.pk))
    assert again == services.Result(1, True)
    assert [version for version, *_ in stored_events(match.pk)] == [1]


def test_the_write_of_a_seat_s_repeated_client_id_raises_and_writes_nothing(host, guest):
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "same", 0, HOST_TEAMS[1])
    current = Match.objects.get(pk=match.pk)
    now = timezone.now()
    event = {"match": match.pk, "version": 2, "seat": 0, "client_id": "same", "command": {"pick": []},
             "events": [], "created": now}
    with pytest.raises(IntegrityError):
        plainsql.write_command_if_current(
            match.pk, event, {"version": 2, "state": {}, "updated": now}, 1, Match.Status.LIVE, current.updated,
            login_of(host),
        )
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.state, after.updated) == (1, current.state, current.updated)


@pytest.mark.parametrize("changed", ["version", "status", "updated"])
def test_the_write_applies_only_to_the_match_as_it_was_read(host, guest, changed):
    match = live_match(host, guest)
    current = Match.objects.get(pk=match.pk)
    version, status, updated = current.version, Match.Status.LIVE, current.updated
    if changed == "version":
        version += 1
    elif changed == "status":
        status = Match.Status.FINISHED
    else:
        updated -= timezone.timedelta(microseconds=1)
    now = timezone.now()
    event = {"match": match.pk, "version": 1, "seat": 0, "client_id": "c", "command": {"pick": []}, "events": [],
             "created": now}
    assert plainsql.write_command_if_current(
        match.pk, event, {"version": 1, "state": {}, "updated": now}, version, status, updated, login_of(host)
    ) is None
    assert Match.objects.get(pk=match.pk).version == 0 and stored_events(match.pk) == []


def test_a_command_that_ends_the_match_takes_the_lock_for_the_end_s_receivers(host, guest, monkeypatch):
    match = live_match(host, guest)
    game = games.get(match.game)
    monkeypatch.setattr(type(game), "outcome", lambda self, state: (0, "test"))
    ended = []
    services.match_ended.connect(lambda sender, match, **kwargs: ended.append(match.pk), weak=False,
                                 dispatch_uid="test-ended")
    try:
        result, statements = apply(match.pk, host, "h", 0, HOST_TEAMS[1], known(match.pk))
    finally:
        services.match_ended.disconnect(dispatch_uid="test-ended")
    assert result == services.Result(1, False)
    assert not statements[0].startswith(ONE_STATEMENT)
    assert ended == [match.pk]
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def test_a_timed_match_takes_the_lock_so_its_clocks_are_written_with_the_command(host, guest):
    match = services.join_match(services.create_match(host, move_seconds=60), guest)
    result, statements = apply(match.pk, host, "h", 0, HOST_TEAMS[1], known(match.pk))
    assert result == services.Result(1, False)
    assert not statements[0].startswith(ONE_STATEMENT)
    after = Match.objects.get(pk=match.pk)
    # The host has picked, the guest still owes a pick: only the guest's clock runs.
    assert after.deadline_0 is None and after.deadline_1 is not None


def test_inside_a_transaction_of_the_caller_the_lock_is_taken(host, guest):
    match = live_match(host, guest)
    row = known(match.pk)
    with transaction.atomic():
        result, statements = apply(match.pk, host, "h", 0, HOST_TEAMS[1], row)
    assert result == services.Result(1, False)
    assert not statements[0].startswith(ONE_STATEMENT)


def test_a_socket_s_process_offers_no_row_of_a_match_against_the_computer(guest, monkeypatch):
    """Its clocks change with every command, under the lock: a lock-free write would be refused."""
    monkeypatch.setattr(seats, "wake", lambda match_id: None)
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    match = seats.start_vs_computer(guest, "random")
    assert known(match.pk) is not None
    assert fanout.latest(match.pk) is None


def test_a_socket_s_process_offers_the_newest_row_it_has_read_or_written(host, guest):
    match = live_match(host, guest)
    assert fanout.latest(match.pk) is None
    at_version_0 = plainsql.seen_match(match.pk)
    fanout.made(at_version_0, connection)
    assert fanout.latest(match.pk).version == 0
    assert services.apply_known(fanout.latest(match.pk), host, "h", 0, HOST_TEAMS[1], login_of(host))
    assert fanout.latest(match.pk).version == 1
    # A read of an older version, made later, does not replace it.
    fanout.made(at_version_0, connection)
    assert fanout.latest(match.pk).version == 1


@pytest.mark.parametrize("ended", ["logged out", "expired", "password changed", "deactivated"])
def test_nothing_is_written_once_the_login_has_ended(host, guest, ended):
    """The write asks the database what the login check asks it: with no cache read before the
    command, a login ended while its news was lost still writes nothing."""
    match = live_match(host, guest)
    login = login_of(host)
    if ended == "logged out":
        Session.objects.filter(session_key=login.session_key).delete()
    elif ended == "expired":
        Session.objects.filter(session_key=login.session_key).update(expire_date=timezone.now())
    elif ended == "password changed":
        host.set_password("another-tidepool-secret")
        host.save()
    else:
        type(host).objects.filter(pk=host.pk).update(is_active=False)
    assert services.apply_known(known(match.pk), host, "h", 0, HOST_TEAMS[1], login) is None
    assert Match.objects.get(pk=match.pk).version == 0 and stored_events(match.pk) == []
    # The same write under a login that holds is made.
    if ended != "deactivated":
        assert services.apply_known(known(match.pk), guest, "g", 0, GUEST_TEAMS[1], login_of(guest)) == (1, False)


def test_another_account_s_login_writes_nothing(host, guest):
    match = live_match(host, guest)
    theirs = login_of(guest)
    assert services.apply_known(known(match.pk), host, "h", 0, HOST_TEAMS[1], theirs._replace(user_id=host.pk)) is None
    assert Match.objects.get(pk=match.pk).version == 0
