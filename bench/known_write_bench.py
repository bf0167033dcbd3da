"""CPU per move of a match between people written from a row the process has: through the database
thread (``database_sync_to_async(services.apply_known)``, the path before) against from the event
loop (``services.apply_known_from_loop``), in one run, the two taking turns move by move.

Plays Aquawar matches of random legal commands between two accounts (PostgreSQL and Redis of its
own, removed again: ``_loadserver.Environment``), each move from the row the previous move's
write returned (``fanout.latest``), as a socket's process does. A move's cost is the process's CPU
(every thread: the event loop's and the database thread's) from the call to the end of what it set
off on the loop (the doorbell's send to Redis), the commands chosen and the row made outside it;
the wall time too (a move at a time: the database's and Redis's time included).
Moves the one statement does not write (a match's last) are made on the locked path and left out.

    python bench/known_write_bench.py [--moves 1000] [--repeat 3] [--pg URL] [--redis-db 5]
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


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=1000, help="moves per repetition, half on each path")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis-db", type=int, default=12)
    return parser.parse_args(argv)


def players():
    """Two accounts, each with a session: [(user, services.WhileLoggedIn)]."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from game import services

    found = []
    for seat in (0, 1):
        user = get_user_model().objects.create_user(f"bench-{seat}", password="bench-password-1")
        session = SessionStore()
        session.update({SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                        HASH_SESSION_KEY: user.get_session_auth_hash()})
        session.create()
        found.append((user, services.WhileLoggedIn(session.session_key, user.pk, user.password)))
    return found


def new_match(accounts):
    from game import services
    from game.live import fanout

    match = services.join_match(services.create_match(accounts[0][0], paced=False), accounts[1][0])
    return fanout.read_match(match.pk)


async def play(args, accounts, rng):
    """{path: [(CPU ns, wall ns) per move]} for ``args.moves`` moves, the paths taking turns."""
    from channels.db import database_sync_to_async

    from game import games, services
    from game.live import fanout

    paths = {
        "thread": database_sync_to_async(services.apply_known),
        "loop": services.apply_known_from_loop,
    }
    costs = {name: [] for name in paths}
    game = games.get("aquawar")
    match = await database_sync_to_async(new_match)(accounts)
    me = asyncio.current_task()
    turn = 0
    while turn < args.moves:
        known = fanout.latest(match.pk)
        state = game.load(known.state)
        if game.outcome(state) is not None:
            match = await database_sync_to_async(new_match)(accounts)
            continue
        seat = game.to_move(state)[0]
        command = rng.choice(game.legal_commands(state, seat))
        user, login = accounts[seat]
        name = ("thread", "loop")[turn % 2]
        started, wall = time.process_time_ns(), time.perf_counter_ns()
        result = await paths[name](known, user, f"c{known.version}", known.version, command, login)
        # The doorbell's send (and nothing else: the loop's connection keeper waits for ever).
        rings = [task for task in asyncio.all_tasks() if task is not me and task.get_coro().__name__ != "_keep"]
        if rings:
            await asyncio.wait(rings)
        spent, wall = time.process_time_ns() - started, time.perf_counter_ns() - wall
        if result is None:
            # The match's last move: the locked path's, not this benchmark's (it ends the match).
            await database_sync_to_async(services.apply_command)(match.pk, user, f"c{known.version}", known.version, command)
            continue
        costs[name].append((spent, wall))
        turn += 1
    return costs


def main(argv=None):
    args = parse_args(argv)
    env = in_process_environment("production", args.pg, args.redis_db)
    try:
        from asgiref.sync import async_to_sync
        from channels.db import database_sync_to_async

        accounts = database_sync_to_async(players)
        rng = random.Random(args.seed)

        async def run():
            found = await accounts()
            await play(argparse.Namespace(moves=20), found, rng)  # warm-up: connections, code paths
            return [await play(args, found, rng) for _ in range(args.repeat)]

        runs = async_to_sync(run)()
        medians = {
            name: [[statistics.median(cost[i] for cost in run[name]) / 1000 for run in runs] for i in (0, 1)]
            for name in ("thread", "loop")
        }
        result = {
            "moves_per_run": args.moves,
            "cpu_us_median_per_run": {name: [round(m, 1) for m in cpu] for name, (cpu, _) in medians.items()},
            "wall_us_median_per_run": {name: [round(m, 1) for m in wall] for name, (_, wall) in medians.items()},
            "loop_over_thread_cpu_per_run": [
                round(loop / thread, 2) for loop, thread in zip(medians["loop"][0], medians["thread"][0])
            ],
        }
        for name, (cpu, wall) in medians.items():
            print(f"{name}: per move (median of each run) CPU {', '.join(f'{v:.0f}' for v in cpu)} µs,"
                  f" wall {', '.join(f'{v:.0f}' for v in wall)} µs")
        print(json.dumps(result))
    finally:
        env.destroy()


if __name__ == "__main__":
    main()
