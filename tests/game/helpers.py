"""Shared test plumbing: live matches, logged-in sockets and frame collection."""
import json
import threading
import time
from datetime import timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection, connections, transaction
from django.utils import timezone

from game import limits, services
from game.models import Match
from tests.sockets import RecordingSocket
from tournaments import runner
from tournaments import services as tournament_services
from tournaments.models import Pairing, Tournament

ORIGIN = b"http://testserver"
HOST = b"testserver"
TIMEOUT = 5

HOST_TEAMS = {
    1: {"pick": ["archerfish", "pufferfish", "electric_eel", "sunfish"]},
    2: {"pick": ["sea_wolf", "manta_ray", "great_white_shark", "hammerhead_shark"]},
    3: {"pick": ["sea_turtle", "octopus", "clownfish", "mimic_fish"], "mimic": "sea_wolf"},
}
GUEST_TEAMS = {
    1: {"pick": ["sea_wolf", "manta_ray", "sea_turtle", "mimic_fish"], "mimic": "octopus"},
    2: {"pick": ["archerfish", "pufferfish", "octopus", "clownfish"]},
    3: {"pick": ["electric_eel", "sunfish", "great_white_shark", "hammerhead_shark"]},
}
TEAMS = (HOST_TEAMS, GUEST_TEAMS)


def session_cookie(user):
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def live_match(host, guest, *, private=False):
    return services.join_match(services.create_match(host, private=private), guest)


def matches_in_each_status(host, guest):
    """A waiting match, a private live one with the host's team picked, a finished one."""
    waiting = services.create_match(host)
    live = live_match(host, guest, private=True)
    services.apply_command(live.pk, host, "h", 0, HOST_TEAMS[1])
    over = live_match(host, guest)
    services.resign(over, guest)
    return waiting, live, over


def tournament_match(host, guest, name="Spring cup"):
    """The match of round 1 of a round robin of ``host`` and ``guest``, started by the runner."""
    cup = tournament_services.create(
        host, name=name, game="aquawar", kind="round_robin", for_programs=False, rated=False, move_seconds=60,
        starts=timezone.now() + timedelta(hours=1), rounds=None,
    )
    for player in (host, guest):
        tournament_services.register(cup.pk, player)
    Tournament.objects.filter(pk=cup.pk).update(starts=timezone.now())
    runner.advance(cup.pk)
    return Pairing.objects.get(tournament=cup).match


def seat_at_the_live_limit(person, opponent):
    """``person`` plays ``limits.MAX_LIVE_MATCHES`` live matches against ``opponent`` (started as
    the server pairs them, which no limit stops); returns them."""
    return [services.start_between(person, opponent) for _ in range(limits.MAX_LIVE_MATCHES)]


class Socket(RecordingSocket):
    """A match socket that keeps every frame it received (as text), for later scanning."""

    timeout = TIMEOUT

    def __init__(self, match_id, cookie=None, *, html=False, origin=ORIGIN, host=HOST, query="", address="127.0.0.1"):
        path = f"/ws/match/{match_id}/"
        params = [p for p in ("ui=html" if html else "", query) if p]
        if params:
            path += "?" + "&".join(params)
        headers = [(name, value) for name, value in ((b"origin", origin), (b"host", host)) if value]
        if cookie:
            headers.append((b"cookie", cookie.encode()))
        self.html = html
        super().__init__(path, headers, address)

    def keep(self, text):
        self.frames.append(text)
        return text if self.html else json.loads(text)

    async def receive_until(self, done):
        """Frames up to and including the first for which ``done(frame)`` is true."""
        received = []
        while True:
            frame = await self.receive()
            received.append(frame)
            if done(frame):
                return received

    async def receive_type(self, kind):
        """Skips presence frames (they come whenever a spectator arrives or leaves)."""
        frames = await self.receive_until(lambda f: f["type"] != "presence")
        assert frames[-1]["type"] == kind, frames[-1]
        return frames[-1]

    async def nothing_more(self):
        return await self.communicator.receive_nothing(timeout=0.2)

    async def hello(self, version=None):
        await self.send({"type": "hello", "version": version})
        return await self.receive_until(lambda f: f["type"] in ("state", "snapshot"))


async def open_socket(match_id, user=None, **options):
    cookie = await database_sync_to_async(session_cookie)(user) if user else None
    socket = Socket(match_id, cookie, **options)
    assert await socket.connect()
    return socket


async def db_match(match_id):
    return await database_sync_to_async(Match.objects.get)(pk=match_id)


async def event_count(match_id):
    return await database_sync_to_async(lambda: Match.objects.get(pk=match_id).events.count())()


class LockHolder:
    """A thread that takes the match's row lock, waits until this thread's connection waits for it,
    then runs ``then()`` and commits (PostgreSQL): for what a statement finds after such a wait.
    ``start()``, then the statement, then ``join()``; ``failed`` lists what went wrong in the thread."""

    def __init__(self, match_id, then):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.waiter = cursor.fetchone()[0]
        self.match_id, self.then = match_id, then
        self.locked, self.failed = threading.Event(), []
        self.thread = threading.Thread(target=self.hold)

    def start(self):
        self.thread.start()
        assert self.locked.wait(20)

    def join(self):
        self.thread.join(20)

    def hold(self):
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=self.match_id)
                self.locked.set()
                with connection.cursor() as cursor:
                    deadline = time.monotonic() + 20
                    while time.monotonic() < deadline:
                        # A transaction sees pg_stat_activity as it was at its first look, unless told.
                        cursor.execute("SELECT pg_stat_clear_snapshot()")
                        cursor.execute(
                            "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s AND state = 'active'",
                            [self.waiter],
                        )
                        if cursor.fetchall() == [("Lock",)]:
                            break
                        time.sleep(0.01)
                    else:
                        self.failed.append("the other connection never waited for the lock")
                self.then()
        except BaseException as error:
            self.failed.append(error)
            self.locked.set()
        finally:
            connections.close_all()
