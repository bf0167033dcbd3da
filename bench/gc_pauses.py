"""The servers' garbage collection under live matches: what the heap holds and how long collections stop it.

Plays ``--matches`` live matches of each game at once in this process, through the match sockets
themselves (channels' communicator on the site's ASGI application, SQLite and the in-memory channel
layer of ``_loadserver.Environment("embedded")``): per match a JSON socket and a page (``ui=html``)
per seat, and a JSON and a page spectator. Each round applies one random legal command to every
live match (``services.apply_command``, as a socket of this process would: its row is kept for the
fan-out) and waits until every socket has been brought to the new version, so every change goes
through ``fanout.together`` and ``MatchConsumer.changes`` as it does in a server.

Two phases in one run, as a server would live them: ``warm-up`` (``--warmup`` rounds, the engines'
and the pages' tables built on first use), then ``play`` (``--rounds`` rounds more, new matches
started as others end). ``--freeze`` freezes the heap (``aquawar_site.gcsetup.freeze``) before the
first socket opens (``start``), after the warm-up (``warm-up``) or both, as a server does
(``both``). Reported per phase, from a ``gc.callbacks`` hook: collections per generation, their
median and largest pause in ms (wall clock, and the process's CPU); after each phase, the objects
the collector tracks (``len(gc.get_objects())``, frozen ones excluded) and their most common types,
the median time of ``gc.collect(0/1/2)`` (``--collects`` of each), and the tracked objects held by
the fan-out's tables (``fanout``) by table, and how often a game part was found in its table and
how often made (``parts_hits_misses``). One JSON line at the end.

    .venv/bin/python bench/gc_pauses.py [--matches 25] [--warmup 20] [--rounds 60] [--freeze both] [--seed 1]

At the end: ``frozen_garbage``, the cyclic garbage a collection finds once the heap is unfrozen
(what freezing keeps for good, besides what the closed sockets leave).
"""
import argparse
import asyncio
import collections
import gc
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _loadserver import Environment  # noqa: E402

GAMES = ("aquawar", "miracle")
ORIGIN = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=25, help="live matches of each game at once")
    parser.add_argument("--warmup", type=int, default=20, help="rounds before the measured play")
    parser.add_argument("--rounds", type=int, default=60, help="rounds of the measured play")
    parser.add_argument("--collects", type=int, default=5, help="timed gc.collect() of each generation")
    parser.add_argument(
        "--freeze", choices=("none", "start", "warm-up", "both"), default="none",
        help="when to freeze the heap (aquawar_site.gcsetup.freeze): before the first socket, after the warm-up, both",
    )
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


