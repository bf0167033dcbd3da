"""The statements every command and every change's fan-out run, as plain SQL.

Compiling a statement with the ORM costs several times what running it does (a command's five
statements took about two thirds of its CPU in the service layer; docs/performance.md, "Load"), so
the hot path writes its SQL once per process and database vendor, and reads rows back through the
ORM's own value converters and ``Model.from_db``, so what it returns is what the ORM would.
Everything else keeps using the ORM.
"""
import threading
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

from . import asyncdb
from .models import PROGRAM_MARKS, BotSeat, Match, MatchEvent

_local = threading.local()
_sql = {}


def _statement(connection, name, build):
    key = (connection.vendor, name)
    sql = _sql.get(key)
    if sql is None:
        sql = _sql[key] = build(connection.ops.quote_name)
    return sql


def _fetch(connection, name, build, params):
    """The rows of the SELECT named ``name`` (written by ``build`` once per vendor) for ``params``."""
    with connection.cursor() as cursor:
        cursor.execute(_statement(connection, name, build), params)
        return cursor.fetchall()


def columns(model, quote, alias=None):
    """The model's concrete columns, in ``Model._meta.concrete_fields`` order, for a SELECT."""
    prefix = f"{alias}." if alias else ""
    return ", ".join(prefix + quote(field.column) for field in model._meta.concrete_fields)


def _converters(model, connection):
    """[(position, converters, column)] for ``model``'s columns, as the ORM's compiler finds them;
    worked out once per thread and database. They depend on the database's backend and the model's
    fields only, never on the connection object they were found with (each is handed the caller's):
    a thread makes rows with two such objects in turn (its own, and ``fanout``'s for the rows made on
    the event loop), and the loop's tasks each have one of their own."""
    cache = getattr(_local, "converters", None)
    if cache is None:
        cache = _local.converters = {}
    key = (model, connection.alias, connection.vendor)
    found = cache.get(key)
    if found is None:
        found = []
        for position, field in enumerate(model._meta.concrete_fields):
            column = field.get_col(model._meta.db_table)
            converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if converters:
                found.append((position, converters, column))
        cache[key] = found
    return found


def from_row(model, row, connection):
    """An instance of ``model`` from the first ``len(concrete_fields)`` values of ``row``, converted
    as the ORM converts what it reads (e.g. text to JSON, SQLite's text to datetimes)."""
    fields = model._meta.concrete_fields
    values = list(row[: len(fields)])
    for position, converters, column in _converters(model, connection):
        for converter in converters:
            values[position] = converter(values[position], column, connection)
    return model.from_db(DEFAULT_DB_ALIAS, [field.attname for field in fields], values)


def valid_match_id(connection, match_id):
    """``match_id`` as an id the database may be asked for, else None (as the ORM answers an id out
    of the column's range: no row, without asking the database, which would refuse it)."""
    try:
        match_id = int(match_id)
    except (TypeError, ValueError):
        return None
    low, high = connection.ops.integer_field_range(Match._meta.pk.get_internal_type())
    return match_id if low <= match_id <= high else None


def locked_match(match_id):
    """The match row, locked until the transaction ends (PostgreSQL; SQLite's transactions hold the
    database's write lock from their first statement), or None. Call inside ``transaction.atomic``."""
    connection = connections[DEFAULT_DB_ALIAS]
    match_id = valid_match_id(connection, match_id)
    if match_id is None:
        return None

    def build(quote):
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        return (
            f"SELECT {columns(Match, quote)} FROM {quote(Match._meta.db_table)}"
            f" WHERE {quote(Match._meta.pk.column)} = %s{lock}"
        )

    found = _fetch(connection, "locked_match", build, [match_id])
    return from_row(Match, found[0], connection) if found else None


def earlier_version(match_id, seat, client_id):
    """The version a command of ``seat`` with this ``client_id`` already made, else None."""
    connection = connections[DEFAULT_DB_ALIAS]

    def build(quote):
        return (
            f"SELECT {quote('version')} FROM {quote(MatchEvent._meta.db_table)}"
            f" WHERE {quote('match_id')} = %s AND {quote('seat')} = %s AND {quote('client_id')} = %s"
        )

    found = _fetch(connection, "earlier_version", build, [match_id, seat, client_id])
    return found[0][0] if found else None


