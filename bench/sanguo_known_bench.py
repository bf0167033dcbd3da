"""The cost of the player page's known IDs (``sanguo.known``): every applied command of the game is
read and projected for the seat, so it grows with the game's length.

Random 33-character games are played to their end with the automatic game master (the engine's
``randomplay``); then, for each seat, ``known.learnt`` is timed over the whole game (the page's cost
at the game's end, its worst). Medians over the seats and games, CPU time of this process.

    nice -n 10 .venv/bin/python bench/sanguo_known_bench.py --games 3 --mode crowd
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aquawar_site.settings")

import django  # noqa: E402

django.setup()

from game.games.three_kingdoms import engine  # noqa: E402
from game.games.three_kingdoms.engine.records.randomplay import Player  # noqa: E402
from sanguo import known  # noqa: E402


def game_rows(seed, mode):
    rows = []

    def on_apply(state, seat, command, in_place=False):
        after, events = engine.apply(state, seat, command, in_place=in_place)
        rows.append((seat if seat in ("gm", "server") else str(seat), command, events))
        return after, events

    player = Player(seed, mode, 33, on_apply=on_apply)
    player.play()
    return player.state, rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", choices=("standard", "solo", "nine", "crowd"), default="crowd")
    args = parser.parse_args(argv)
    times, lengths, events = [], [], []
    for i in range(args.games):
        state, rows = game_rows(args.seed + i, args.mode)
        lengths.append(len(rows))
        events.append(sum(len(r[2]) for r in rows))
        for seat in range(len(state["seat_names"])):
            t0 = time.process_time()
            known.learnt(rows, seat)
            times.append((time.process_time() - t0) * 1000)
    result = {"bench": "sanguo_known", "mode": args.mode, "games": args.games, "seed": args.seed,
              "commands_median": statistics.median(lengths), "events_median": statistics.median(events),
              "ms_per_seat_median": round(statistics.median(times), 2), "ms_per_seat_max": round(max(times), 2)}
    print(f"{args.games} random {args.mode} games from seed {args.seed}: median {result['commands_median']} commands "
          f"({result['events_median']} engine events); known IDs of one seat at the end: median "
          f"{result['ms_per_seat_median']} ms, max {result['ms_per_seat_max']} ms")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
