"""A server sweeps for due work from the moment it starts, not from its first socket: after a restart
of a site nobody is connected to, a clock that ran out is still settled (and, on the same sweeps, a
tournament's round starts and the ladder pairs: the runner's ``swept`` signal)."""
import os
import socket
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from game.models import Match
from game.programs import runner, seats

from .helpers import wait_for
from .test_workers import database_url

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_server_nobody_is_connected_to_settles_a_clock_that_ran_out(host, monkeypatch):
    monkeypatch.setattr(runner, "wake", lambda match_id: None)  # this process settles nothing
    match = seats.start_vs_computer(host, "greedy", move_seconds=30)
    Match.objects.filter(pk=match.pk).update(deadline_0=timezone.now() - timedelta(seconds=1))
    env = {key: value for key, value in os.environ.items() if key not in ("DEBUG", "REDIS_URL")}
    env.update(DATABASE_URL=database_url(), BOT_WORKERS="inline", PYTHONUNBUFFERED="1")
    env.setdefault("SECRET_KEY", "test-only-server-key")
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(free_port()), "aquawar_site.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        wait_for(lambda: Match.objects.get(pk=match.pk).status != Match.Status.LIVE, seconds=60)
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    # The person never moved: the match is called off, as a clock that ran out before a first move is.
    called_off = Match.objects.get(pk=match.pk)
    assert (called_off.status, called_off.end_reason) == (Match.Status.ABORTED, "no_first_move"), output