def _prepared(model, values, connection):
    """``{field name: value}`` as the ORM would send each value to the database: [(column, value)]."""
    prepared = []
    for name, value in values.items():
        field = model._meta.get_field(name)
        prepared.append((field.column, field.get_db_prep_save(value, connection)))
    return prepared


def insert_event(values):
    """Insert a ``MatchEvent`` row from ``{field name: value}`` (every field without a database
    default must be there): True, or False (and nothing inserted) if the seat has an event with
    the same non-empty ``client_id`` already. The unique constraint answers that in the insert
    itself, so a command needs no read of the event log before it (``earlier_version``)."""
    connection = connections[DEFAULT_DB_ALIAS]
    prepared = _prepared(MatchEvent, values, connection)
    names = tuple(column for column, _ in prepared)

    def build(quote):
        # The target and its WHERE name the partial unique constraint game_event_unique_client_id
        # (game/models.py), which is how both databases find the index the conflict is about.
        target = ", ".join(quote(MatchEvent._meta.get_field(field).column) for field in ("match", "seat", "client_id"))
        return (
            f"INSERT INTO {quote(MatchEvent._meta.db_table)} ({', '.join(quote(name) for name in names)})"
            f" VALUES ({', '.join(['%s'] * len(names))})"
            f" ON CONFLICT ({target}) WHERE NOT ({quote('client_id')} = '') DO NOTHING"
        )

    with connection.cursor() as cursor:
        cursor.execute(_statement(connection, ("insert_event", names), build), [value for _, value in prepared])
        return cursor.rowcount == 1


def update_match(match_id, values, version=None, status=None, seen=False):
    """Set the match's ``{field name: value}``; only where its version and status are still
    ``version`` and ``status`` when given. Returns the number of rows changed (0 or 1); with
    ``seen``, the row as the update left it, as ``seen_match`` reads it (None if unchanged): the
    sockets of the process that made a change need no read of their own after its doorbell."""
    connection = connections[DEFAULT_DB_ALIAS]
    prepared = _prepared(Match, values, connection)
    names = tuple(column for column, _ in prepared)
    conditions = tuple(name for name, wanted in (("version", version), ("status", status)) if wanted is not None)

    def build(quote):
        where = " AND ".join(f"{quote(name)} = %s" for name in (Match._meta.pk.column, *conditions))
        returning = f" RETURNING {columns(Match, quote, quote(Match._meta.db_table))}, {_seen_with(quote)}" if seen else ""
        return (
            f"UPDATE {quote(Match._meta.db_table)} SET {', '.join(f'{quote(name)} = %s' for name in names)}"
            f" WHERE {where}{returning}"
        )

    params = [value for _, value in prepared] + [match_id] + [value for value in (version, status) if value is not None]
    with connection.cursor() as cursor:
        cursor.execute(_statement(connection, ("update_match", names, conditions, seen), build), params)
        if seen:
            return cursor.fetchone()
        return cursor.rowcount


# What ``seen_match`` brings besides the match's columns, in this order.
SEEN_WITH = ("host's username", "guest's username", "host is a program", "guest is a program",
             "host's bot level", "guest's bot level", "the current version's events")


def _seen_with(quote, latest=None):
    """The SQL of ``SEEN_WITH``: scalar subqueries on the match's row, named by its table's name
    (SQLite's RETURNING takes no alias), so a SELECT and an UPDATE's RETURNING share them.
    ``latest``: the SQL of the current version's events, where the events table cannot show them
    yet (``write_command``)."""
    match = quote(Match._meta.db_table)
    column = {field: f"{match}.{quote(Match._meta.get_field(field).column)}" for field in ("id", "host", "guest", "version")}
    user = get_user_model()._meta
    users, user_id, name = quote(user.db_table), quote(user.pk.column), quote(user.get_field("username").column)
    names = [f"(SELECT u.{name} FROM {users} u WHERE u.{user_id} = {column[seat]})" for seat in ("host", "guest")]
    programs = [
        "(%s)" % " OR ".join(_marked(quote, user, accessor, column[seat]) for accessor in PROGRAM_MARKS)
        for seat in ("host", "guest")
    ]
    bots, bot = BotSeat._meta, {field: quote(BotSeat._meta.get_field(field).column) for field in ("match", "seat", "level")}
    levels = [
        f"(SELECT b.{bot['level']} FROM {quote(bots.db_table)} b WHERE b.{bot['match']} = {column['id']}"
        f" AND b.{bot['seat']} = {seat})"
        for seat in (0, 1)
    ]
    event = {field: quote(MatchEvent._meta.get_field(field).column) for field in ("match", "version", "events")}
    latest = latest or (
        f"(SELECT e.{event['events']} FROM {quote(MatchEvent._meta.db_table)} e"
        f" WHERE e.{event['match']} = {column['id']} AND e.{event['version']} = {column['version']})"
    )
    return ", ".join(names + programs + levels + [latest])


