"""What a change's fan-out costs one process: database-thread calls and CPU per ring its sockets handle.

Plays random legal Aquawar matches through ``services.apply_command`` in this process (so the process
keeps each command's row, as the one that applied it does), with match sockets of both dialects open
on each match (both players' and spectators'), and measures each ring from the command's return until
every socket has its update (the doorbell is held and rung at the start of that window): the calls submitted to the sockets' database thread (asgiref's single
thread) and the process's CPU time (every thread: the loop's and the database thread's; the test
clients' reading of the frames is in both figures alike). After each command the spectators are also
rung an estimate (``win_chance.ready``), as a worker rings it.

Two ways, alternated command by command in the same run: ``thread``, every batch on the database
thread and the estimate read from the cache (as before issue #26's loop batches); ``loop``, as now
(``fanout.together(..., on_loop=True)``, the estimate carried by its ring).

    python bench/fanout_loop_bench.py [--setup embedded|production] [--commands 200] [--spectators 6]
                                      [--dialects json|html|both]

``--setup production`` uses a PostgreSQL database and Redis database of its own; ``embedded`` a SQLite
file and the in-memory channel layer (``_loadserver.Environment``; everything made is removed again).
"""
import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _loadserver import in_process_environment  # noqa: E402

ORIGIN = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
TIMEOUT = 10


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setup", choices=("embedded", "production"), default="embedded")
    parser.add_argument("--commands", type=int, default=200, help="commands in all, half of them each way")
    parser.add_argument("--spectators", type=int, default=6, help="spectators' sockets per dialect")
    parser.add_argument("--dialects", choices=("json", "html", "both"), default="both", help="the sockets' dialects")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis-db", type=int, default=3)
    return parser.parse_args(argv)


class Client:
    """One match socket; ``seat`` None for a spectator."""

    def __init__(self, match_id, seat, html, cookie, address):
        from channels.testing import WebsocketCommunicator

        from aquawar_site.asgi import application

        path = f"/ws/match/{match_id}/" + ("?ui=html" if html else "")
        headers = ORIGIN + ([(b"cookie", cookie)] if cookie else [])
        self.communicator = WebsocketCommunicator(application, path, headers=headers)
        self.communicator.scope["client"] = [address, 50000]
        self.seat, self.html = seat, html

    async def receive(self):
        text = (await self.communicator.receive_output(timeout=TIMEOUT))["text"]
        return text if self.html else json.loads(text)

    async def until(self, done):
        while not done(await self.receive()):
            pass

    async def drain(self):
        while not await self.communicator.receive_nothing(timeout=0.05):
            await self.communicator.receive_output()


def updated(version):
    """A JSON socket's last frame of ``version``; a page's one fragment per change (nothing else
    comes: nobody arrives or leaves)."""
    return lambda frame: isinstance(frame, str) or (frame["type"] in ("state", "snapshot") and frame["version"] == version)


def estimated(frame):
    return frame.startswith('<div id="win-chance-value"') if isinstance(frame, str) else frame["type"] == "win_chance"


async def one_match(args, users, cookies, rng, ways, figures, submitted, held):
    from channels.db import database_sync_to_async
    from channels.layers import get_channel_layer
    from django.core.cache import cache

    from game import games, services
    from game.live import frames, groups
    from game.models import Match

    game = games.get("aquawar")
    match = await database_sync_to_async(lambda: services.join_match(services.create_match(users[0]), users[1]))()
    dialects = {"json": (False,), "html": (True,), "both": (False, True)}[args.dialects]
    clients = [Client(match.pk, seat, html, cookies[seat], f"10.0.{seat}.{int(html)}") for seat in (0, 1) for html in dialects]
    clients += [Client(match.pk, None, html, None, f"10.1.{n}.{int(html)}") for n in range(args.spectators) for html in dialects]
    for client in clients:
        await client.communicator.connect(timeout=TIMEOUT)
        if not client.html:
            await client.communicator.send_to(text_data=json.dumps({"type": "hello", "version": None}))
    for client in clients:
        await client.drain()
    spectators = [client for client in clients if client.seat is None]
    layer = get_channel_layer()
    try:
        while len(figures["changed"]["loop"]) + len(figures["changed"]["thread"]) < args.commands:
            row = await database_sync_to_async(Match.objects.get)(pk=match.pk)
            if row.status != Match.Status.LIVE:
                return
            state = game.load(row.state)
            seat = game.to_move(state)[0]
            command = rng.choice(game.legal_commands(state, seat))
            way = next(ways)
            ways_now["way"] = way
            held.clear()
            await database_sync_to_async(services.apply_command)(match.pk, users[seat], f"c{row.version}", row.version, command)
            [(version, ring)] = held
            doorbell = {"type": "match.changed", "version": version, "ring": ring}
            await measured(
                figures["changed"][way], submitted,
                [layer.group_send(groups.match_group(match.pk), doorbell)] + [client.until(updated(version)) for client in clients],
            )
            live = await database_sync_to_async(Match.objects.get)(pk=match.pk)
            if live.status != Match.Status.LIVE:
                continue
            chance = round(rng.random(), 3)
            await database_sync_to_async(cache.set)(frames.win_chance_key(live.pk, live.seed, live.version), chance)
            ready = {"type": "win_chance.ready", "version": live.version, "ring": groups.new_ring()}
            if way == "loop":
                ready["chance"] = chance
            await measured(
                figures["win_chance"][way], submitted,
                [layer.group_send(groups.watchers_group(live.pk), ready)] + [client.until(estimated) for client in spectators],
            )
    finally:
        for client in clients:
            await client.communicator.disconnect(timeout=TIMEOUT)


