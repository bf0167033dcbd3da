"""The event loop's own PostgreSQL connection, for a move's one statement (``services.apply_known_from_loop``)
and a change's read of the match (``fanout.Batch.finish``).

Every call on a process's one database thread (``database_sync_to_async``) costs a thread hop each
way, a future, the context's copy and Django's ``close_old_connections`` before and after: about
115 µs of CPU on an idle process, more under load, as much as the move's own statement
(docs/performance.md, "A move written from the event loop"). The statement of a move between
people needs no transaction and no lock, so it is sent from the event loop itself, on a psycopg
``AsyncConnection`` of the loop's own, and nothing waits on the database thread.

One connection per event loop, autocommit, made when first asked for from Django's settings for
the default database as they are then (the tests' database is renamed after start-up), with
Django's adapters and time zone, so that what it reads back converts as the ORM's reads do. After
any error but a unique constraint's (which the database answered) the connection is dropped and
``Unavailable`` raised: the caller takes the path through the database thread, and the next call
connects anew. Closed when its loop ends (``asyncio.run``, asgiref and pytest-asyncio cancel
the loop's tasks then: the connection's keeper closes it as it is cancelled).
"""
import asyncio
import logging
import weakref

import psycopg
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections

logger = logging.getLogger(__name__)


class Unavailable(Exception):
    """The loop's connection could not be had, or failed under the statement, which may then have
    been committed or not: the caller must take a path that finds out (a repeated client id is
    acknowledged there)."""


class _Held:
    """A loop's connection (None until made, and after it failed) and the lock under which it is made."""

    def __init__(self):
        self.connection = None
        self.making = asyncio.Lock()
        self.keeper = None


# Event loop -> its ``_Held``; a loop that is gone takes its entry with it.
_held = weakref.WeakKeyDictionary()


def usable():
    """Whether the default database is one this module can reach: PostgreSQL (SQLite's writes stay on
    the database thread, which holds the database's one write lock between them)."""
    return connections[DEFAULT_DB_ALIAS].vendor == "postgresql"


async def fetch(sql, params):
    """The rows of the statement ``sql`` with ``params`` (Django's placeholders, bound on the client
    as Django binds them), committed when it returns. Raises Django's ``IntegrityError`` for a
    constraint the statement broke (nothing written), ``Unavailable`` for anything else."""
    connection = await _connection()
    try:
        cursor = await connection.execute(sql, params)
        return await cursor.fetchall()
    except psycopg.IntegrityError as error:
        raise IntegrityError(*error.args) from error
    except (psycopg.Error, OSError) as error:
        logger.warning("The event loop's database connection failed; it is made again for the next statement", exc_info=True)
        await _drop(connection)
        raise Unavailable from error


async def _connection():
    held = _held.get(asyncio.get_running_loop())
    if held is None:
        held = _held[asyncio.get_running_loop()] = _Held()
    if held.connection is not None:
        return held.connection
    async with held.making:
        if held.connection is None:
            try:
                held.connection = await _connect()
            except (psycopg.Error, OSError) as error:
                raise Unavailable from error
            if held.keeper is None:
                held.keeper = asyncio.get_running_loop().create_task(_keep(held))
    return held.connection


async def _connect():
    wrapper = connections[DEFAULT_DB_ALIAS]
    params = wrapper.get_connection_params()
    # The statement is built as Django's cursor would run it (``plainsql``): its class is a blocking
    # one, this the same for asyncio, binding where Django's does (on the server in production).
    server_side = wrapper.settings_dict["OPTIONS"].get("server_side_binding") is True
    params["cursor_factory"] = psycopg.AsyncCursor if server_side else psycopg.AsyncClientCursor
    connection = await psycopg.AsyncConnection.connect(**params, autocommit=True)
    try:
        # Django's timestamptz loader stamps what it reads with its time zone without converting:
        # the session must be in that zone, as Django's own connections are (``ensure_timezone``).
        if wrapper.timezone_name and connection.info.parameter_status("TimeZone") != wrapper.timezone_name:
            await connection.execute(wrapper.ops.set_time_zone_sql(), [wrapper.timezone_name])
        role = wrapper.settings_dict["OPTIONS"].get("assume_role")
        if role:
            await connection.execute(wrapper.ops.compose_sql("SET ROLE %s", [role]))
    except BaseException:
        await connection.close()
        raise
    return connection


async def _drop(connection):
    """Forget a connection that failed, and close it."""
    held = _held.get(asyncio.get_running_loop())
    if held is not None and held.connection is connection:
        held.connection = None
    await connection.close()


async def _keep(held):
    """Wait for the loop's end, then close its connection."""
    try:
        await asyncio.Event().wait()
    finally:
        if held.connection is not None:
            connection, held.connection = held.connection, None
            await connection.close()


async def close():
    """Close this loop's connection now (the next statement connects anew)."""
    held = _held.get(asyncio.get_running_loop())
    if held is not None and held.connection is not None:
        connection, held.connection = held.connection, None
        await connection.close()