def _marked(quote, user, accessor, seat_column):
    """SQL: the account in ``seat_column`` has a row behind its reverse one-to-one ``accessor``."""
    relation = user.get_field(accessor)
    table, column = quote(relation.related_model._meta.db_table), quote(relation.field.column)
    return f"EXISTS (SELECT 1 FROM {table} WHERE {table}.{column} = {seat_column})"


def seen_match(match_id):
    """The match's row with ``SEEN_WITH`` after its columns, or None (``match_id`` as the database
    has it: ``valid_match_id``)."""
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        cursor.execute(*seen_match_statement(connection, match_id))
        return cursor.fetchone()


async def seen_match_from_loop(connection, match_id):
    """``seen_match`` on the event loop's own connection (``asyncdb.fetch``, which raises
    ``asyncdb.Unavailable`` when it has no answer); ``connection``: a Django connection of the
    process, only for its SQL, never used."""
    found = await asyncdb.fetch(*seen_match_statement(connection, match_id))
    return found[0] if found else None


def seen_match_statement(connection, match_id):
    """``seen_match``'s statement and its parameters, as Django's cursor takes them."""

    def build(quote):
        table = quote(Match._meta.db_table)
        return (
            f"SELECT {columns(Match, quote, table)}, {_seen_with(quote)} FROM {table}"
            f" WHERE {table}.{quote(Match._meta.pk.column)} = %s"
        )

    return _statement(connection, "seen_match", build), [match_id]


def bot_seats(match_id):
    """The match's ``BotSeat`` rows."""
    connection = connections[DEFAULT_DB_ALIAS]

    def build(quote):
        return (
            f"SELECT {columns(BotSeat, quote)} FROM {quote(BotSeat._meta.db_table)}"
            f" WHERE {quote(BotSeat._meta.get_field('match').column)} = %s"
        )

    return [from_row(BotSeat, row, connection) for row in _fetch(connection, "bot_seats", build, [match_id])]


class Written(NamedTuple):
    """What ``write_command`` did."""

    inserted: bool  # False: the seat made this command before (``insert_event``); nothing written
    updated: bool  # False: the match was not at the version and status given; roll back
    bot_seats: list  # the match's ``BotSeat`` rows once both are done (else empty)
    row: tuple  # the match as the update left it, as ``seen_match`` reads it (None unless updated)


