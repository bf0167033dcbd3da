"""A live daphne server and a Chromium for the browser tests.

The server is a fork of the test process (daphne's testing process), started once per session on
the test database; each test gets fresh browser contexts and a flushed database. Tests drive the
site only through the browser, so they make no database calls of their own while Playwright's
event loop runs in this thread (Django refuses those).
"""
import os
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import pytest
from asgiref.sync import SyncToAsync
from channels.testing.live import make_application
from daphne.testing import DaphneProcess
from django.conf import settings
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from aquawar_site import asgi

from ..conftest import MACHINE_SPEED
from .ui import CHROMIUM

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
HOST = "localhost"

# The server process shares the test database with this one: tests/conftest.py makes it a file.


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
    failing the whole-match test now and then. The fork sets that rate itself, and lifts the limit
    on sign-ups per address: every test's browser signs up from this machine's one address.
    """

    def run(self):
        settings.MATCH_SOCKET_RATE = MACHINE_SPEED
        settings.SIGNUP_RATE = MACHINE_SPEED
        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        asgi.django_asgi_app.load_middleware(is_async=True)
        super().run()


@pytest.fixture(scope="session")
def live_server_url(django_db_setup, django_db_blocker):
    """The URL of a daphne serving the site (static files too) on the test database."""
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
    yield f"http://{HOST}:{server.port.value}"
    server.terminate()
    server.join()


@pytest.fixture
def browser(live_server_url, transactional_db):
    """A Chromium for one test; stopped before the database is flushed (it needs no event loop)."""
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()
    playwright.stop()


@pytest.fixture
def screenshot_dir():
    folder = Path(os.environ.get("SCREENSHOT_DIR", "artifacts/screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
