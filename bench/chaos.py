"""Fault test (issue #8): matches between programs while server processes are SIGKILLed and Redis restarts.

    .venv/bin/python bench/chaos.py --matches 20 --kills 5
    .venv/bin/python bench/chaos.py --matches 4 --kills 2 --parallel 4     (what tests/faults runs)

It sets up the production setup from scratch, all of it its own and removed at the end: a
PostgreSQL database ``aquawar_chaos_<pid>`` (``--pg`` names the server; created, migrated,
dropped), a ``redis-server`` of its own on a free port (never the system one: that one is
restarted), and ``--servers`` daphne processes on free ports. Each match gets two fresh accounts
with an API token each; its host plays from one server process and its guest from the next, so
the two players of a match are always on different processes. ``--spectators`` (default 1) anonymous
spectators per match watch it over the match socket, the browser's, resuming with ``hello``.

The programs (``bench/_chaosclient.py``) play random legal commands over the bot socket, each
command with a client id, and reconnect by themselves with back-off, resuming after the last
version they received. Meanwhile a chaos task SIGKILLs a random server process ``--kills`` times,
at random moments, and restarts it on the same port after ``--pause`` seconds; once, between two
kills, it SIGKILLs Redis and starts it again (empty: no persistence, so every channel-layer group
and queued message is gone).

At the end ``bench/_chaosverify.py`` compares every program's record with the database log (see
there for the checks) and the command prints one line,

    matches=20 spectators=20 kills=5 reconnects=37 lost=0 duplicated=0 leaked=0 gaps=0 mismatched=0 ...

and exits with 1 if any match did not finish or anything was lost, duplicated, leaked, out of
order, mismatched or stalled. docs/faults.md describes it.

The move clock of programs is ``--move-seconds`` (default 15) on these servers, not the contest's
3 s: a killed server takes 1–2 s to come back, so with 3 s most kills would end a match by
timeout instead of exercising reconnects. ``--move-seconds 3`` runs it with the contest clock; a
timeout is a legitimate end and is reported as one (``ended=...``).
"""
import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _loadserver import BotWorker, Environment, Server, free_port, require_loopback  # noqa: E402