def write_command(match_id, event, fields, version, status):
    """A command's write, under the match's lock (``locked_match``, same transaction): insert the
    ``MatchEvent`` row ``event`` as ``insert_event`` does; only if it was inserted, set the match's
    ``fields`` where its version and status are still ``version`` and ``status``, returning the row
    as ``seen_match`` would read it; read its bot seats. One API for both databases; one statement
    on PostgreSQL, three on SQLite, which has no INSERT or UPDATE inside WITH (nothing commits
    between them: SQLite's transaction holds the database's write lock)."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql":
        if not insert_event(event):
            return Written(False, False, [], None)
        row = update_match(match_id, fields, version, status, seen=True)
        if row is None:
            return Written(True, False, [], None)
        return Written(True, True, bot_seats(match_id), row)
    inserting = _prepared(MatchEvent, event, connection)
    setting = _prepared(Match, fields, connection)
    names = (tuple(column for column, _ in inserting), tuple(column for column, _ in setting))

    def build(quote):
        # The parts of a WITH share one snapshot and see one another's writes only through
        # RETURNING: the update waits on the insert through EXISTS (SELECT 1 FROM ins), the row it
        # returns takes the version's events from the insert's RETURNING (the events table, read
        # there, would not have them yet), and the seats are read only when both were made.
        #
        # Why the seats may be read here and not in the locked read: under READ COMMITTED each
        # statement starts with a new snapshot holding every transaction committed up to that
        # instant (PostgreSQL's manual, "Transaction Isolation", Read Committed). This statement
        # starts after the match's row lock is ours, so after the commit of any transaction that
        # held it before us, and sees each seat that transaction added. The locked SELECT took its
        # snapshot before it waited for the lock: the manual's UPDATE/SELECT FOR UPDATE rule gives
        # it the locked row's newest version, but any other table as of the moment it started to
        # wait, so a seat committed meanwhile would be missed there.
        event_table, match_table, pk = quote(MatchEvent._meta.db_table), quote(Match._meta.db_table), quote("id")
        target = ", ".join(quote(MatchEvent._meta.get_field(field).column) for field in ("match", "seat", "client_id"))
        events = quote(MatchEvent._meta.get_field("events").column)
        seen_columns = len(Match._meta.concrete_fields) + len(SEEN_WITH)
        return (
            f"WITH ins AS (INSERT INTO {event_table} ({', '.join(quote(name) for name in names[0])})"
            f" VALUES ({', '.join(['%s'] * len(names[0]))})"
            f" ON CONFLICT ({target}) WHERE NOT ({quote('client_id')} = '') DO NOTHING RETURNING {pk}, {events}),"
            f" upd AS (UPDATE {match_table} SET {', '.join(f'{quote(name)} = %s' for name in names[1])}"
            f" WHERE {quote(Match._meta.pk.column)} = %s AND {quote('version')} = %s AND {quote('status')} = %s"
            f" AND EXISTS (SELECT 1 FROM ins)"
            f" RETURNING {columns(Match, quote, match_table)}, {_seen_with(quote, f'(SELECT {events} FROM ins)')})"
            f" SELECT {columns(BotSeat, quote, 'bot')}, EXISTS (SELECT 1 FROM ins), EXISTS (SELECT 1 FROM upd),"
            f" {', '.join(f'upd.c{n}' for n in range(seen_columns))}"
            f" FROM (VALUES (1)) AS one (x)"
            f" LEFT JOIN (SELECT * FROM upd) AS upd ({', '.join(f'c{n}' for n in range(seen_columns))}) ON TRUE"
            f" LEFT JOIN {quote(BotSeat._meta.db_table)} AS bot"
            f" ON bot.{quote(BotSeat._meta.get_field('match').column)} = %s AND EXISTS (SELECT 1 FROM upd)"
        )

    params = [value for _, value in inserting] + [value for _, value in setting] + [match_id, version, status, match_id]
    rows = _fetch(connection, ("write_command", names), build, params)
    count = len(BotSeat._meta.concrete_fields)
    seats = [from_row(BotSeat, row, connection) for row in rows if row[0] is not None]
    inserted, updated = rows[0][count], rows[0][count + 1]
    return Written(inserted, updated, seats, tuple(rows[0][count + 2:]) if updated else None)


def write_command_if_current(match_id, event, fields, version, status, updated, login):
    """A command's write without a lock or a transaction of its own, for a match the caller believes
    is at ``version``, ``status`` and ``updated`` with no machine in a seat (``services``' path from
    a known row), made while ``login`` (``services.WhileLoggedIn``) holds: one statement on
    PostgreSQL that sets the match's ``fields`` only if all of that still holds (the session row
    exists, unexpired; the account is active, with that password hash, which the session's auth
    hash is made from), and inserts the ``MatchEvent`` row ``event`` only if it did. Returns the row as
    ``seen_match`` would read it, or None (nothing written) if the match was not as believed. A
    seat's repeated ``client_id`` raises the unique constraint's IntegrityError, and the statement
    writes nothing. PostgreSQL only (``writes_without_lock``): SQLite has no INSERT or UPDATE inside WITH.

    Why one statement is safe without the lock. PostgreSQL runs it atomically, and its UPDATE takes
    the match row's lock: a change committed before it either moved the version, the status or
    ``updated`` (every change of a live match does: ``services``, ``programs.seats.claim_seat``), so
    the conditions no longer hold, or it is still running, and the UPDATE waits for it and checks
    the conditions again on the row it left (READ COMMITTED's rule for UPDATE). The bot seats are
    read from the statement's snapshot, which may predate a seat added meanwhile; adding one to a
    live match (``claim_seat``) sets ``updated``, so such a statement writes nothing."""
    sql, params = command_if_current(match_id, event, fields, version, status, updated, login)
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(sql, params)
        return written_if_current(cursor.fetchall())


async def write_command_if_current_from_loop(match_id, event, fields, version, status, updated, login):
    """``write_command_if_current`` on the event loop's own connection (``asyncdb.fetch``, which
    raises ``asyncdb.Unavailable`` when it has no answer), touching no connection of Django's."""
    rows = await asyncdb.fetch(*command_if_current(match_id, event, fields, version, status, updated, login))
    return written_if_current(rows)


