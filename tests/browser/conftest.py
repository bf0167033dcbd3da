"""A live daphne server and a Chromium for the browser tests.

The server is a fork of the test process (tests/live_server.py), started once for the browser tests
on the test database; each test gets fresh browser contexts and a flushed database. Tests drive the
site only through the browser, so they make no database calls of their own while Playwright's
event loop runs in this thread (Django refuses those).
"""
import os
from pathlib import Path

import pytest

from ..live_server import serving
from .ui import A11Y_VIOLATIONS, CHROMIUM, CSP_VIOLATIONS, audit_everything_left_open, reset_audits

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="package")
def live_server_url(request, django_db_setup, django_db_blocker):
    """The browser tests' live server, stopped once they are over (see tests/live_server.py)."""
    with serving(request, django_db_blocker) as url:
        yield url


@pytest.fixture
def browser(live_server_url, transactional_db):
    """A Chromium for one test; stopped before the database is flushed (it needs no event loop).
    The test fails if any page it opened reported a Content-Security-Policy violation (ui.new_page),
    or if axe-core found a serious or critical violation in any state of a page it visited (ui.audit)."""
    from playwright.sync_api import sync_playwright

    CSP_VIOLATIONS.clear()
    reset_audits()
    playwright = sync_playwright().start()
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    audit_everything_left_open(chromium)
    chromium.close()
    playwright.stop()
    assert not CSP_VIOLATIONS, "Content-Security-Policy violations:\n" + "\n".join(CSP_VIOLATIONS)
    assert not A11Y_VIOLATIONS, "Accessibility (axe-core) violations:\n" + "\n".join(A11Y_VIOLATIONS)


@pytest.fixture
def screenshot_dir():
    folder = Path(os.environ.get("SCREENSHOT_DIR", "artifacts/screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
