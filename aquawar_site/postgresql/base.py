"""Django's PostgreSQL backend, asking a kept connection for its health less often, and writing
JSON with orjson.

With ``CONN_HEALTH_CHECKS`` Django sends ``SELECT 1`` before the first query of every call
(every socket's database call, every request) on a connection it kept from an earlier one. A
busy server makes hundreds of calls a second on the same connection, and those checks were 4-7 %
of its CPU (docs/performance.md, "Fewer round trips per command"). A connection that answered a
whole call without error less than ``FRESH`` seconds ago is taken to be alive, as if that call's
answers had been the check.

What that costs: a connection that dies within ``FRESH`` seconds of its last good call (PostgreSQL
restarted, the backend killed) fails the next call's first query instead of being replaced before
it; that failure marks the connection (``errors_occurred``), and Django closes it at the end of the
call, so the call after it connects anew. A connection can die between a check and the query
after it anyway: callers must already survive one failed call.
"""
import json
import time

import orjson
from django.db.backends.postgresql import base, operations
from psycopg.types.json import Jsonb

FRESH = 1.0


def json_text(value):
    """A JSON column's value as sent: every command sends its match's new state and its events, and
    the standard library's encoder took about a fiftieth of a server's CPU doing it
    (docs/performance.md, "Prepared statements"). The column is ``jsonb``, which keeps the value,
    not the text: the same value either way. What orjson refuses and the standard encoder takes (an
    integer beyond 64 bits) goes to the latter."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(value)


class DatabaseOperations(operations.DatabaseOperations):
    def adapt_json_value(self, value, encoder):
        if encoder is not None:
            return super().adapt_json_value(value, encoder)
        return Jsonb(value, dumps=json_text)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    # time.monotonic() at the end of the connection's last call that used it without error; None
    # for a connection that has not finished such a call yet.
    answered_at = None

    def connect(self):
        super().connect()
        self.answered_at = None

    def close_if_health_check_failed(self):
        if (
            self.connection is not None
            and self.health_check_enabled
            and not self.health_check_done
            and self.answered_at is not None
            and time.monotonic() - self.answered_at < FRESH
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def close_if_unusable_or_obsolete(self):
        # Called as each call ends (and before the next begins): ``health_check_done`` is set once the
        # call took a cursor (a new connection starts with it set), ``errors_occurred`` by any error
        # but a DataError or an IntegrityError, which the database answered.
        if self.connection is not None and self.health_check_done and not self.errors_occurred:
            self.answered_at = time.monotonic()
        super().close_if_unusable_or_obsolete()