def written_if_current(rows):
    """What ``write_command_if_current`` returns, from its statement's rows."""
    return tuple(rows[0]) if rows else None


def command_if_current(match_id, event, fields, version, status, updated, login):
    """``write_command_if_current``'s statement and its parameters, as Django's PostgreSQL cursor
    takes them: (sql, params). Builds nothing but text and values: safe on the event loop."""
    connection = connections[DEFAULT_DB_ALIAS]
    inserting = _prepared(MatchEvent, event, connection)
    setting = _prepared(Match, fields, connection)
    names = (tuple(column for column, _ in inserting), tuple(column for column, _ in setting))

    def build(quote):
        event_table, match_table = quote(MatchEvent._meta.db_table), quote(Match._meta.db_table)
        events = quote(MatchEvent._meta.get_field("events").column)
        seats, seat_match = quote(BotSeat._meta.db_table), quote(BotSeat._meta.get_field("match").column)
        seen_columns = len(Match._meta.concrete_fields) + len(SEEN_WITH)
        user = get_user_model()._meta
        session = {name: quote(Session._meta.get_field(name).column) for name in ("session_key", "expire_date")}
        account = {name: quote(user.get_field(name).column) for name in ("is_active", "password")}
        logged_in = (
            f" AND EXISTS (SELECT 1 FROM {quote(Session._meta.db_table)} s"
            f" WHERE s.{session['session_key']} = %s AND s.{session['expire_date']} > %s)"
            f" AND EXISTS (SELECT 1 FROM {quote(user.db_table)} a WHERE a.{quote(user.pk.column)} = %s"
            f" AND a.{account['is_active']} AND a.{account['password']} = %s)"
        )
        # The update's RETURNING cannot see the insert that waits on it: the version's events
        # come from the insert's RETURNING in the final SELECT instead (the last of SEEN_WITH).
        return (
            f"WITH upd AS (UPDATE {match_table} SET {', '.join(f'{quote(name)} = %s' for name in names[1])}"
            f" WHERE {quote(Match._meta.pk.column)} = %s AND {quote('version')} = %s AND {quote('status')} = %s"
            f" AND {quote('updated')} = %s"
            f" AND NOT EXISTS (SELECT 1 FROM {seats} WHERE {seats}.{seat_match} = {match_table}.{quote('id')})"
            f"{logged_in}"
            f" RETURNING {columns(Match, quote, match_table)}, {_seen_with(quote, 'NULL')}),"
            f" ins AS (INSERT INTO {event_table} ({', '.join(quote(name) for name in names[0])})"
            f" SELECT {', '.join(['%s'] * len(names[0]))} WHERE EXISTS (SELECT 1 FROM upd) RETURNING {events})"
            f" SELECT {', '.join(f'upd.c{n}' for n in range(seen_columns - 1))}, (SELECT {events} FROM ins)"
            f" FROM (SELECT * FROM upd) AS upd ({', '.join(f'c{n}' for n in range(seen_columns))})"
        )

    updated_value = Match._meta.get_field("updated").get_db_prep_save(updated, connection)
    now = Session._meta.get_field("expire_date").get_db_prep_value(timezone.now(), connection)
    params = [value for _, value in setting] + [match_id, version, status, updated_value]
    params += [login.session_key, now, login.user_id, login.password]
    params += [value for _, value in inserting]
    return _statement(connection, ("write_command_if_current", names), build), params


def writes_without_lock():
    """Whether ``write_command_if_current`` may be used here: PostgreSQL, outside a transaction
    (its one statement is then its own transaction, committed when it returns)."""
    connection = connections[DEFAULT_DB_ALIAS]
    return connection.vendor == "postgresql" and not connection.in_atomic_block
