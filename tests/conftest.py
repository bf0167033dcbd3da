"""Fixtures for every test, on both setups: embedded (SQLite, in-memory channel layer) and
production (DATABASE_URL for PostgreSQL, REDIS_URL for channels_redis)."""
import os
import tempfile
import time
import types
import uuid
from pathlib import Path

import pytest
from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings as django_settings
from django.test import override_settings

from tests.accounts import PASSWORD, client_for
from tests.bot_levels import FAST_LEVELS

# Sockets reach the database from worker threads, and the browser tests' server is another process.
# SQLite's in-memory test database is private to a process and answers concurrent writers with
# "table is locked" at once instead of waiting, so the tests use a file database, where the busy
# timeout applies as in production. One per test process, so runs side by side don't share it.
_database = django_settings.DATABASES["default"]
if _database["ENGINE"] == "django.db.backends.sqlite3" and not _database.get("TEST", {}).get("NAME"):
    _database.setdefault("TEST", {})["NAME"] = str(Path(tempfile.gettempdir()) / f"aquawar-test-{os.getpid()}.sqlite3")


@pytest.fixture(autouse=True, scope="session")
def plain_http_test_server():
    """With DATABASE_URL set the settings are the production ones: they redirect to HTTPS and expect
    collectstatic's manifest. Test clients and live servers speak plain HTTP and nothing was
    collected. Session-wide, so it is in force before a live-server test class forks its server."""
    static_files = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    storages = {**django_settings.STORAGES, "staticfiles": static_files}
    with override_settings(SECURE_SSL_REDIRECT=False, STORAGES=storages):
        yield


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """Name the PostgreSQL test database ("test_test") explicitly before it is created.

    A live-server test class forks its server after Django has switched NAME to the test database,
    and the server process (channels.testing) derives the name again, "test_test_test", unless
    TEST NAME is set.
    """
    database = django_settings.DATABASES["default"]
    test = database.setdefault("TEST", {})
    if database["ENGINE"] != "django.db.backends.sqlite3" and not test.get("NAME"):
        test["NAME"] = f"test_{database['NAME']}"


@pytest.fixture(autouse=True)
def isolated_channel_layer(settings):
    """A channel layer of the test's own: a fresh in-memory one, or a fresh key prefix on Redis.

    Match ids start again after every database flush, so without this a socket group left over
    from one test ("match-1") could receive the next test's doorbells. Assigning the setting makes
    Channels drop its cached layers.
    """
    layer = dict(settings.CHANNEL_LAYERS["default"])
    if layer["BACKEND"] == "aquawar_site.channel_layer.RedisChannelLayer":
        # Short expiries: Redis outlives the test run and nobody reads these keys again.
        layer["CONFIG"] = {**layer["CONFIG"], "prefix": f"test-{uuid.uuid4().hex}", "group_expiry": 60}
    settings.CHANNEL_LAYERS = {"default": layer}


