"""The match page in a real browser: htmx's websocket extension, out-of-band swaps and ws-send forms.

Skipped where Playwright or Chromium is missing (CI installs Debian's chromium).
"""
import os
import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import SyncToAsync
from channels.testing import ChannelsLiveServerTestCase
from daphne.testing import DaphneProcess
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import override_settings

from aquawar_site import asgi

from .helpers import live_match, session_cookie

sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
TIMEOUT_MS = 10_000


class ForkedDaphne(DaphneProcess):
    """The live server is a fork of the test process, and three things go wrong in it by default.

    asgiref runs every thread-sensitive call (each database call of a consumer) on one worker
    thread, which the async tests before this one have started. A fork copies the executor but not
    its thread, so the server would queue those calls forever: the fork gets an executor of its own.
    The HTTP handler built its middleware when the project's ASGI module was first imported, with
    the settings of that moment (HTTPS redirects in the production setup): it builds it again.
    And the fork already points at the test database; Channels' own setup step would prefix the
    name with "test_" a second time on PostgreSQL, so it is left out.
    """

    def __init__(self, host, get_application, setup=None, **options):
        super().__init__(host, get_application, **options)

    def run(self):
        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        asgi.django_asgi_app.load_middleware(is_async=True)
        super().run()


@pytest.mark.skipif(not CHROMIUM, reason="no chromium to drive")
# The server is forked before any per-test fixture runs, so the plain-HTTP settings every other
# test gets from tests/conftest.py must be in place for the whole class.
@override_settings(
    SECURE_SSL_REDIRECT=False,
    STORAGES={**settings.STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}},
)
class MatchPageInABrowserTests(ChannelsLiveServerTestCase):
    ProtocolServerProcess = ForkedDaphne

    def setUp(self):
        users = get_user_model().objects
        # Not self.host: the live server keeps its host name there.
        self.players = [users.create_user(name, password="correct horse battery") for name in ("host", "guest")]
        self.match = live_match(*self.players)
        self.cookies = {user.pk: session_cookie(user).split("=", 1) for user in self.players}
        # Playwright's sync API runs an event loop in this thread, and Django refuses database
        # calls from a thread with a running loop: everything the test needs is read before this.
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])

    def tearDown(self):
        self.browser.close()
        self.playwright.stop()

    def open_page(self, user=None):
        context = self.browser.new_context(viewport={"width": 400, "height": 900})
        if user:
            name, value = self.cookies[user.pk]
            context.add_cookies([{"name": name, "value": value, "url": self.live_server_url}])
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(f"{self.live_server_url}/match/{self.match.pk}/")
        page.wait_for_selector("#match-connection[data-state=open]")
        return page

    def screenshot(self, page, name):
        folder = os.environ.get("SCREENSHOT_DIR")
        if folder:
            page.screenshot(path=os.path.join(folder, f"game-{name}.png"), full_page=True)

    def pick(self, page, species, mimic=None):
        for s in species:
            page.check(f".pick-form input[value={s}]")
        if mimic:
            page.select_option(".mimic-choice select", mimic)
        page.click(".pick-form button[type=submit]")

    def test_it_plays_the_first_moves_live_and_survives_a_reload(self):
        pages = [self.open_page(user) for user in self.players]
        watcher = self.open_page()
        pages[0].wait_for_selector("text=1 spectator watching")

        self.pick(pages[0], ["archerfish", "pufferfish", "electric_eel", "sunfish"])
        pages[0].wait_for_selector("text=Your team is locked in")
        self.pick(pages[1], ["sea_wolf", "manta_ray", "sea_turtle", "mimic_fish"], mimic="octopus")
        first = self.match.state["first_mover"]
        mover, waiter = pages[first], pages[1 - first]

        mover.wait_for_selector(".skip-form")
        mover.click(".skip-form button")
        mover.wait_for_selector(".act-form")
        mover.click(".act-form >> nth=0 >> button")
        waiter.wait_for_selector(".assert-form")
        watcher.wait_for_selector(".log-entry--action")
        self.assertEqual(watcher.locator(".fish-hidden").count(), 8)
        self.assertIn("Turn 2/64", watcher.inner_text("#match-status"))
        self.screenshot(waiter, "waiter")
        self.screenshot(watcher, "watcher")

        log_before = waiter.inner_text("#match-log")
        waiter.reload()
        waiter.wait_for_selector("#match-connection[data-state=open]")
        waiter.wait_for_selector(".assert-form")
        self.assertEqual(waiter.inner_text("#match-log"), log_before)
        self.assertEqual(waiter.get_attribute("#match-status", "data-version"), "4")
