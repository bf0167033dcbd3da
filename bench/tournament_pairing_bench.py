"""The pairing step of a 64-program Swiss tournament, timed.

A Swiss tournament of ``--players`` programs with random ratings is played for ``--rounds``
rounds with random results (a few draws and called-off matches among them); before each round the
pairing step — standings by score then rating, the bye, the minimum-cost repeat-free matching
(tournaments/pairing.py) — is timed ``--repeat`` times, and the median, the fastest and the
slowest are printed per round. Later rounds are the harder ones: more pairs are ruled out.

    .venv/bin/python bench/tournament_pairing_bench.py --players 64 --rounds 9 --repeat 15

``--db`` times the whole step as the server runs it instead (``tournaments.runner.advance``: read
the round's results and the standings from the database, pair, start the 32 matches with their
program seats, in one transaction), on a fresh SQLite file (or the PostgreSQL server ``--pg`` names,
in a database of its own, dropped at the end); ``--repeat`` whole tournaments, median per round.
Each round's matches are then ended by a random resignation.

    .venv/bin/python bench/tournament_pairing_bench.py --db --repeat 3
    .venv/bin/python bench/tournament_pairing_bench.py --db --pg postgres://postgres@127.0.0.1:5432/test
"""
import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournaments.pairing import SWISS, Played, standings, swiss  # noqa: E402


def result(rng):
    roll = rng.random()
    if roll < 0.03:
        return 0.0, 0.0
    if roll < 0.1:
        return 0.5, 0.5
    return (1.0, 0.0) if roll < 0.55 else (0.0, 1.0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", action="store_true", help="time runner.advance on a database instead")
    parser.add_argument("--pg", help="with --db: a PostgreSQL URL (a database of its own is made beside it)")
    args = parser.parse_args(argv)
    if args.db:
        return database_bench(args)
    pure_bench(args)


def pure_bench(args):
    rng = random.Random(args.seed)
    ratings = {f"program-{i:02d}": rng.uniform(1200, 2200) for i in range(args.players)}
    played = []
    print(f"Swiss, {args.players} players, pairing step timed {args.repeat} times per round")
    print(f"{'round':>5} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'byes':>5}")
    medians = []
    for round_number in range(1, args.rounds + 1):
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            pairs = swiss(ratings, played)
            times.append((time.perf_counter() - start) * 1000)
        medians.append(statistics.median(times))
        byes = sum(1 for _, second in pairs if second is None)
        print(f"{round_number:>5} {medians[-1]:>10.1f} {min(times):>8.1f} {max(times):>8.1f} {byes:>5}")
        for first, second in pairs:
            played.append(Played(first, second, *((1.0, None) if second is None else result(rng))))
    table = standings(ratings, played, SWISS)
    print(f"median over all rounds: {statistics.median(medians):.1f} ms; leader {table[0].player} "
          f"with {table[0].score:g} points (Buchholz {table[0].tiebreak:g})")


def database_bench(args):
    folder = tempfile.mkdtemp(prefix="tournament-bench-")
    if args.pg:
        parts = urlsplit(args.pg)
        name = f"aquawar_tournament_bench_{os.getpid()}"
        url = parts._replace(path=f"/{name}").geturl()
    else:
        url = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.update(DATABASE_URL=url, SECRET_KEY="tournament-bench", DJANGO_SETTINGS_MODULE="aquawar_site.settings")
    for name_ in ("DEBUG", "REDIS_URL"):
        os.environ.pop(name_, None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    if args.pg:
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{name}"')
    try:
        call_command("migrate", verbosity=0)
        # Only the timed call may advance the tournament: not the end of a match (which queues the
        # runner's work in a worker thread), nor the bot runner; and no program clock may run out.
        from django.conf import settings

        from game.services import match_ended, settle_requested

        match_ended.disconnect(dispatch_uid="tournaments.on_match_ended")
        settle_requested.disconnect(dispatch_uid="game.settle_requested")
        settings.BOT_MOVE_SECONDS = 3600
        times = [_one_tournament(args, random.Random(args.seed + n), n) for n in range(args.repeat)]
    finally:
        connection.close()
        if args.pg:
            with connection._nodb_cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        shutil.rmtree(folder, ignore_errors=True)
    engine = "PostgreSQL" if args.pg else "SQLite"
    print(f"Swiss on {engine}, {args.players} programs: runner.advance (results in, standings, pairing, "
          f"{args.players // 2} matches started) per round, median of {args.repeat} tournaments")
    print(f"{'round':>5} {'median ms':>10} {'min ms':>8} {'max ms':>8}")
    medians = []
    for index, row in enumerate(zip(*times), start=1):
        medians.append(statistics.median(row))
        print(f"{index:>5} {medians[-1]:>10.1f} {min(row):>8.1f} {max(row):>8.1f}")
    print(f"median over all rounds: {statistics.median(medians):.1f} ms")


def _one_tournament(args, rng, number):
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from game import services as match_services
    from ratings.api import mark_program
    from ratings.models import Rating
    from tournaments import runner, services
    from tournaments.models import Pairing, Tournament

    users = get_user_model().objects
    organizer = users.create_user(f"organizer-{number}")
    cup = services.create(
        organizer, name=f"Bench {number}", game="aquawar", kind="swiss", for_programs=True, rated=False,
        move_seconds=0, starts=timezone.now() + timedelta(hours=1), rounds=args.rounds,
    )
    for index in range(args.players):
        program = users.create_user(f"program-{number}-{index}")
        mark_program(program)
        Rating.objects.create(user=program, game="aquawar", rating=rng.uniform(1200, 2200), deviation=80)
        services.register(cup.pk, program)
    Tournament.objects.filter(pk=cup.pk).update(starts=timezone.now() - timedelta(seconds=1))
    times = []
    for _ in range(args.rounds):
        start = time.perf_counter()
        runner.advance(cup.pk)
        times.append((time.perf_counter() - start) * 1000)
        cup.refresh_from_db()
        for row in Pairing.objects.filter(tournament=cup, round=cup.round).exclude(match=None).select_related("match"):
            loser = row.first if rng.random() < 0.5 else row.second
            match_services.resign(row.match, loser)
    return times


if __name__ == "__main__":
    main()