@pytest.fixture(autouse=True)
def empty_cache(settings):
    """A fresh in-memory cache per test: login throttling counts, sign-ups per address and the
    lobby's sweep marker live in the cache, and none may leak between tests. Not clear(): on Redis
    that would flush the database the channel layer shares. Assigning the setting makes Django drop
    its cached connections."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex}}
    # django-axes' cache handler keeps the cache it was made with: make it take this one.
    AxesProxyHandler.get_implementation(force=True)


# Frames per window of seconds, for sockets driven by tests rather than people.
MACHINE_SPEED = (100_000, 1)


@pytest.fixture(autouse=True)
def machine_speed_sockets(settings):
    # The suites play whole matches over the match socket at machine speed, far past the per-socket
    # frame rate a person gets; tests/game/test_limits.py and tests/bots/test_bad_input.py put the real
    # limits back to test them.
    settings.MATCH_SOCKET_RATE = MACHINE_SPEED
    # And they say hello to check where a socket stands, far more often than any client needs to.
    settings.MATCH_HELLO_RATE = MACHINE_SPEED
    settings.BOT_SOCKET_RATE = MACHINE_SPEED
    # They open sockets far more often than people do, and count presence frames as each viewer
    # comes and goes: tests/security/test_socket_churn.py puts the real connect rates and the
    # coalescing of presence news back to test them.
    settings.SOCKET_CONNECT_RATE = settings.SOCKET_CONNECT_RATE_PER_ADDRESS = MACHINE_SPEED
    settings.PRESENCE_NEWS_SECONDS = 0


@pytest.fixture
def stopped_rate_clock(monkeypatch):
    """The sockets' frame-rate windows on a clock that moves only when the test moves it. On the
    real clock a loaded machine could take longer than a test's window between two frames, and the
    frame meant to be one too many was let through (seen on CI, 29 Nov)."""
    clock = types.SimpleNamespace(now=1000.0)
    monkeypatch.setattr("game.live.ratelimit.time", types.SimpleNamespace(monotonic=lambda: clock.now))
    return clock


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # The real hasher is slow on purpose; the tests create a few users each.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def flush_outlasts_a_finished_tests_work():
    """On PostgreSQL the flush after a transactional test can deadlock with work the test set off
    and that is still finishing (a bot's move, a socket closing); PostgreSQL then fails one side,
    and if it is the flush, the next test starts on the last one's rows. The other side's
    transaction ends with the deadlock, so the flush is tried again once, a moment later. Only the
    cleanup between tests is retried: no test's own statements are."""
    from django.core.management.base import CommandError
    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown

    def teardown(self):
        try:
            original(self)
        except CommandError:
            time.sleep(1)
            original(self)

    TransactionTestCase._fixture_teardown = teardown
    yield
    TransactionTestCase._fixture_teardown = original


@pytest.fixture(autouse=True, scope="session")
def postgresql_flush_by_delete():
    """Between transactional tests Django empties every table with one TRUNCATE, which costs
    PostgreSQL about 180 ms however few rows the test left; deleting them takes about 10 ms. With
    some 375 such tests that is a minute of every PostgreSQL run. Django's foreign keys there are
    deferred to the commit, and the flush is one transaction, so the order of the tables is free."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return original(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]

    DatabaseOperations.sql_flush = sql_flush
    yield
    DatabaseOperations.sql_flush = original


@pytest.fixture(autouse=True)
def no_live_server_behind(request):
    """A live server still running sweeps the database of every later test and acts on it where
    that test's sockets can't hear (tests/live_server.py): only the tests of the package or module
    it serves may run beside one."""
    from tests.live_server import strays

    assert not strays(request.node.nodeid), "a live server outlived the tests it serves (narrow its fixture's scope)"


@pytest.fixture(autouse=True)
def bots_think_in_the_test_process(settings):
    """The production setup (leg 2: REDIS_URL) sends bot work to ``run_bots`` workers, which most
    tests do not start: they play against bots that think in this process, as the embedded setup's
    server does (tests/bots/test_workers.py starts real workers), on small fixed budgets."""
    settings.BOT_WORKERS = "inline"
    settings.BOT_LEVEL_OPTIONS = FAST_LEVELS


@pytest.fixture(autouse=True)
def no_win_chance_threads(settings):
    """A win chance is estimated in a worker thread after every change (game/programs/winchances.py);
    most tests need none, and a thread still reading when a test's database is flushed holds locks
    the flush needs. tests/game/test_win_chance_live.py turns them on."""
    settings.WIN_CHANCES = False


@pytest.fixture(autouse=True)
def no_timers_left_behind():
    """A move clock outlives its test in the clock thread; a timer firing after the test's
    database is gone would only log errors. And a bot's move still being made in a worker thread
    when the test's database is flushed holds locks the flush needs (PostgreSQL calls it a
    deadlock, and the next test starts on an unflushed database): wait for it, a few seconds at most."""
    yield
    from game.programs import runner

    runner._clock.clear()
    deadline = time.monotonic() + 5
    while (runner._busy or runner._executor._work_queue.qsize()) and time.monotonic() < deadline:
        time.sleep(0.02)


@pytest.fixture(autouse=True)
def no_connections_kept_by_sockets():
    """With DATABASE_URL the settings are the production ones, which keep a connection for 60 s
    (CONN_MAX_AGE): the sockets' database thread (asgiref's single thread) would still hold one
    to the test database when it is dropped. Closed after every test, as a restart would."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    if any(connection.settings_dict["CONN_MAX_AGE"] for connection in connections.all()):
        SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=30)


@pytest.fixture
def make_user(django_user_model):
    def make(username):
        return django_user_model.objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def host(make_user):
    return make_user("host")


@pytest.fixture
def guest(make_user):
    return make_user("guest")


@pytest.fixture
def outsider(make_user):
    return make_user("outsider")


@pytest.fixture
def host_client(host):
    return client_for(host)


@pytest.fixture
def guest_client(guest):
    return client_for(guest)


@pytest.fixture
def outsider_client(outsider):
    return client_for(outsider)


def pytest_terminal_summary(terminalreporter):
    """A quiet "s" is easy to miss: say at the end, loudly, that the browser tests did not run and
    how to make them run (their skip reason says what was missing)."""
    skipped = [
        report for report in terminalreporter.stats.get("skipped", []) if report.nodeid.startswith("tests/browser/")
    ]
    if not skipped:
        return
    reasons = sorted({str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else "" for report in skipped})
    terminalreporter.section("BROWSER TESTS SKIPPED", sep="!", red=True, bold=True)
    terminalreporter.write_line(f"{len(skipped)} browser test module(s) or test(s) did not run:", red=True, bold=True)
    for reason in reasons:
        terminalreporter.write_line(f"  {reason}", red=True)
    terminalreporter.write_line(
        "Install Debian's Chromium and run the tests again:  sudo apt-get install -y chromium && make test",
        red=True,
        bold=True,
    )


def pytest_addoption(parser):
    parser.addoption(
        "--setup-tests",
        choices=("all", "dependent", "free"),
        default="all",
        help="dependent: only the tests whose outcome may depend on the setup (the database, cache and "
        "channel layer); free: only those that run the same on either (tests/setup_free.py). CI runs "
        "the free ones once and the others on each setup",
    )


def pytest_collection_modifyitems(config, items):
    wanted = config.getoption("--setup-tests")
    if wanted == "all":
        return
    from tests.setup_free import is_setup_free

    keep_free = wanted == "free"
    dropped = [item for item in items if is_setup_free(item) != keep_free]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if is_setup_free(item) == keep_free]
