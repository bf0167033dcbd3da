"""The command's statements as plain SQL (game/plainsql.py) read and write what the ORM would."""

import pytest
from django.db import connection as django_connection, connections, transaction
from django.utils import timezone

from game import plainsql, services
from game.models import BotSeat, Match, MatchEvent
from game.programs import runner, seats

from .helpers import HOST_TEAMS, LockHolder, live_match, matches_in_each_status

pytestmark = pytest.mark.django_db


def field_values(instance):
    return [getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields]


def test_the_locked_read_finds_every_field_as_the_orm_does(host, guest):
    waiting, live, over = matches_in_each_status(host, guest)
    for match in (waiting, live, over):
        assert field_values(plainsql.locked_match(match.pk)) == field_values(Match.objects.get(pk=match.pk))


@pytest.mark.parametrize("match_id", [10**9, 2**63, -(2**63) - 1, "7x", None])
def test_an_id_that_names_no_match_reads_nothing(match_id):
    assert plainsql.locked_match(match_id) is None


def test_the_duplicate_check_finds_the_version_of_the_same_seat_and_client_id_only(host, guest):
    match = live_match(host, guest)
    services.apply_command(match.pk, host, "pick-1", 0, HOST_TEAMS[1])
    assert plainsql.earlier_version(match.pk, 0, "pick-1") == 1
    assert plainsql.earlier_version(match.pk, 1, "pick-1") is None
    assert plainsql.earlier_version(match.pk, 0, "pick-2") is None


def test_an_inserted_event_reads_back_as_the_orm_stores_it(host, guest):
    match = live_match(host, guest)
    now = timezone.now()
    command = {"assert": {"target": 2, "species": "sunfish"}, "text": "引号 \"quoted\""}
    events = [{"type": "hp", "value": [1, 2.5, None]}]
    assert plainsql.insert_event(
        {"match": match.pk, "version": 7, "seat": 1, "client_id": "c", "command": command, "events": events,
         "created": now}
    )
    stored = MatchEvent.objects.get(match=match, version=7)
    assert (stored.seat, stored.client_id, stored.command, stored.events, stored.win_chance) == (
        1, "c", command, events, None
    )
    assert stored.created == now


def test_the_update_changes_the_match_only_at_the_version_and_status_it_was_read_at(host, guest):
    match = live_match(host, guest)
    now = timezone.now()
    assert plainsql.update_match(match.pk, {"version": 5, "updated": now}, version=1, status=Match.Status.LIVE) == 0
    assert plainsql.update_match(match.pk, {"version": 5}, version=0, status=Match.Status.FINISHED) == 0
    assert Match.objects.get(pk=match.pk).version == 0
    fields = {"version": 1, "state": {"phase": "x"}, "status": Match.Status.FINISHED, "winner": 1, "finished": now}
    assert plainsql.update_match(match.pk, fields, version=0, status=Match.Status.LIVE) == 1
    stored = Match.objects.get(pk=match.pk)
    assert (stored.version, stored.state, stored.status, stored.winner, stored.finished) == (
        1, {"phase": "x"}, "finished", 1, now
    )


def test_the_bot_seats_read_finds_what_the_orm_finds(guest, monkeypatch):
    # Nobody moves for the computer meanwhile (its deadline is what is compared).
    monkeypatch.setattr(seats, "wake", lambda match_id: None)
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    match = seats.start_vs_computer(guest, "random")
    BotSeat.objects.filter(match=match).update(deadline=timezone.now())
    expected = sorted(map(field_values, BotSeat.objects.filter(match=match)), key=repr)
    assert expected and sorted(map(field_values, plainsql.bot_seats(match.pk)), key=repr) == expected
    assert plainsql.bot_seats(10**9) == []


def test_the_insert_answers_a_seat_s_repeated_client_id_by_inserting_nothing(host, guest):
    match = live_match(host, guest)
    row = {"match": match.pk, "seat": 0, "command": {}, "events": [], "created": timezone.now()}
    assert plainsql.insert_event({**row, "version": 1, "client_id": "same"})
    assert not plainsql.insert_event({**row, "version": 2, "client_id": "same"})
    # Another seat's, or no client id at all, is no repeat.
    assert plainsql.insert_event({**row, "version": 2, "seat": 1, "client_id": "same"})
    assert plainsql.insert_event({**row, "version": 3, "client_id": ""})
    assert plainsql.insert_event({**row, "version": 4, "client_id": ""})
    assert list(MatchEvent.objects.filter(match=match).values_list("version", "seat", "client_id")) == [
        (1, 0, "same"), (2, 1, "same"), (3, 0, ""), (4, 0, "")
    ]


@pytest.fixture
def vs_computer(guest, monkeypatch):
    """A live match of ``guest`` against the computer (a ``BotSeat``), whose deadline is set, and
    nobody moving for the computer meanwhile."""
    monkeypatch.setattr(seats, "wake", lambda match_id: None)
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    match = seats.start_vs_computer(guest, "random")
    BotSeat.objects.filter(match=match).update(deadline=timezone.now())
    return Match.objects.get(pk=match.pk)


def a_command(match, client_id="c", seat=1):
    """(event, fields) of a command at the match's next version, as ``services._change`` writes them."""
    now = timezone.now()
    event = {"match": match.pk, "version": match.version + 1, "seat": seat, "client_id": client_id,
             "command": {"pick": ["x"]}, "events": [{"type": "picked"}], "created": now}
    return event, {"version": match.version + 1, "state": {"phase": "after"}, "updated": now}


