"""Replay page benchmark: the size of a long 神迹之战 match's replay page, and how long it takes to
serve, built afresh and then from the cache (issue #30: a 75 KB record made a 13.4 MB page, built
in 0.9 s for every visitor).

    .venv/bin/python bench/replay_page_bench.py              # 5 timed requests per perspective

It makes its own SQLite database in a temporary folder, migrates it, imports a record of a whole
match of random legal commands (tests/replay_data.py, ``long_miracle_record``), then requests
``/match/<id>/replay/?as=…`` for each perspective: once with an empty cache (the replay is played
again) and ``--repeat`` times more (served from the cache). It prints the figures and one JSON line.
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_django(database_url):
    os.environ.update(
        DATABASE_URL=database_url, SECRET_KEY="replay-page-bench", ALLOWED_HOSTS="testserver",
        DJANGO_SETTINGS_MODULE="aquawar_site.settings", LOG_LEVEL="WARNING",
    )
    for name in ("DEBUG", "REDIS_URL"):
        os.environ.pop(name, None)
    sys.path.insert(0, str(ROOT))
    import django
    from django.conf import settings

    # The production setup's static files are hashed by collectstatic, which the bench does not run.
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    django.setup()


def timed_get(client, url):
    started = time.perf_counter()
    response = client.get(url, secure=True)
    assert response.status_code == 200, (url, response.status_code)
    return time.perf_counter() - started, len(response.content)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="aquawar-replay-bench-"))
    try:
        setup_django(f"sqlite:///{tmp / 'bench.sqlite3'}")
        from django.contrib.auth import get_user_model
        from django.core.cache import cache
        from django.core.management import call_command
        from django.test import Client

        from game.history import imports
        from tests.replay_data import long_miracle_record

        call_command("migrate", verbosity=0, interactive=False)
        record = long_miracle_record(args.seed)
        user = get_user_model().objects.create_user("importer", password="!")
        match = imports.import_record(record, user)
        cache.clear()
        client = Client()
        figures = {"record_bytes": len(record), "commands": match.version, "perspectives": {}}
        for audience in ("all", "0", "spectator"):
            url = f"/match/{match.pk}/replay/?as={audience}"
            first, size = timed_get(client, url)
            cached = [timed_get(client, url)[0] for _ in range(args.repeat)]
            figures["perspectives"][audience] = {
                "page_bytes": size, "first_seconds": round(first, 3),
                "cached_median_seconds": round(statistics.median(cached), 3),
            }
            print(f"as={audience}: {size:,} bytes ({size / len(record):.1f}× the record); built in {first:.3f} s, "
                  f"then {statistics.median(cached):.3f} s (median of {args.repeat}) from the cache")
    finally:
        from django.db import connections

        connections.close_all()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"record: {figures['record_bytes']:,} bytes, {figures['commands']} commands")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
