"""Kept database connections (CONN_MAX_AGE, 60 in production) must not pile up: each HTTP request
runs in a thread of its own under ASGI, and a connection kept there would outlive it. On PostgreSQL
a kept connection is health-checked only after a second without a good call
(aquawar_site/postgresql), and one that died is still replaced."""
import threading

import pytest
from django.core.signals import request_finished
from django.db import InterfaceError, OperationalError, close_old_connections, connections, transaction

from aquawar_site.postgresql import base as postgresql_backend
from game.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def in_a_request_thread(body):
    """Run ``body`` in a new thread, as Django's ASGI handler runs a request; returns its result."""
    result = {}

    def run():
        try:
            result["value"] = body()
        except BaseException as error:
            result["error"] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    if "error" in result:
        raise result["error"]
    return result["value"]


@pytest.fixture
def kept_connections(monkeypatch):
    monkeypatch.setitem(connections["default"].settings_dict, "CONN_MAX_AGE", 60)


def test_a_request_closes_its_connection_when_it_finishes(kept_connections):
    def request():
        Match.objects.count()
        opened = connections["default"].connection is not None
        request_finished.send(sender=None)
        return opened, connections["default"].connection is None

    assert in_a_request_thread(request) == (True, True)


def test_a_connection_inside_a_transaction_is_left_alone(kept_connections):
    def request():
        with transaction.atomic():
            Match.objects.count()
            request_finished.send(sender=None)
            return connections["default"].connection is not None

    assert in_a_request_thread(request)


postgresql = pytest.mark.skipif(
    connections["default"].vendor != "postgresql", reason="the health checks skipped are PostgreSQL's (aquawar_site/postgresql)"
)


def call(body):
    """One database call as a socket makes one (``database_sync_to_async``): old connections are
    closed before and after it."""
    close_old_connections()
    try:
        return body()
    finally:
        close_old_connections()


@pytest.fixture
def health_checks(monkeypatch, kept_connections):
    """How many times a connection was asked ``SELECT 1`` (``is_usable``), over every thread."""
    made = []
    usable = connections["default"].__class__.is_usable

    def counted(self):
        made.append(self.alias)
        return usable(self)

    monkeypatch.setattr(connections["default"].__class__, "is_usable", counted)
    return made


def terminate(pid):
    """End the server process of another connection, as a restart of PostgreSQL would."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])
    finally:
        other.close()


@postgresql
def test_a_connection_that_answered_within_a_second_is_not_asked_select_1(health_checks):
    def calls():
        return [call(Match.objects.count) for _ in range(5)]

    assert in_a_request_thread(calls) == [0] * 5
    # The first call opened the connection (new connections are healthy); the four after it came
    # within a second of a call that it answered.
    assert health_checks == []


@postgresql
def test_a_connection_idle_for_longer_is_asked_before_its_next_call(health_checks, monkeypatch):
    monkeypatch.setattr(postgresql_backend, "FRESH", 0.0)

    def calls():
        return [call(Match.objects.count) for _ in range(5)]

    assert in_a_request_thread(calls) == [0] * 5
    assert health_checks == ["default"] * 4


@postgresql
def test_a_dropped_connection_idle_for_longer_is_replaced_before_the_call(health_checks, monkeypatch):
    monkeypatch.setattr(postgresql_backend, "FRESH", 0.0)

    def calls():
        call(Match.objects.count)
        terminate(connections["default"].connection.info.backend_pid)
        return call(Match.objects.count)

    assert in_a_request_thread(calls) == 0
    assert health_checks == ["default"]


@postgresql
def test_a_connection_dropped_right_after_answering_fails_one_call_and_the_next_reconnects(health_checks):
    def calls():
        call(Match.objects.count)
        first = connections["default"].connection.info.backend_pid
        terminate(first)
        with pytest.raises((OperationalError, InterfaceError)):
            call(Match.objects.count)
        count = call(Match.objects.count)
        return count, connections["default"].connection.info.backend_pid != first

    assert in_a_request_thread(calls) == (0, True)


def _two_jobs():
    """Two win-chance jobs one after the other in one thread, as a worker's thread runs them: the
    connection each left behind (None: closed)."""
    from game.programs import winchances

    left = []
    for _ in range(2):
        winchances.estimate_job(987654321)
        left.append(connections["default"].connection)
    return left


def test_a_run_bots_workers_thread_keeps_its_connection_from_job_to_job(kept_connections, monkeypatch):
    from game.programs import runner

    monkeypatch.setattr(runner, "_worker", True)
    first, second = in_a_request_thread(_two_jobs)
    assert first is not None and second is first


def test_a_servers_worker_thread_closes_its_connection_after_each_job(kept_connections, monkeypatch):
    from game.programs import runner

    monkeypatch.setattr(runner, "_worker", False)
    assert in_a_request_thread(_two_jobs) == [None, None]
