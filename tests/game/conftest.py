import os
import tempfile
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

# Sockets reach the database from worker threads while a test writes from its own. SQLite's shared
# in-memory test database answers concurrent writers with "table is locked" at once instead of
# waiting, so these tests use a file database, where the busy timeout applies as in production.
# One per test process, so runs side by side don't share it.
_database = settings.DATABASES["default"]
if _database["ENGINE"] == "django.db.backends.sqlite3" and not _database.get("TEST", {}).get("NAME"):
    _database.setdefault("TEST", {})["NAME"] = str(Path(tempfile.gettempdir()) / f"aquawar-test-{os.getpid()}.sqlite3")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(db):
    def make(username):
        return get_user_model().objects.create_user(username, password="correct horse battery")

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
