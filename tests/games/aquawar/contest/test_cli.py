"""The command a program's owner runs: a real server, a real websocket, a contest program process."""
import subprocess
import sys

import pytest

from game.models import Match
from game.programs import tokens
from tests.live_server import serving

from .harness import SDK_PROGRAM

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def live_server_url(request, django_db_setup, django_db_blocker):
    with serving(request, django_db_blocker) as url:
        yield url


def bridge(url, token, *arguments):
    command = [sys.executable, "-m", "game.games.aquawar.contest", "--url", url, "--token", token, *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=180)


def test_it_plays_a_built_in_level_over_a_real_socket(live_server_url, host):
    token = tokens.create(host, "bridge")[1]
    run = bridge(live_server_url, token, "--vs", "random", "--", sys.executable, str(SDK_PROGRAM), "--chatter", "3000")
    match = Match.objects.get()
    assert (match.status, match.end_reason) == ("finished", "rounds")
    outcome = "won" if match.winner == 0 else "lost"
    assert run.returncode == (0 if outcome == "won" else 1), run.stderr
    assert run.stdout.splitlines() == [f"match {match.pk}, playing seat 0", f"match {match.pk}: {outcome} (rounds)"]
    # The program's standard error was drained all along (3 KB a message) and shown, marked.
    assert run.stderr.count("[program] " + "x" * 3000) > 20


def test_a_refused_token_is_said_and_plays_nothing(live_server_url):
    run = bridge(live_server_url, "aqw_" + "x" * 43, "--", sys.executable, str(SDK_PROGRAM))
    assert run.returncode == 2 and "the site refused the token: Unknown or revoked API token." in run.stderr
    assert not Match.objects.exists()


def test_it_says_how_to_give_the_program():
    run = subprocess.run([sys.executable, "-m", "game.games.aquawar.contest", "--token", "t"], capture_output=True, text=True)
    assert run.returncode == 2 and "give the program's command line after --" in run.stderr
