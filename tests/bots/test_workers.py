"""Bots think in workers: a process that serves sockets sends the work away and decides nothing; a
worker process makes the move; a decision is thought about once and asked for again when lost."""
import asyncio
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import connection

from game.errors import ServiceError
from game.models import Match, MatchEvent
from game.programs import dispatch, runner, seats
from game.programs.models import BotSeat
from tests.game.helpers import HOST_TEAMS, open_socket
from tests.game.test_fanout import watched_match

from .helpers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
# A Redis database of its own: the worker below must not take messages meant for the suite's layer.
WORKER_REDIS = "redis://127.0.0.1:6379/7"


def never_here(*args, **kwargs):
    raise AssertionError("a bot decided in the process that serves the sockets")


def redis_up():
    try:
        import redis

        return redis.Redis.from_url(WORKER_REDIS, socket_connect_timeout=1).ping()
    except Exception:
        return False


def version_of(match_id):
    return Match.objects.get(pk=match_id).version


async def test_a_socket_opening_on_a_match_sends_the_bots_work_to_the_workers(host, settings, monkeypatch):
    settings.BOT_WORKERS = "external"
    monkeypatch.setattr(runner, "decide", never_here)
    cache.set(dispatch.HEARTBEAT_KEY, True)
    match = await database_sync_to_async(seats.start_vs_computer)(host, "greedy")
    layer = get_channel_layer()
    # The match's start rang once; the socket opening on it rings again.
    first = await asyncio.wait_for(layer.receive(dispatch.CHANNEL), timeout=5)
    socket = await open_socket(match.pk, host)
    try:
        second = await asyncio.wait_for(layer.receive(dispatch.CHANNEL), timeout=5)
    finally:
        await socket.disconnect()
    assert first == second == {"type": "settle", "match_id": match.pk}
    assert await database_sync_to_async(version_of)(match.pk) == match.version


async def test_a_command_does_not_wait_for_its_request_to_the_workers(host, guest, settings, monkeypatch):
    """The commit's request for a win chance is sent by the event loop: the database thread, which
    every socket of the process shares, goes on meanwhile instead of waiting for the channel layer."""
    settings.BOT_WORKERS = "external"
    settings.WIN_CHANCES = True
    match, (host_socket, guest_socket) = await watched_match(host, guest, 0)
    layer = get_channel_layer()
    send = layer.send

    async def slow(channel, message):
        if channel == dispatch.CHANNEL:
            await asyncio.sleep(1.5)
        await send(channel, message)

    monkeypatch.setattr(layer, "send", slow)
    try:
        started = time.monotonic()
        await host_socket.send({"type": "command", "id": "h", "version": 0, "command": HOST_TEAMS[1]})
        assert (await host_socket.receive_type("ack"))["version"] == 1
        assert time.monotonic() - started < 1.0
        # The requests of the match's start came at once; the command's comes once the send is done.
        while time.monotonic() - started < 1.5:
            request = await asyncio.wait_for(layer.receive(dispatch.CHANNEL), timeout=5)
        assert request == {"type": "win_chance", "match_id": match.pk}
    finally:
        await host_socket.disconnect()
        await guest_socket.disconnect()


def test_no_person_starts_a_match_against_the_computer_while_no_worker_is_up(host, settings):
    settings.BOT_WORKERS = "external"
    cache.delete(dispatch.HEARTBEAT_KEY)
    with pytest.raises(ServiceError) as refused:
        seats.start_vs_computer(host, "greedy")
    assert refused.value.code == "computer_unavailable"
    assert not Match.objects.exists()
    dispatch.heartbeat()
    assert seats.start_vs_computer(host, "greedy").status == Match.Status.LIVE


def test_the_lobby_says_so_while_no_worker_is_up(client, host, settings):
    settings.BOT_WORKERS = "external"
    client.force_login(host)
    cache.delete(dispatch.HEARTBEAT_KEY)
    assert b"data-computer-unavailable" in client.get("/").content
    dispatch.heartbeat()
    assert b"data-computer-unavailable" not in client.get("/").content