class Pauses:
    """Every collection's generation and duration (wall clock, and the process's CPU: on a shared
    machine the wall clock of a pause also holds the time other processes had the core), from
    ``gc.callbacks``."""

    def __init__(self):
        self.seen = []
        self.started = None

    def __call__(self, phase, info):
        if phase == "start":
            self.started = (time.perf_counter(), time.thread_time())
        elif self.started is not None:
            wall, cpu = self.started
            ms = (time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000
            self.seen.append((info["generation"], *ms))
            self.started = None

    def summary(self):
        out = {}
        for generation in (0, 1, 2):
            seen = [(wall, cpu) for gen, wall, cpu in self.seen if gen == generation]
            out[generation] = {"count": len(seen)}
            for name, index in (("", 0), ("cpu_", 1)):
                times = [pause[index] for pause in seen]
                out[generation][f"{name}median_ms"] = round(statistics.median(times), 2) if times else None
                out[generation][f"{name}max_ms"] = round(max(times), 2) if times else None
        return out


class Viewer:
    """One socket, its frames taken off as they come (a browser or a program reading them)."""

    def __init__(self, match_id, cookie, html, address):
        from channels.testing import WebsocketCommunicator

        from aquawar_site.asgi import application

        path = f"/ws/match/{match_id}/" + ("?ui=html" if html else "")
        headers = ORIGIN + ([(b"cookie", cookie.encode())] if cookie else [])
        self.communicator = WebsocketCommunicator(application, path, headers=headers)
        self.communicator.scope["client"] = [address, 50000]
        self.html = html
        self.version = -1
        self.frames = 0

    async def open(self):
        connected, _ = await self.communicator.connect(timeout=30)
        assert connected
        if not self.html:
            await self.communicator.send_to(text_data=json.dumps({"type": "hello", "version": None}))

    def take(self):
        """Read what has arrived; the version the socket was brought to (pages: frames counted)."""
        queue = self.communicator.output_queue
        if self.communicator.future.done():
            raise SystemExit(f"a socket failed: {self.communicator.future.exception()!r}")
        while not queue.empty():
            message = queue.get_nowait()
            if message.get("type") != "websocket.send":
                continue
            self.frames += 1
            if not self.html:
                frame = json.loads(message["text"])
                if frame["type"] in ("state", "snapshot"):
                    self.version = frame["version"]

    async def close(self):
        await self.communicator.disconnect(timeout=30)


class Table:
    """A live match, its players and its six sockets."""

    def __init__(self, game, users, index):
        self.game, self.users, self.index = game, users, index
        self.match_id = None
        self.viewers = []
        self.version = 0
        self.pages_seen = 0

    def start(self):
        from game import services

        match = services.join_match(services.create_match(self.users[0], game=self.game), self.users[1])
        self.match_id, self.version = match.pk, match.version

    async def watch(self, cookies):
        self.viewers = [
            Viewer(self.match_id, cookies[0], False, "127.0.0.1"),
            Viewer(self.match_id, cookies[1], False, "127.0.0.1"),
            Viewer(self.match_id, cookies[0], True, "127.0.0.1"),
            Viewer(self.match_id, cookies[1], True, "127.0.0.1"),
            Viewer(self.match_id, None, False, f"10.1.{self.index // 250}.{self.index % 250}"),
            Viewer(self.match_id, None, True, f"10.2.{self.index // 250}.{self.index % 250}"),
        ]
        for viewer in self.viewers:
            await viewer.open()

    def move(self, rng):
        """One random legal command of the seat to move; whether the match is still live."""
        from game import games, services
        from game.models import Match

        row = Match.objects.get(pk=self.match_id)
        if row.status != Match.Status.LIVE:
            return False
        game = games.get(row.game)
        state = game.load(row.state)
        seat = game.to_move(state)[0]
        command = rng.choice(game.legal_commands(state, seat))
        result = services.apply_command(self.match_id, self.users[seat], f"c{row.version}", row.version, command)
        self.version = result.version
        return Match.objects.filter(pk=self.match_id, status=Match.Status.LIVE).exists()

    def caught_up(self):
        """Every JSON socket at the match's version, every page redrawn since the last command."""
        for viewer in self.viewers:
            viewer.take()
        json_ok = all(v.version >= self.version for v in self.viewers if not v.html)
        pages = [v.frames for v in self.viewers if v.html]
        return json_ok and all(frames > self.pages_seen for frames in pages)

    async def close(self):
        for viewer in self.viewers:
            await viewer.close()


async def settle(tables, timeout=30.0):
    """Until every socket has what the last round's commands sent it."""
    deadline = time.monotonic() + timeout
    while not all(table.caught_up() for table in tables):
        if time.monotonic() > deadline:
            raise SystemExit("sockets did not catch up within the timeout")
        await asyncio.sleep(0.002)
    for table in tables:
        table.pages_seen = min(v.frames for v in table.viewers if v.html)


def fanout_objects():
    """Objects the collector tracks that the fan-out's tables hold, by table (their keys included)."""
    from game.live import fanout

    out = {}
    for name in ("rows", "newest", "events", "projections", "parts", "counts", "estimates"):
        table = getattr(fanout, name)
        with table.lock:
            roots = list(table.items.items())
        seen = set()
        stack = [obj for pair in roots for obj in pair]
        while stack:
            obj = stack.pop()
            if id(obj) in seen or not gc.is_tracked(obj):
                continue
            seen.add(id(obj))
            if isinstance(obj, type) or type(obj).__module__ in ("builtins",) and callable(obj):
                continue
            stack.extend(gc.get_referents(obj))
        out[name] = len(seen)
    return out


def heap(collects):
    from game.live import fanout

    gc.collect()
    times = {}
    for generation in (0, 1, 2):
        spent = []
        for _ in range(collects):
            started = time.perf_counter()
            gc.collect(generation)
            spent.append((time.perf_counter() - started) * 1000)
        times[generation] = round(statistics.median(spent), 2)
    tracked = gc.get_objects()
    kinds = collections.Counter(type(obj).__name__ for obj in tracked).most_common(8)
    return {
        "tracked": len(tracked),
        "kinds": dict(kinds),
        "frozen": gc.get_freeze_count(),
        "collect_ms": times,
        "fanout": fanout_objects(),
        "parts_hits_misses": (fanout.parts.hits, fanout.parts.misses),
    }


async def play(args, users, cookies):
    from channels.db import database_sync_to_async

    if args.freeze != "none":
        from aquawar_site import gcsetup

    rng = random.Random(args.seed)
    made = [0]

    async def new_table(game, pair):
        made[0] += 1
        table = Table(game, users[pair], made[0])
        await database_sync_to_async(table.start)()
        await table.watch(cookies[pair])
        return table

    if args.freeze in ("start", "both"):
        gcsetup.freeze()
    tables = []
    for pair in range(len(users)):
        tables.append(await new_table(GAMES[pair % 2], pair))
    await settle(tables)
    report = {}
    pauses = Pauses()
    gc.callbacks.append(pauses)
    try:
        for phase, rounds in (("warm-up", args.warmup), ("play", args.rounds)):
            if phase == "play" and args.freeze in ("warm-up", "both"):
                gcsetup.freeze()
            pauses.seen.clear()
            commands = 0
            started = time.process_time()
            for _ in range(rounds):
                for index, table in enumerate(tables):
                    live = await database_sync_to_async(table.move)(rng)
                    commands += 1
                    if not live:
                        await settle([table])
                        await table.close()
                        tables[index] = await new_table(table.game, users.index(table.users))
                await settle(tables)
            cpu = time.process_time() - started
            gc.callbacks.remove(pauses)
            report[phase] = {"commands": commands, "cpu_s": round(cpu, 2), "pauses": pauses.summary(), **heap(args.collects)}
            gc.callbacks.append(pauses)
            print(phase, json.dumps(report[phase]), flush=True)
    finally:
        gc.callbacks.remove(pauses)
        for table in tables:
            await table.close()
    # What was frozen and has become cyclic garbage since: freezing keeps it for good.
    gc.unfreeze()
    report["frozen_garbage"] = gc.collect()
    return report


def main(argv=None):
    args = parse_args(argv)
    env = Environment("embedded", "", None, conn_max_age=None)
    env.env.update(WIN_CHANCES="0", BOT_WORKERS="inline", RECHECK_SECONDS="0", SOCKET_RATE="1000000/1")
    env.env["MATCH_SOCKET_RATE"] = "1000000/1"
    env.create()
    try:
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.test.utils import override_settings

        # The pages name their images through the storage; nothing was collected for a manifest.
        plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
        override_settings(STORAGES={**settings.STORAGES, "staticfiles": plain}).enable()

        from tests.game.helpers import session_cookie

        User = get_user_model()
        users, cookies = [], []
        for pair in range(2 * args.matches):
            seats = [User.objects.create_user(f"gc-{pair}-{seat}", password=None) for seat in (0, 1)]
            users.append(seats)
            cookies.append([session_cookie(user) for user in seats])
        report = asyncio.run(play(args, users, cookies))
        print(json.dumps({"matches": args.matches, "freeze": args.freeze, "python": sys.version.split()[0], **report}))
    finally:
        env.destroy()


if __name__ == "__main__":
    main()
