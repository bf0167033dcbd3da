"""Kept database connections (CONN_MAX_AGE, 60 in production) must not pile up: each HTTP request
runs in a thread of its own under ASGI, and a connection kept there would outlive it."""
import threading

import pytest
from django.core.signals import request_finished
from django.db import connections, transaction

from game.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def in_a_request_thread(body):
    """Run ``body`` in a new thread, as Django's ASGI handler runs a request; returns its result."""
    result = {}

    def run():
        try:
            result["value"] = body()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
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
