"""What one command costs the service layer: CPU and SQL statements per ``services.apply_command``.

Plays ``--matches`` matches of random legal commands between two accounts through the service
layer, in this process, and times each call with the calling thread's CPU clock (work on other
threads, such as a worker thread woken by the change, is not counted; the process is otherwise
idle, so the clock is steady on a shared machine, unlike wall time). Reports the median and mean
CPU per command and the SQL statements per command, counted at the database connection. The
commands are chosen and the state read outside the timed calls.

    python bench/command_cost.py [--setup production] [--game aquawar] [--matches 20] [--repeat 3]

``--setup production`` uses a PostgreSQL database and Redis database of its own (the channel layer
the doorbell rings on), ``embedded`` a SQLite file and the in-memory layer; everything it makes is
removed again (``_loadserver.Environment``). Win-chance estimates are off (``WIN_CHANCES=0``): they
are asked for on commit and made elsewhere.
"""
import argparse
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
    parser.add_argument("--setup", choices=("embedded", "production"), default="production")
    parser.add_argument("--game", default="aquawar")
    parser.add_argument("--matches", type=int, default=20, help="matches per repetition")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions; the medians are over all of them")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis-db", type=int, default=12)
    return parser.parse_args(argv)


class StatementCounter:
    """A connection's execute wrapper that counts the statements run through it."""

    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def play(game_name, users, rng, counter):
    """One match of random legal commands; [(cpu ns, statements)] per command."""
    from django.db import connection

    from game import games, services
    from game.models import Match

    game = games.get(game_name)
    match = services.join_match(services.create_match(users[0], game=game_name), users[1])
    costs = []
    while True:
        row = Match.objects.get(pk=match.pk)
        if row.status != Match.Status.LIVE:
            return costs
        state = game.load(row.state)
        seat = game.to_move(state)[0]
        command = rng.choice(game.legal_commands(state, seat))
        before = counter.count
        with connection.execute_wrapper(counter):
            started = time.thread_time_ns()
            services.apply_command(match.pk, users[seat], f"c{row.version}", row.version, command)
            spent = time.thread_time_ns() - started
        costs.append((spent, counter.count - before))


def main(argv=None):
    args = parse_args(argv)
    env = in_process_environment(args.setup, args.pg, args.redis_db)
    try:
        from django.contrib.auth import get_user_model

        User = get_user_model()
        users = [User.objects.create_user(f"bench-{seat}", password=None) for seat in (0, 1)]
        rng = random.Random(args.seed)
        counter = StatementCounter()
        runs, every = [], []
        for _ in range(args.repeat):
            costs = [cost for _ in range(args.matches) for cost in play(args.game, users, rng, counter)]
            runs.append(statistics.median(ns for ns, _ in costs) / 1000)
            every += costs
        statements = statistics.mean(count for _, count in every)
        result = {
            "setup": args.setup,
            "game": args.game,
            "commands_per_run": len(costs),
            "cpu_us_median_per_run": [round(run, 1) for run in runs],
            "cpu_us_median": round(statistics.median(runs), 1),
            "statements_per_command": round(statements, 2),
        }
        print(
            f"{args.setup} {args.game}: {len(costs)} commands a run, CPU per command (median of each run) "
            f"{', '.join(f'{run:.0f}' for run in runs)} µs; {statements:.2f} SQL statements per command"
        )
        print(json.dumps(result))
    finally:
        env.destroy()


if __name__ == "__main__":
    main()