def test_two_runners_woken_for_one_decision_think_once(host, monkeypatch):
    """Two worker processes settling one match at once (a wake and a sweep): one thinks, one move is
    made. (``runner.settle`` itself: ``settle_job`` also keeps one process from settling twice.)"""
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    match = seats.start_vs_computer(host, "greedy")
    thoughts = []
    real_decide = runner.decide

    def slow_decide(*args):
        thoughts.append(args[5])
        time.sleep(0.3)  # long enough for the other runner to arrive while this one thinks
        return real_decide(*args)

    monkeypatch.setattr(runner, "decide", slow_decide)
    before = version_of(match.pk)
    threads = [threading.Thread(target=runner.settle, args=(match.pk,)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert thoughts == [1]
    assert version_of(match.pk) == before + 1


def test_a_decision_lost_with_its_worker_is_made_at_the_takeover(host, settings, monkeypatch):
    """A worker killed while thinking leaves its lease behind; once it lapses, the sweep at the bot's
    takeover deadline asks again and the bot moves."""
    settings.BOT_TAKEOVER_SECONDS = 0.6
    settings.BOT_LEASE_SECONDS = 0.4
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    match = seats.start_vs_computer(host, "greedy")
    before = version_of(match.pk)
    # The dead worker's lease on the decision that is due now.
    assert cache.add(f"bot-decision:{match.pk}:{before}:1", True, timeout=0.4)
    runner.settle(match.pk)
    assert version_of(match.pk) == before, "a runner thought about a decision another one holds"
    wait_for(lambda: BotSeat.objects.get(match=match).deadline is not None, seconds=60)
    time.sleep(0.7)
    assert match.pk in runner.sweep()
    assert version_of(match.pk) == before + 1


def database_url():
    database = connection.settings_dict
    if database["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{database['NAME']}"
    return f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"


@pytest.mark.skipif(not redis_up(), reason="a worker process is fed through Redis")
def test_a_worker_process_makes_the_move_and_the_serving_process_decides_nothing(host, settings, monkeypatch):
    import redis

    redis.Redis.from_url(WORKER_REDIS).flushdb()
    settings.BOT_WORKERS = "external"
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [WORKER_REDIS]}}
    }
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": WORKER_REDIS}}
    monkeypatch.setattr(runner, "decide", never_here)
    # No takeover by the worker's sweep within the test: only the message can bring the move.
    settings.BOT_TAKEOVER_SECONDS = 600
    assert not dispatch.available()
    env = {key: value for key, value in os.environ.items() if key != "DEBUG"}
    env.update(DATABASE_URL=database_url(), REDIS_URL=WORKER_REDIS, BOT_WORKERS="external", PYTHONUNBUFFERED="1")
    env.setdefault("SECRET_KEY", "test-only-worker-key")
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "run_bots", "--nice", "0"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        wait_for(dispatch.available, seconds=60)
        match = seats.start_vs_computer(host, "greedy")
        wait_for(lambda: version_of(match.pk) > match.version, seconds=60)
        move = MatchEvent.objects.get(match=match, version=match.version + 1)
        assert (move.seat, move.client_id) == (1, f"bot:{match.version}")
    finally:
        worker.terminate()
        output = worker.communicate(timeout=30)[0]
    assert "Traceback" not in output, output


def test_a_bot_that_throws_is_asked_once_more_then_its_match_is_aborted(host, monkeypatch):
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    match = seats.start_vs_computer(host, "greedy")
    calls = []

    def broken(*args):
        calls.append(args[6])  # the seed: the second try is not the first one again
        raise RuntimeError("a bug in the level")

    monkeypatch.setattr(runner, "decide", broken)
    runner.settle(match.pk)
    aborted = Match.objects.get(pk=match.pk)
    assert (aborted.status, aborted.end_reason) == (Match.Status.ABORTED, "bot_error")
    assert len(calls) == 2 and calls[0] != calls[1]


def test_a_bot_that_throws_once_still_moves(host, monkeypatch):
    monkeypatch.setattr(runner, "wake", lambda match_id: None)
    match = seats.start_vs_computer(host, "greedy")
    real_decide, calls = runner.decide, []

    def flaky(*args):
        calls.append(args)
        if len(calls) == 1:
            raise RuntimeError("once")
        return real_decide(*args)

    monkeypatch.setattr(runner, "decide", flaky)
    runner.settle(match.pk)
    assert Match.objects.get(pk=match.pk).status == Match.Status.LIVE
    assert MatchEvent.objects.filter(match=match, client_id__startswith="bot:").count() == 1
