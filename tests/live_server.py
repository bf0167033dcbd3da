"""The live server of the tests that need a real one: a daphne fork of the test process, serving the
site (static files too) on the test database, which it shares with the test process
(tests/conftest.py makes it a file on SQLite).

It is a server like any other: once it has served a socket its clock thread sweeps every few
seconds, settling clocks that ran out and starting and advancing tournaments and the ladder in
whatever is in the database. Left running after the tests that use it, it would do that to the
data of every later test, and tell of it on its own channel layer, which no socket of the test
process hears (a program tournament's round started by it never reached the programs). So it is
never session-wide: ``serving()`` lives as long as the package or module that uses it, and
tests/conftest.py checks that every test outside it runs with no live server.
"""
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial

from asgiref.sync import SyncToAsync
from channels.testing.live import make_application
from daphne.testing import DaphneProcess
from django.conf import settings
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from aquawar_site import asgi

from .conftest import MACHINE_SPEED

HOST = "localhost"


class ForkedDaphne(DaphneProcess):
    """The live server is a fork of the test process, and two things go wrong in it by default.

    asgiref runs every thread-sensitive call (each database call of a consumer) on one worker
    thread, which the async tests before this one have started. A fork copies the executor but not
    its thread, so the server would queue those calls forever: the fork gets an executor of its own.
    The HTTP handler built its middleware when the project's ASGI module was first imported, with
    the settings of that moment (HTTPS redirects in the production setup): it builds it again.

    The fork is made before any test's function-scoped fixtures run, so it does not get
    tests/conftest.py's machine-speed frame rate; the tests play whole matches far faster than a
    person, and a page that sent more than 20 frames in 5 s had its move ignored ("Slow down"),
    failing the whole-match test now and then. The fork sets that rate itself, and lifts the limits
    on sign-ups and socket connects per address: every test's browser signs up and connects from
    this machine's one address. And its bots think in it, as the embedded setup's server's do (no
    test starts ``run_bots`` workers for it).
    """

    def run(self):
        settings.MATCH_SOCKET_RATE = MACHINE_SPEED
        settings.SIGNUP_RATE = MACHINE_SPEED
        settings.BOT_WORKERS = "inline"
        # Every test's browser connects from this machine's one address, page after page.
        settings.SOCKET_CONNECT_RATE = settings.SOCKET_CONNECT_RATE_PER_ADDRESS = MACHINE_SPEED
        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        asgi.django_asgi_app.load_middleware(is_async=True)
        super().run()


# Each live server running -> the node id of the package or module whose tests it serves.
_owners = {}


@contextmanager
def serving(request, django_db_blocker):
    """A live server for the tests of ``request.node`` (a package or module); yields its URL."""
    if HOST not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HOST]
    # No setup step: the fork already points at the test database, and Channels' own step would
    # prefix its name with "test_" a second time on PostgreSQL.
    server = ForkedDaphne(HOST, partial(make_application, static_wrapper=ASGIStaticFilesHandler))
    with django_db_blocker.unblock():
        server.start()
        while not server.ready.wait(timeout=1):
            if not server.is_alive():
                raise RuntimeError("the live server did not start")
    _owners[server] = request.node.nodeid
    try:
        yield f"http://{HOST}:{server.port.value}"
    finally:
        server.terminate()
        server.join()
        del _owners[server]


def strays(nodeid):
    """The owners of the live servers running that do not serve the test ``nodeid``."""
    return [
        owner for server, owner in _owners.items()
        if server.is_alive() and not nodeid.startswith((f"{owner}/", f"{owner}::"))
    ]
