"""Database connections under ASGI: kept where a thread lives on, closed where it does not.

``CONN_MAX_AGE`` (60 in production) keeps a connection between calls. That pays where a thread
lives on: the match sockets' database thread (one per process, asgiref's single thread) and the
bot runner's workers. Django's ASGI handler, though, runs each HTTP request in a thread of its own
(asgiref's ``ThreadSensitiveContext``), which ends with the request: a connection kept there is
never used again and stays open until the garbage collector reaches the dead thread's storage (5 to
17 idle PostgreSQL connections per process after 100 to 1,500 page loads, measured). So every
request's connections are closed when it finishes, as with ``CONN_MAX_AGE=0``.
"""
from django.db import connections


def close_request_connections(**kwargs):
    """``request_finished`` receiver; runs in the request's own thread."""
    for connection in connections.all(initialized_only=True):
        # Inside a transaction (a test case's) the connection is not the request's to close.
        if not connection.in_atomic_block:
            connection.close()
