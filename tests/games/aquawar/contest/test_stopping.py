"""Stopping the bridge the ways its owner does (Ctrl-C, SIGTERM from a supervisor, SIGHUP from a
closed terminal), and starting it wrongly: a real server, a real socket, a real program process."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.models import Match
from game.programs import tokens
from tests.live_server import serving

pytestmark = pytest.mark.django_db(transaction=True)

LINGERING_PROGRAM = Path(__file__).with_name("lingering_program.py")
SECONDS = 60


@pytest.fixture(scope="module")
def live_server_url(request, django_db_blocker):
    with serving(request, django_db_blocker) as url:
        yield url


def start_bridge(url, token, *arguments):
    command = [sys.executable, "-m", "game.games.aquawar.contest", "--url", url, "--token", token, *arguments]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def eventually(check):
    deadline = time.monotonic() + SECONDS
    while not (found := check()):
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.1)
    return found


def running(pid):
    """Whether process ``pid`` still runs (a zombie, dead and waiting to be reaped, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.fixture
def waiting_bridge(live_server_url, tmp_path):
    """Starts a ``--create`` bridge and waits until its program runs and its match is open in the
    lobby; ``(bridge, match, [the program's child, the program])``. Whatever the test found, the
    program is killed at the end (a bridge that failed to would leave it running)."""
    pids, started = tmp_path / "pids", []

    def start(token):
        bridge = start_bridge(live_server_url, token, "--create", "--", sys.executable, str(LINGERING_PROGRAM), str(pids))
        started.append(bridge)
        match = eventually(lambda: Match.objects.filter(status=Match.Status.OPEN).first())
        program = [int(pid) for pid in eventually(lambda: pids.exists() and pids.read_text().split())]
        return bridge, match, program

    yield start
    for bridge in started:
        bridge.kill()
        bridge.communicate()
    if pids.exists():
        try:
            os.killpg(int(pids.read_text().split()[1]), signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda s: s.name)
def test_a_stopped_bridge_kills_its_program_and_cancels_its_open_match(live_server_url, host, waiting_bridge, signum):
    bridge, match, program = waiting_bridge(tokens.create(host, "bridge")[1])
    assert all(running(pid) for pid in program)
    bridge.send_signal(signum)
    out, err = bridge.communicate(timeout=SECONDS)
    assert bridge.returncode == 2, err
    assert f"bridge: stopped ({signum.name})" in err and "Traceback" not in err
    # The program and the child it started, SIGTERM and SIGHUP ignored: the whole group is gone.
    eventually(lambda: not any(running(pid) for pid in program))
    assert f"match {match.pk} cancelled" in out
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED


def test_joining_with_the_hosts_own_token_is_refused(live_server_url, host, waiting_bridge):
    token = tokens.create(host, "bridge")[1]
    _, match, _ = waiting_bridge(token)
    command = [sys.executable, "-m", "game.games.aquawar.contest", "--url", live_server_url, "--token", token,
               "--match", str(match.pk), "--", sys.executable, "-c", "input()"]
    second = subprocess.run(command, capture_output=True, text=True, timeout=SECONDS)
    err = second.stderr
    assert second.returncode == 2
    assert f"bridge: match {match.pk} is open and hosted by this token's account" in err
    assert "needs an API token of another account" in err
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN  # still the first bridge's, waiting for an opponent


def test_a_program_that_crashes_leaves_no_child_behind(live_server_url, host, tmp_path):
    """The program exits at once, its child still running (and holding the program's output open,
    so the bridge sees silence): it forfeits, and the bridge kills what is left of its group."""
    pids = tmp_path / "pids"
    command = [sys.executable, "-m", "game.games.aquawar.contest", "--url", live_server_url,
               "--token", tokens.create(host, "bridge")[1], "--vs", "random", "--",
               sys.executable, str(LINGERING_PROGRAM), str(pids), "--crash"]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=SECONDS)
        assert run.returncode == 1 and "the program forfeits (timeout)" in run.stdout, run.stdout
        child = int(pids.read_text().split()[0])
        eventually(lambda: not running(child))
    finally:
        if pids.exists():
            try:
                os.killpg(int(pids.read_text().split()[1]), signal.SIGKILL)
            except ProcessLookupError:
                pass
