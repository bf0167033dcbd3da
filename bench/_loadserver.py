"""What ``bench/load.py`` sets up and tears down: a database, Redis, daphne processes, bot workers,
users and matches.

Everything made here is the benchmark's own and is removed again: a PostgreSQL database named
``aquawar_bench_<pid>`` (dropped), a temporary folder holding the SQLite file (deleted), the
keys in one Redis database that must be empty at the start (channel layer and cache; deleted),
and the daphne processes it started (terminated by their process ids).
"""
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def require_loopback(url):
    host = urlsplit(url).hostname
    if host not in LOOPBACK:
        raise SystemExit(f"refusing {url}: the benchmark only talks to loopback addresses")


class Environment:
    """The database, channel layer and settings that the servers and the benchmark share."""

    def __init__(self, setup, pg_url, redis_url, conn_max_age, socket_rate=None):
        self.setup = setup
        self.tmp = Path(tempfile.mkdtemp(prefix="aquawar-bench-"))
        self.pg_admin = pg_url
        self.db_name = None
        self.redis_url = redis_url if setup == "production" else None
        self.env = {
            "SECRET_KEY": secrets.token_urlsafe(48),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "BENCH_ECHO": "1",
            "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "aquawar_site.settings",
            "PYTHONUNBUFFERED": "1",
            # Every simulated client connects from 127.0.0.1: the cap per client address (40 match
            # sockets) is for real clients, not for one machine playing hundreds of them.
            "MAX_SOCKETS_PER_ADDRESS": "1000000",
            # And they open them all at once, far faster than the connect rates let one client.
            "SOCKET_CONNECT_RATE": "1000000/1",
            "SOCKET_CONNECT_RATE_PER_ADDRESS": "1000000/1",
        }
        if conn_max_age is not None:
            self.env["CONN_MAX_AGE"] = str(conn_max_age)
        if socket_rate:
            # A saturated player answers each state at once: at the real limit (20 frames per 5 s
            # per socket) a fast server would see rate_limited refusals instead of throughput.
            self.env["MATCH_SOCKET_RATE"] = socket_rate
        if setup == "production":
            self.db_name = f"aquawar_bench_{os.getpid()}"
            parts = urlsplit(pg_url)
            self.env["DATABASE_URL"] = parts._replace(path=f"/{self.db_name}").geturl()
            self.env["REDIS_URL"] = self.redis_url
        else:
            # Not the project's db.sqlite3: a file of our own. DATABASE_URL also turns DEBUG-free
            # production settings on, which only matter for HTTP; the channel layer stays in memory.
            self.env["DATABASE_URL"] = f"sqlite:///{self.tmp / 'bench.sqlite3'}"

    def create(self):
        if self.db_name:
            import psycopg

            with psycopg.connect(self.pg_admin, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{self.db_name}"')
        if self.redis_url:
            import redis

            client = redis.Redis.from_url(self.redis_url)
            if client.dbsize():
                raise SystemExit(f"{self.redis_url} is not empty; choose another --redis-db")
        os.environ.pop("DEBUG", None)
        os.environ.update(self.env)
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)

    def destroy(self):
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        if self.redis_url:
            import redis

            client = redis.Redis.from_url(self.redis_url)
            # The database was empty at the start (checked in create), so every key in it is ours:
            # the channel layer's ``asgi*`` keys and the servers' cache entries.
            keys = list(client.scan_iter(count=1000))
            for start in range(0, len(keys), 500):
                client.delete(*keys[start : start + 500])
        if self.db_name:
            import psycopg

            with psycopg.connect(self.pg_admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        shutil.rmtree(self.tmp, ignore_errors=True)


class Server:
    """One daphne process on its own loopback port."""

    def __init__(self, env, index):
        self.env = env
        self.index = index
        self.port = free_port()
        self.log = env.tmp / f"{self.name}-{index}.log"
        self.url = f"ws://127.0.0.1:{self.port}"
        self.start()

    name = "daphne"

    def command(self):
        return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "aquawar_site.asgi:application"]

    def start(self):
        """Start the process; appends to its log (bench/chaos.py restarts it)."""
        child_env = {k: v for k, v in os.environ.items() if k != "DEBUG"}
        child_env.update(self.env.env)
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                self.command(),
                cwd=ROOT,
                env=child_env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    @property
    def pid(self):
        return self.process.pid

    def wait_ready(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"daphne exited with {self.process.returncode}; see {self.log}:\n{self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise SystemExit(f"daphne on port {self.port} did not start within {timeout} s")

    def log_tail(self, lines=15):
        return self.log.read_text(errors="replace").splitlines()[-lines:]

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


class BotWorker(Server):
    """One ``manage.py run_bots`` process: where the production setup's bots think and clocks run."""

    name = "run_bots"

    def command(self):
        return [sys.executable, "manage.py", "run_bots"]

    def wait_ready(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"run_bots exited with {self.process.returncode}; see {self.log}:\n{self.log.read_text()[-2000:]}")
            if "Bot worker on channel" in self.log.read_text(errors="replace"):
                return
            time.sleep(0.2)
        raise SystemExit(f"run_bots did not start within {timeout} s")


def in_process_environment(setup, pg_url, redis_db):
    """The created environment of a benchmark that plays in its own process, with no servers
    (bench/command_cost.py, fanout_loop_bench.py, known_write_bench.py): local services only,
    connections kept as deployed, no win chances (asked for on commit and made elsewhere), and the
    bots where the setup has them think."""
    require_loopback(pg_url)
    env = Environment(setup, pg_url, f"redis://127.0.0.1:6379/{redis_db}", conn_max_age=60)
    env.env.update(WIN_CHANCES="0", BOT_WORKERS="inline" if setup == "embedded" else "external")
    env.create()
    return env


def memory(pid):
    """(current RSS, peak RSS) in KiB, from /proc."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0])
    return fields.get("VmRSS", 0), fields.get("VmHWM", 0)


def cpu_seconds(pid):
    """User + system CPU seconds the process has used (from /proc/<pid>/stat)."""
    with open(f"/proc/{pid}/stat") as stat:
        parts = stat.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def service_cpu_seconds(names=("postgres", "redis-server")):
    """CPU seconds used so far by every live process with one of these names, by name.

    Read-only, from /proc: tells whether PostgreSQL or Redis is the bound. Backends that exit in
    between are missed (persistent connections keep them alive), and other users of the same
    servers are counted too."""
    total = dict.fromkeys(names, 0.0)
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                head, _, rest = stat.read().rpartition(")")
        except OSError:
            continue
        name = head.partition("(")[2]
        if name in total:
            parts = rest.split()
            total[name] += (int(parts[11]) + int(parts[12])) / tick
    return total


def make_pool(count, tag, game="aquawar"):
    """``count`` live matches of ``game`` with fresh players, and each player's session cookie.

    Written in bulk: ``services.join_match`` does exactly this (a live match whose state is the
    game's new match for its seed, no clock) one transaction at a time, which would take minutes for
    the thousands of matches a run may need. Returns [(match id, (host cookie, guest cookie))].
    """
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from game import games
    from game.models import Match

    User = get_user_model()
    unusable = make_password(None)
    users = User.objects.bulk_create(
        [User(username=f"bench-{tag}-{i}-{seat}", password=unusable) for i in range(count) for seat in (0, 1)]
    )
    store = SessionStore()
    expires = timezone.now() + timedelta(days=1)
    sessions, cookies = [], []
    for user in users:
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        sessions.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={key}")
    Session.objects.bulk_create(sessions)
    matches = []
    rules = games.get(game)
    for i in range(count):
        match = Match(host=users[2 * i], guest=users[2 * i + 1], status=Match.Status.LIVE, game=game)
        match.state = rules.dump(rules.new_match(match.seed, first_mover=match.first_mover))
        matches.append(match)
    Match.objects.bulk_create(matches)
    return [(match.pk, (cookies[2 * i], cookies[2 * i + 1])) for i, match in enumerate(matches)]
