"""Quick pairing benchmark: N waiting seekers, paired by P server processes at once.

    .venv/bin/python bench/pairing_bench.py                      # SQLite file, 1,000 seekers, 2 processes
    .venv/bin/python bench/pairing_bench.py --pg postgres://postgres@127.0.0.1:5432/test

It makes its own database (a SQLite file in a temporary folder, or a PostgreSQL database named
``aquawar_pairing_bench_<pid>`` next to the one ``--pg`` names; dropped at the end), migrates it,
puts N accounts with ratings drawn around 1500 in quick pairing's pool (``ratings.models.Seek``), then
starts P worker processes at the same instant. Each runs ``ratings.pairing.pair_waiting`` over the
pool until no seek is left open, as server processes answering seekers' polls would. Then it checks
that every seeker is in exactly one match, every match has two of them, and no seek was taken twice,
and prints the figures (and one JSON line). It exits non-zero if a check fails.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
# Past this many seconds a worker gives up (the check then reports the seekers left unpaired).
WORKER_LIMIT = 120


def setup_django(database_url):
    os.environ.update(
        DATABASE_URL=database_url, SECRET_KEY="pairing-bench", ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SETTINGS_MODULE="aquawar_site.settings", LOG_LEVEL="WARNING",
    )
    os.environ.pop("DEBUG", None)
    os.environ.pop("REDIS_URL", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def worker(start_at):
    from django.utils import timezone

    from ratings.models import Seek
    from ratings.pairing import pair_waiting

    time.sleep(max(0.0, start_at - time.time()))
    made, rounds = 0, 0
    while Seek.objects.filter(match=None).exists() and time.time() - start_at < WORKER_LIMIT:
        # What the waiting seekers' polls do meanwhile: keep their seeks fresh.
        Seek.objects.filter(match=None).update(seen=timezone.now())
        made += pair_waiting()
        rounds += 1
    print(json.dumps({"made": made, "rounds": rounds, "finished": time.time()}))


def fill(seekers, seed):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from ratings.models import Seek

    rng = random.Random(seed)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"seeker{number}", password="!") for number in range(seekers)
    )
    now = timezone.now()
    Seek.objects.bulk_create(
        Seek(user=user, game="aquawar", rating=rng.gauss(1500, 200), created=now, seen=now) for user in users
    )


def check(seekers, start_at):
    from game.models import Match
    from ratings.models import Seek

    made = sorted(moment.timestamp() - start_at for moment in Match.objects.values_list("created", flat=True))

    seeks = list(Seek.objects.values_list("user_id", "match_id", "rating"))
    matches = list(Match.objects.values_list("pk", "host_id", "guest_id"))
    seats = Counter(user for _pk, host, guest in matches for user in (host, guest))
    by_match = Counter(match for _user, match, _rating in seeks if match is not None)
    rating = {user: value for user, _match, value in seeks}
    gaps = [abs(rating[host] - rating[guest]) for _pk, host, guest in matches]
    problems = []
    if any(count != 1 for count in seats.values()):
        problems.append(f"{sum(1 for c in seats.values() if c > 1)} seekers in more than one match")
    if any(count != 2 for count in by_match.values()):
        problems.append("a match that is not two seeks'")
    if len(seats) < seekers:
        # Counted from the matches: a seek left waiting too long is swept away, not left behind.
        problems.append(f"{seekers - len(seats)} seekers left unpaired")
    return len(matches), gaps, problems, made


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seekers", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--pg", help="a PostgreSQL URL on this machine; the benchmark makes a database beside it")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--worker", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        setup_django(args.database)
        worker(args.worker)
        return 0

    tmp = Path(tempfile.mkdtemp(prefix="aquawar-pairing-bench-"))
    db_name = None
    if args.pg:
        if urlsplit(args.pg).hostname not in ("127.0.0.1", "localhost", "::1"):
            raise SystemExit("the benchmark only talks to a database on this machine")
        import psycopg

        db_name = f"aquawar_pairing_bench_{os.getpid()}"
        with psycopg.connect(args.pg, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{db_name}"')
        database = urlsplit(args.pg)._replace(path=f"/{db_name}").geturl()
    else:
        database = f"sqlite:///{tmp / 'bench.sqlite3'}"
    try:
        setup_django(database)
        from django.core.management import call_command
        from django.db import connection, connections

        call_command("migrate", verbosity=0, interactive=False)
        fill(args.seekers, args.seed)
        connections.close_all()
        start_at = time.time() + 3  # every worker has loaded Django by then
        command = [sys.executable, __file__, "--worker", str(start_at), "--database", database]
        workers = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(args.processes)]
        reports = [json.loads(w.communicate()[0].strip().splitlines()[-1]) for w in workers]
        elapsed = max(r["finished"] for r in reports) - start_at
        matches, gaps, problems, made = check(args.seekers, start_at)
        vendor = connection.vendor
    finally:
        from django.db import connections

        connections.close_all()
        if db_name:
            import psycopg

            with psycopg.connect(args.pg, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
        shutil.rmtree(tmp, ignore_errors=True)

    figures = {
        "database": vendor, "seekers": args.seekers, "processes": args.processes, "matches": matches,
        "seconds": round(elapsed, 2), "pairs_per_second": round(matches / elapsed, 1) if elapsed else None,
        "made_by_process": [r["made"] for r in reports],
        "median_gap": round(statistics.median(gaps), 1) if gaps else None,
        "max_gap": round(max(gaps), 1) if gaps else None, "problems": problems,
        # When the matches were made, in seconds after the workers started: the bulk is throughput,
        # the tail is the few far-out ratings waiting for their windows to widen.
        "made_at": {q: round(made[min(len(made) - 1, int(len(made) * q / 100))], 2) for q in (50, 90, 99)} if made else {},
    }
    print(f"{vendor}: {args.seekers} seekers, {args.processes} processes -> {matches} matches in "
          f"{elapsed:.2f} s ({figures['pairs_per_second']} pairs/s); by process {figures['made_by_process']}")
    print(f"matches made by (s after start): {figures['made_at']} (50/90/99 %); the last at {figures['seconds']}")
    print(f"rating gap of a pair: median {figures['median_gap']}, max {figures['max_gap']}")
    print("checks: " + ("every seeker in exactly one match, no seek taken twice" if not problems else "; ".join(problems)))
    print(json.dumps(figures))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