DEFAULT_PG = os.environ.get("CHAOS_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
FAILURES = ("unfinished", "lost", "duplicated", "leaked", "gaps", "mismatched", "phantom", "stalls")


class Redis:
    """A redis-server of our own, without persistence: a restart forgets everything."""

    def __init__(self, tmp):
        self.port = free_port()
        self.log = tmp / "redis.log"
        self.process = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"redis-server exited with {self.process.returncode}; see {self.log}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise SystemExit(f"redis-server on port {self.port} did not start")

    def kill(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class Daphne(Server):
    """A daphne process that can be SIGKILLed and started again on the same port."""

    def kill(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)


class ChaosEnvironment(Environment):
    """``bench/_loadserver.Environment`` with a database of our own name and the chaos settings."""

    def __init__(self, pg_url, redis_url, db_name, move_seconds, sweep_seconds, recheck_seconds=None):
        super().__init__("production", pg_url, redis_url, None)
        self.db_name = db_name
        self.env["DATABASE_URL"] = urlsplit(pg_url)._replace(path=f"/{db_name}").geturl()
        self.env["DJANGO_SETTINGS_MODULE"] = "bench._chaos_settings"
        self.env["CHAOS_BOT_MOVE_SECONDS"] = str(move_seconds)
        self.env["CHAOS_BOT_SWEEP_SECONDS"] = str(sweep_seconds)
        if recheck_seconds is not None:
            self.env["CHAOS_RECHECK_SECONDS"] = str(recheck_seconds)
        self.env.pop("BENCH_ECHO", None)


def make_players(count):
    """Two fresh accounts per match, each with an API token: [(host, token), (guest, token)] per match."""
    from django.contrib.auth import get_user_model

    from game.programs import tokens

    User = get_user_model()
    tag = os.getpid()
    players = []
    for i in range(count):
        pair = []
        for role in ("host", "guest"):
            user = User.objects.create_user(f"chaos-{tag}-{i}-{role}", password=None)
            pair.append((user.username, tokens.create(user, "chaos")[1]))
        players.append(pair)
    return players


def hosted_match(username):
    """The match ``username`` hosts, if any (each chaos host hosts at most one)."""
    from django.db import connections

    from game.models import Match

    try:
        return Match.objects.filter(host__username=username).values_list("pk", flat=True).first()
    finally:
        connections.close_all()


class Chaos:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.kills = 0
        self.redis_restarts = 0
        self.events = []  # (seconds since start, what happened)
        self.started = None
        self.moves_allowed = None

    def note(self, what):
        self.events.append((round(time.monotonic() - self.started, 2), what))
        if self.args.verbose:
            print(f"{self.events[-1][0]:7.2f} s  {what}", flush=True)

    async def play(self, players, servers, redis):
        from _chaosclient import Seat, Spectator, make_rng

        args = self.args
        self.started = time.monotonic()
        self.moves_allowed = asyncio.Event()
        self.moves_allowed.set()
        slots = asyncio.Semaphore(args.parallel)
        tables = []

        async def find_match(username):
            return await asyncio.to_thread(hosted_match, username)

        async def one_match(host, *others):
            """The host creates the match; the guest and the spectators join it once it exists."""
            async with slots:
                hosting = asyncio.ensure_future(host.run())
                joining = [asyncio.ensure_future(other.run(host.match_known)) for other in others]
                await asyncio.wait([hosting, *joining], return_when=asyncio.FIRST_EXCEPTION)
                if hosting.done() and not host.match_known.done():
                    for task in joining:
                        task.cancel()  # the host never got a match to join
                for seat, task in zip((host, *others), (hosting, *joining)):
                    try:
                        await task
                    except asyncio.CancelledError:
                        seat.crashed = "cancelled"
                    except Exception as error:  # noqa: BLE001 - reported, the other matches go on
                        seat.crashed = repr(error)
                        self.note(f"{seat.label()} crashed: {error!r}")

        tasks = []
        for i, ((host_name, host_token), (guest_name, guest_token)) in enumerate(players):
            common = dict(think=args.think, stall_seconds=args.stall, give_up=args.give_up, find_match=find_match,
                          may_move=self.moves_allowed.wait)
            host = Seat(i, 0, host_name, host_token, servers[i % len(servers)].url + "/ws/bot/",
                        rng=make_rng(args.seed, i, 0), **common)
            guest = Seat(i, 1, guest_name, guest_token, servers[(i + 1) % len(servers)].url + "/ws/bot/",
                         rng=make_rng(args.seed, i, 1), **common)
            spectators = [
                Spectator(i, servers[(i + k) % len(servers)].url, rng=make_rng(args.seed, i, f"spectator{k}"),
                          stall_seconds=args.stall, give_up=args.give_up)
                for k in range(args.spectators)
            ]
            tables.append((host, guest, *spectators))
            tasks.append(asyncio.ensure_future(one_match(host, guest, *spectators)))
        playing = asyncio.gather(*tasks)
        chaos = asyncio.ensure_future(self.chaos(servers, redis, playing, tables))
        try:
            await asyncio.wait_for(asyncio.shield(playing), args.timeout)
        except asyncio.TimeoutError:
            self.note(f"time limit of {args.timeout} s reached; the matches still going are unfinished")
            playing.cancel()
        finally:
            chaos.cancel()
            outcome, _ = await asyncio.gather(chaos, playing, return_exceptions=True)
            if isinstance(outcome, BaseException) and not isinstance(outcome, asyncio.CancelledError):
                # A server or Redis that would not start again: the kills left undone fail the run.
                self.note(f"the chaos task failed: {outcome!r}")
        self.elapsed = time.monotonic() - self.started
        return tables

    async def chaos(self, servers, redis, playing, tables):
        """``--kills`` SIGKILLs of random servers and one Redis restart, at random points of the run.

        The points are drawn uniformly from 5–90 % of the run's progress (versions played over the
        versions a random match takes on average, finished matches counting whole), so kills land in
        every phase of a match, whatever the pace; consecutive ones are at least ``--min-gap`` s apart.
        Once a fault's point is reached the programs hold their moves until it has been applied, so
        fast matches cannot finish before every fault has happened.
        """
        args = self.args
        actions = [(self.rng.uniform(0.05, 0.9), "kill") for _ in range(args.kills)]
        if args.redis_restarts:
            actions.append((self.rng.uniform(0.1, 0.8), "redis"))
        ready = time.monotonic()
        for point, what in sorted(actions):
            ready += self.rng.uniform(args.min_gap, 2 * args.min_gap)
            while progress(tables) < point:
                if playing.done():
                    return
                await asyncio.sleep(0.02)
            self.moves_allowed.clear()
            try:
                await asyncio.sleep(max(0.0, ready - time.monotonic()))
                await self.fault(what, servers, redis, tables)
            finally:
                self.moves_allowed.set()
            ready = time.monotonic()

    async def fault(self, what, servers, redis, tables):
        """SIGKILL a random server process and start it again, or restart Redis empty."""
        args = self.args
        if what == "kill":
            server = self.rng.choice(servers)
            server.kill()
            self.kills += 1
            self.note(f"SIGKILL daphne {server.index} (port {server.port}) at {progress(tables):.0%}")
            await asyncio.sleep(self.rng.uniform(0, args.pause))
            server.start()
            await asyncio.to_thread(server.wait_ready)
            self.note(f"daphne {server.index} is back")
        else:
            redis.kill()
            self.note(f"SIGKILL redis at {progress(tables):.0%}")
            await asyncio.sleep(self.rng.uniform(0, args.pause))
            await asyncio.to_thread(redis.start)
            self.redis_restarts += 1
            self.note("redis is back (empty)")


# A match between random programs takes 69 versions on average (47–96).
AVERAGE_VERSIONS = 69


def progress(tables):
    """How far the run is, 0–1: finished matches count 1, the others their versions so far."""
    done = 0.0
    for host, guest, *_spectators in tables:
        if host.done and guest.done:
            done += 1
        else:
            done += min(max(host.version or 0, guest.version or 0) / AVERAGE_VERSIONS, 0.95)
    return done / max(len(tables), 1)


def summary(chaos, tables, verdict):
    seats = [seat for pair in tables for seat in pair]
    counts = verdict.counts
    counts["stalls"] = sum(seat.stalls for seat in seats)
    ended = ",".join(f"{k[6:]}:{v}" for k, v in sorted(counts.items()) if k.startswith("ended_")) or "none"
    fields = {
        "matches": len(tables),
        "spectators": sum(len(table) - 2 for table in tables),
        "kills": chaos.kills,
        "reconnects": sum(seat.reconnects for seat in seats),
        "lost": counts["lost"],
        "duplicated": counts["duplicated"],
        "leaked": counts["leaked"],
        "gaps": counts["gaps"],
        "mismatched": counts["mismatched"],
        "phantom": counts["phantom"],
        "stalls": counts["stalls"],
        "unfinished": counts["unfinished"],
        "redis_restarts": chaos.redis_restarts,
        "resent": sum(seat.resent for seat in seats),
        "duplicate_acks": sum(d for seat in seats for acks in seat.acks.values() for _v, d in acks),
        "ended": ended,
        "elapsed": f"{chaos.elapsed:.1f}s",
    }
    return " ".join(f"{k}={v}" for k, v in fields.items()), fields


def preflight(pg_url):
    """Why the fault test cannot run here, or None."""
    if shutil.which("redis-server") is None:
        return "redis-server is not installed"
    try:
        import psycopg

        with psycopg.connect(pg_url, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except Exception as error:  # noqa: BLE001 - any failure means "not here"
        return f"PostgreSQL does not answer at {pg_url}: {str(error).strip()}"
    return None


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--parallel", type=int, default=None, help="matches played at once (default: half, at least 2)")
    parser.add_argument("--kills", type=int, default=5, help="SIGKILLs of a server process")
    parser.add_argument("--redis-restarts", type=int, choices=(0, 1), default=1, help="restart Redis once (1) or not (0)")
    parser.add_argument("--spectators", type=int, default=1,
                        help="anonymous spectators per match, on the match socket as a browser watches")
    parser.add_argument("--servers", type=int, default=2, help="daphne processes (at least 2)")
    parser.add_argument("--min-gap", type=float, default=1.5, help="at least this long (s) between kills")
    parser.add_argument("--pause", type=float, default=0.5, help="at most this long (s) before a killed process restarts")
    parser.add_argument("--think", type=float, default=0.08, help="a program thinks up to this long (s) per move")
    parser.add_argument("--move-seconds", type=float, default=15.0, help="the servers' program move clock (s)")
    parser.add_argument("--sweep-seconds", type=float, default=2.0, help="the servers' sweep interval (s)")
    parser.add_argument("--recheck-seconds", type=float, default=None,
                        help="the servers' RECHECK_SECONDS (default: the setting's; 0 turns it off)")
    parser.add_argument("--stall", type=float, default=10.0, help="a connected program hearing nothing this long is stalled")
    parser.add_argument("--give-up", type=float, default=60.0, help="a program stops reconnecting after this long (s)")
    parser.add_argument("--timeout", type=float, default=600.0, help="the whole run's time limit (s)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--pg", default=DEFAULT_PG, help="a PostgreSQL URL whose user may create databases")
    parser.add_argument("--database", default=None, help="name of the database to create (default aquawar_chaos_<pid>)")
    parser.add_argument("--json", metavar="FILE", help="also write the summary and problems as JSON")
    parser.add_argument("--keep-logs", action="store_true", help="print where the server logs are and keep them")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each kill and restart as it happens")
    args = parser.parse_args(argv)
    if args.parallel is None:
        args.parallel = max(2, args.matches // 2)
    if args.servers < 2:
        parser.error("--servers must be at least 2: the two players of a match are on different processes")
    if args.seed is None:
        args.seed = random.randrange(2**32)
    args.database = args.database or f"aquawar_chaos_{os.getpid()}"
    return args


def main(argv=None):
    args = parse_args(argv)
    require_loopback(args.pg)
    missing = preflight(args.pg)
    if missing:
        print(f"cannot run: {missing}", file=sys.stderr)
        return 2

    def interrupted(signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, interrupted)
    env = redis = None
    servers = servers_and_workers = []
    chaos = Chaos(args)
    print(f"chaos: seed={args.seed} matches={args.matches} parallel={args.parallel} "
          f"spectators={args.spectators} kills={args.kills} "
          f"servers={args.servers} move_seconds={args.move_seconds} database={args.database}", flush=True)
    try:
        redis = Redis(Path(tempfile.mkdtemp(prefix="aquawar-chaos-redis-")))
        redis.start()
        env = ChaosEnvironment(
            args.pg, redis.url, args.database, args.move_seconds, args.sweep_seconds, args.recheck_seconds
        )
        env.create()
        players = make_players(args.matches)
        servers = [Daphne(env, i) for i in range(args.servers)]
        # The programs' clocks run in the bot worker, as in production.
        servers_and_workers = servers + [BotWorker(env, 0)]
        for server in servers_and_workers:
            server.wait_ready()
        tables = asyncio.run(chaos.play(players, servers, redis))
        from _chaosverify import verify

        verdict = verify(tables)
        line, fields = summary(chaos, tables, verdict)
        failed = any(fields[name] for name in FAILURES) or fields["kills"] < args.kills
        if failed:
            if not args.verbose:
                for at, what in chaos.events:
                    print(f"{at:7.2f} s  {what}")
            for server in servers:
                # Without the access log: what is left is what went wrong (and the expected
                # tracebacks of sockets that lost Redis).
                lines = [x for x in server.log.read_text(errors="replace").splitlines() if '"WS' not in x]
                print(f"--- daphne {server.index}, the end of its log", *lines[-40:], sep="\n")
        for problem in verdict.problems[:40]:
            print(problem)
        print(line, flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(
                {"summary": fields, "problems": verdict.problems, "events": chaos.events, "seed": args.seed}, indent=1
            ))
        return 1 if failed else 0
    finally:
        for server in servers_and_workers:
            server.stop()
        if env is not None:
            if args.keep_logs:
                print(f"server logs kept in {env.tmp}")
                env.tmp = Path(tempfile.mkdtemp(prefix="aquawar-chaos-empty-"))
            try:
                env.destroy()
            except Exception as error:  # noqa: BLE001 - still stop Redis and drop the database
                print(f"cleanup: {error}", file=sys.stderr)
                drop_database(args.pg, args.database)
        elif args.database:
            drop_database(args.pg, args.database)
        if redis is not None:
            redis.stop()
            shutil.rmtree(redis.log.parent, ignore_errors=True)


def drop_database(pg_url, name):
    import psycopg

    try:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except psycopg.Error as error:
        print(f"cleanup: could not drop {name}: {error}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