def test_the_command_s_write_inserts_updates_and_brings_the_bot_seats_as_the_orm_finds_them(vs_computer):
    match = vs_computer
    event, fields = a_command(match)
    written = plainsql.write_command(match.pk, event, fields, match.version, Match.Status.LIVE)
    assert (written.inserted, written.updated) == (True, True)
    expected = sorted(map(field_values, BotSeat.objects.filter(match=match)), key=repr)
    assert expected and sorted(map(field_values, written.bot_seats), key=repr) == expected
    stored = MatchEvent.objects.get(match=match, version=match.version + 1)
    assert (stored.seat, stored.client_id, stored.command, stored.events, stored.created) == (
        1, "c", event["command"], event["events"], event["created"]
    )
    row = Match.objects.get(pk=match.pk)
    assert (row.version, row.state, row.updated) == (match.version + 1, {"phase": "after"}, fields["updated"])
    # The row it returns is the one a read after it finds, the new version's events included.
    assert written.row == plainsql.seen_match(match.pk)
    assert written.row[-1] is not None


def test_the_command_s_write_brings_no_seats_for_a_match_without_any(host, guest):
    match = live_match(host, guest)
    written = plainsql.write_command(match.pk, *a_command(match), match.version, Match.Status.LIVE)
    assert written[:3] == (True, True, [])
    assert written.row == plainsql.seen_match(match.pk)


def test_the_command_s_write_of_a_repeated_client_id_inserts_and_updates_nothing(vs_computer):
    match = vs_computer
    assert plainsql.write_command(match.pk, *a_command(match, "same"), match.version, Match.Status.LIVE).updated
    again = Match.objects.get(pk=match.pk)
    written = plainsql.write_command(again.pk, *a_command(again, "same"), again.version, Match.Status.LIVE)
    assert written == (False, False, [], None)
    assert Match.objects.get(pk=match.pk).version == match.version + 1
    assert list(MatchEvent.objects.filter(match=match).values_list("version", "client_id")) == [
        (match.version + 1, "same")
    ]
    # Another seat's command with that client id is no repeat.
    assert plainsql.write_command(again.pk, *a_command(again, "same", seat=0), again.version, Match.Status.LIVE)[:2] == (
        True, True
    )


@pytest.mark.parametrize("stale", ["version", "status"])
def test_the_command_s_write_updates_nothing_at_another_version_or_status(vs_computer, stale):
    match = vs_computer
    event, fields = a_command(match)
    version, status = match.version, Match.Status.LIVE
    if stale == "version":
        version += 1
    else:
        status = Match.Status.FINISHED
    # The event is inserted all the same: the service raises on ``updated`` False, which rolls it back.
    assert plainsql.write_command(match.pk, event, fields, version, status) == (True, False, [], None)
    row = Match.objects.get(pk=match.pk)
    assert (row.version, row.state) == (match.version, match.state)


postgresql = pytest.mark.skipif(
    connections["default"].vendor != "postgresql", reason="SQLite has one writer at a time: no lock to wait for"
)


@postgresql
@pytest.mark.django_db(transaction=True)
def test_the_command_s_write_sees_a_seat_committed_by_whoever_held_the_match_lock_while_it_waited(host, guest):
    """The seats come from the write, a statement that starts after the lock is ours; the locked
    read took its snapshot before it waited, when the seat was not committed yet."""
    match = live_match(host, guest)
    holder = LockHolder(match.pk, lambda: BotSeat.objects.create(match_id=match.pk, seat=1, level="random"))
    holder.start()
    with transaction.atomic():
        current = plainsql.locked_match(match.pk)
        written = plainsql.write_command(current.pk, *a_command(current), current.version, Match.Status.LIVE)
    holder.join()
    assert holder.failed == []
    assert (written.inserted, written.updated) == (True, True)
    assert [field_values(seat) for seat in written.bot_seats] == [
        field_values(seat) for seat in BotSeat.objects.filter(match=match)
    ]
    assert [seat.seat for seat in written.bot_seats] == [1]


@pytest.mark.skipif(connections["default"].vendor != "postgresql", reason="prepared statements are PostgreSQL's")
def test_a_statement_run_again_and_again_on_a_connection_is_prepared_there_once(host, guest):
    """PostgreSQL parsed and planned every command's statements anew, a third of its CPU per command
    (docs/performance.md, "Prepared statements"): run often on a connection, the match's read is
    prepared there (one entry, whatever its parameters), and reads what it read before."""
    match = live_match(host, guest)
    connection = connections["default"]
    first = plainsql.seen_match(match.pk)
    for _ in range(6):
        assert plainsql.seen_match(match.pk) == first
    plainsql.seen_match(match.pk + 1)
    sql, _ = plainsql.seen_match_statement(connection, match.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement = %s", [sql.replace("%s", "$1")])
        assert cursor.fetchone()[0] == 1


def test_rows_made_with_two_connection_objects_in_turn_work_their_converters_out_once(host, guest, monkeypatch):
    """A thread makes rows with its own connection and with the one the rows made on the event loop
    use (``fanout._lender``), in turn, and tests with Django's ``connection`` proxy: each row
    converted the same, the converters found once, not again at every change of object."""
    match = live_match(host, guest)
    row = plainsql.seen_match(match.pk)
    expected = field_values(Match.objects.get(pk=match.pk))
    mine, other = connections["default"], connections.create_connection("default")
    asked = []
    for connection in (mine, other):
        get = connection.ops.get_db_converters
        monkeypatch.setattr(connection.ops, "get_db_converters", lambda column, get=get: asked.append(column) or get(column))
    plainsql._local.converters = {}
    made = [plainsql.from_row(Match, row, connection) for connection in (mine, other, django_connection) * 5]
    assert all(field_values(one) == expected for one in made)
    assert len(asked) == len(Match._meta.concrete_fields)
