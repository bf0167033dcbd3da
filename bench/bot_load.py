"""Bots think in workers: does a page stay fast while the computer thinks hard?

The production setup on this machine (PostgreSQL, Redis, one daphne process, ``--workers`` bot
workers, ``manage.py run_bots``): first a plain page's latency with nothing else going on, then the
same page while ``--accounts`` accounts each play ``--matches`` matches against ``--level`` (the
people's side answers after ``--think`` seconds with a random legal command, through the services
as a person's socket would; a finished match is replaced at once). Reports the page's p50/p95 in
both phases and their ratio (target: p95 within 1.5x of idle), the CPU each daphne and worker
process used per second of each phase (daphne's should not grow with bot thinking), and the bot
decisions made per second.

    python bench/bot_load.py [--level master] [--accounts 5] [--matches 5] [--seconds 60]

Everything it makes is its own and removed again (``_loadserver.Environment``).
"""
import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _loadserver import BotWorker, Environment, Server, cpu_seconds, require_loopback  # noqa: E402


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="master")
    parser.add_argument("--game", default="aquawar")
    parser.add_argument("--accounts", type=int, default=5)
    parser.add_argument("--matches", type=int, default=5, help="live matches per account")
    parser.add_argument("--workers", type=int, default=2, help="bot worker processes")
    parser.add_argument("--seconds", type=float, default=60, help="length of each phase")
    parser.add_argument("--think", type=float, default=1.0, help="seconds the people's side takes to answer")
    parser.add_argument("--page", default="/accounts/signup/",
                        help="the page whose latency is measured (a plain one: the lobby grows with the live matches)")
    parser.add_argument("--rate", type=float, default=5, help="page requests per second")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis-db", type=int, default=13)
    return parser.parse_args(argv)


def page_latencies(url, seconds, rate):
    """Fetch ``url`` ``rate`` times a second for ``seconds``; the latency of each, in ms."""
    times = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        # As nginx would pass it on: the production settings redirect plain HTTP to HTTPS.
        request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"})
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
        times.append((time.monotonic() - started) * 1000)
        time.sleep(max(0.0, 1 / rate - (time.monotonic() - started)))
    return times


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class People(threading.Thread):
    """The people's side of every match: each due decision answered ``think`` s after it fell due."""

    def __init__(self, args, users):
        super().__init__(daemon=True)
        self.args, self.users = args, users
        self.stop = threading.Event()
        self.moves = 0
        self.errors = []

    def run(self):
        from django.db import close_old_connections

        from game import games, services
        from game.models import Match
        from game.programs import seats

        rng = random.Random(1)
        due_since = {}
        while not self.stop.is_set():
            close_old_connections()
            for user in self.users:
                live = list(Match.objects.filter(host=user, status=Match.Status.LIVE))
                for _ in range(self.args.matches - len(live)):
                    live.append(seats.start_vs_computer(user, self.args.level, game=self.args.game))
                for match in live:
                    game = games.get(match.game)
                    state = game.load(match.state)
                    if 0 not in game.to_move(state):
                        due_since.pop(match.pk, None)
                        continue
                    since = due_since.setdefault((match.pk, match.version), time.monotonic())
                    if time.monotonic() - since < self.args.think:
                        continue
                    command = rng.choice(game.legal_commands(state, 0))
                    try:
                        services.apply_command(match.pk, user, f"person:{match.version}", match.version, command)
                        self.moves += 1
                    except services.ServiceError as error:
                        if error.illegal:
                            self.errors.append(error.message)
            self.stop.wait(0.1)


def bot_decisions():
    from game.models import MatchEvent

    return MatchEvent.objects.filter(client_id__startswith="bot:").count()


def phase(name, args, url, processes):
    before = {label: cpu_seconds(pid) for label, pid in processes.items()}
    decisions = bot_decisions()
    started = time.monotonic()
    latencies = page_latencies(url, args.seconds, args.rate)
    wall = time.monotonic() - started
    cpu = {label: round((cpu_seconds(pid) - before[label]) / wall, 3) for label, pid in processes.items()}
    return {
        "phase": name,
        "requests": len(latencies),
        "p50_ms": round(statistics.median(latencies), 1),
        "p95_ms": round(percentile(latencies, 0.95), 1),
        "cpu_per_s": cpu,
        "bot_decisions_per_s": round((bot_decisions() - decisions) / wall, 2),
    }


def main(argv=None):
    args = parse_args(argv)
    require_loopback(args.pg)
    env = Environment("production", args.pg, f"redis://127.0.0.1:6379/{args.redis_db}", None)
    env.env["BOT_WORKERS"] = "external"
    env.env["MAX_SOCKETS_PER_ADDRESS"] = "1000000"
    servers = []
    people = None
    try:
        env.create()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command

        # Pages name their static files through the manifest, as deployed (docs/deploy.md).
        call_command("collectstatic", interactive=False, verbosity=0)

        daphne = Server(env, 0)
        workers = [BotWorker(env, i) for i in range(args.workers)]
        servers = [daphne, *workers]
        for server in servers:
            server.wait_ready()
        processes = {"daphne": daphne.pid, **{f"worker{i}": w.pid for i, w in enumerate(workers)}}
        url = f"http://127.0.0.1:{daphne.port}{args.page}"
        print(f"{args.level} ({args.game}): {args.accounts} accounts x {args.matches} matches, "
              f"{args.workers} workers, {args.seconds:g} s per phase, page {args.page} at {args.rate:g}/s", flush=True)
        idle = phase("idle", args, url, processes)
        print(json.dumps(idle), flush=True)
        users = [get_user_model().objects.create_user(f"load{i}", password="x") for i in range(args.accounts)]
        people = People(args, users)
        people.start()
        time.sleep(3)  # every match started and its first decisions asked for
        busy = phase("bots thinking", args, url, processes)
        print(json.dumps(busy), flush=True)
        ratio = busy["p95_ms"] / idle["p95_ms"]
        result = {"idle": idle, "busy": busy, "p95_ratio": round(ratio, 2), "target_p95_ratio": 1.5,
                  "met": ratio <= 1.5, "people_moves": people.moves, "illegal_people_moves": len(people.errors)}
        print(json.dumps(result), flush=True)
        return 0 if result["met"] else 1
    finally:
        if people is not None:
            people.stop.set()
            people.join(10)
        for server in servers:
            server.stop()
            print(f"--- last lines of {server.name} {server.index}:", *server.log_tail(5), sep="\n", file=sys.stderr)
        env.destroy()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