# The way the current command's rings are handled ("thread" or "loop"), read by ``choosing``.
ways_now = {"way": "loop"}


# The batches opened (``fanout.Batch``), counted by ``bench``.
opened = []


async def measured(into, submitted, waits):
    """Await ``waits`` (every socket's update); note (CPU µs of the process, database-thread calls,
    batches the sockets' calls made)."""
    calls, batches = len(submitted), len(opened)
    started = time.process_time_ns()
    await asyncio.gather(*waits)
    into.append(((time.process_time_ns() - started) / 1000, len(submitted) - calls, len(opened) - batches))


async def bench(args):
    import itertools

    from asgiref.sync import SyncToAsync
    from channels.db import database_sync_to_async
    from django.contrib.auth import get_user_model

    from game.live import fanout, groups

    together = fanout.together
    # The commands' doorbells, held: each is rung in its measured window, not in the command's call.
    held = []
    groups.ring_doorbell = lambda match_id, version, ring=None: held.append((version, ring))

    async def choosing(key, call, on_loop=False):
        return await together(key, call, on_loop=on_loop and ways_now["way"] == "loop")

    fanout.together = choosing
    init = fanout.Batch.__init__

    def counted(batch, loop):
        opened.append(1)
        init(batch, loop)

    fanout.Batch.__init__ = counted
    executor = SyncToAsync.single_thread_executor
    submitted = []
    submit = executor.submit
    executor.submit = lambda *a, **k: submitted.append(1) or submit(*a, **k)

    def accounts():
        from tests.game.helpers import session_cookie

        User = get_user_model()
        users = [User.objects.create_user(f"bench-{seat}", password=None) for seat in (0, 1)]
        return users, [session_cookie(user).encode() for user in users]

    users, cookies = await database_sync_to_async(accounts)()
    rng = random.Random(args.seed)
    ways = itertools.cycle(("thread", "loop"))
    figures = {ring: {"thread": [], "loop": []} for ring in ("changed", "win_chance")}
    while len(figures["changed"]["loop"]) + len(figures["changed"]["thread"]) < args.commands:
        await one_match(args, users, cookies, rng, ways, figures, submitted, held)
    return figures


def main(argv=None):
    args = parse_args(argv)
    env = in_process_environment(args.setup, args.pg, args.redis_db)
    try:
        from django.conf import settings

        # The production setup's static files are hashed by collectstatic, which the bench does not
        # run (the fragments name them); and no recheck on a timer of its own in the figures.
        settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
        settings.RECHECK_SECONDS = 0
        figures = asyncio.run(bench(args))
        result = {"setup": args.setup, "dialects": args.dialects, "spectators": args.spectators}
        for ring, ways in figures.items():
            for way, rows in ways.items():
                cpu = statistics.median(us for us, _, _ in rows)
                calls = statistics.mean(n for _, n, _ in rows)
                batches = statistics.mean(n for _, _, n in rows)
                result[f"{ring}_{way}"] = {
                    "rings": len(rows), "cpu_us_median": round(cpu), "db_calls_mean": round(calls, 2), "batches_mean": round(batches, 2)
                }
                print(f"{args.setup} {args.dialects} {args.spectators}: {ring:10} {way:6}: {len(rows)} rings, {cpu:.0f} µs CPU "
                      f"per ring (median), {calls:.2f} database-thread calls and {batches:.2f} batches per ring")
        print(json.dumps(result))
    finally:
        env.destroy()


if __name__ == "__main__":
    main()
