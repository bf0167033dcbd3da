"""Aquawar match page parts benchmark: the CPU one browser socket spends drawing the parts it
redraws on every change (status, board, controls), per part and in all (with the page context).

    .venv/bin/python bench/aquawar_parts_bench.py                 # 4 matches, a position every 6 commands
    .venv/bin/python bench/aquawar_parts_bench.py --repeat 50 --json FILE

Positions come from random matches played by the engine (tests/games/aquawar/positions.py: both
seats and a spectator, English and Chinese, live positions only, as a socket redraws them). Each
position is drawn ``--repeat`` times through ``presenter.render_parts``, the socket's own path;
the figure is the calling thread's CPU time (``time.thread_time``), so other work on the machine
slows it less than it would a wall clock. It prints the median and 90th percentile per part in µs
and one JSON line. No database, no network.
"""
import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_django():
    os.environ.update(
        DJANGO_SETTINGS_MODULE="aquawar_site.settings", SECRET_KEY="aquawar-parts-bench-0123456789abcdefghijklmnop",
        LOG_LEVEL="WARNING",
    )
    for name in ("DEBUG", "REDIS_URL", "DATABASE_URL"):
        os.environ.pop(name, None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def percentile(values, share):
    values = sorted(values)
    return values[min(len(values) - 1, int(share * len(values)))]


def main(argv=None):
    args = arguments(argv, every=6)
    setup_django()
    from tests.games.aquawar.positions import positions

    return measure("aquawar", positions, args)


def arguments(argv, every, matches=4):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=matches)
    parser.add_argument("--every", type=int, default=every, help="a position every this many commands")
    parser.add_argument("--repeat", type=int, default=20, help="draws of each position and part")
    parser.add_argument("--json", help="also write the JSON line to this file")
    return parser.parse_args(argv)


def measure(name, positions, args):
    """Draw game ``name``'s live positions of ``positions(seed, every)`` (seeds 1 to ``--matches``)
    as a socket does, and print and write the figures. Django must be set up."""
    from django.utils import translation

    from game import games
    from game.live import presenter

    game = games.get(name)
    parts = ("status", "board", "controls")
    samples = {part: [] for part in (*parts, "context", "all")}
    count = 0
    for seed in range(1, args.matches + 1):
        for language, payload, marks, _seats in positions(seed, args.every):
            if payload["status"] != "live":
                continue
            count += 1
            with translation.override(language):
                for _ in range(args.repeat):
                    started = time.thread_time()
                    ctx = presenter.context(game, payload, 1, marks, [True, True], {})
                    made = time.thread_time()
                    drawn = []
                    for part in parts:
                        before = time.thread_time()
                        presenter.render_parts(ctx, (part,))
                        drawn.append(time.thread_time() - before)
                    samples["context"].append(made - started)
                    for part, seconds in zip(parts, drawn):
                        samples[part].append(seconds)
                    samples["all"].append(made - started + sum(drawn))
    figures = {
        part: {"median_us": round(statistics.median(values) * 1e6, 1), "p90_us": round(percentile(values, 0.9) * 1e6, 1)}
        for part, values in samples.items()
    }
    print(f"{count} positions (seat 0, seat 1, spectator; en and zh-hans), {args.repeat} draws each")
    for part, figure in figures.items():
        print(f"{part:10} median {figure['median_us']:9.1f} µs   p90 {figure['p90_us']:9.1f} µs")
    line = json.dumps({"positions": count, "repeat": args.repeat, "parts": figures}, separators=(",", ":"))
    print(line)
    if args.json:
        Path(args.json).write_text(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
