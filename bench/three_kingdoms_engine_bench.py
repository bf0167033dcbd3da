"""三国 engine cost: random 33-character games played to their end with the automatic game master.

For each game: engine time (``apply`` on a copy, as the server does) per game and per command, and
the cost of the views after every command for every audience (each seat, the GM, the spectator)
and of projecting the command's events to them. The random policy (``legal_commands`` and the
choice) is not counted. Times are CPU time of this process (``time.process_time``) unless
``--clock wall``; medians over the games are printed.

    nice -n 10 .venv/bin/python bench/three_kingdoms_engine_bench.py --games 10 --seed 1
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.games.three_kingdoms.engine import apply, project, view  # noqa: E402
from game.games.three_kingdoms.engine.records.randomplay import Player  # noqa: E402
from game.games.three_kingdoms.engine.state import seats  # noqa: E402

CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def play(seed: int, mode: str, clock) -> dict:
    spent = {"apply": 0.0, "views": 0.0, "commands": 0}

    def timed_apply(state, seat, command, in_place=False):
        t0 = clock()
        after, events = apply(state, seat, command, in_place=in_place)
        t1 = clock()
        for audience in [*seats(after), "gm", "spectator"]:
            project(events, audience)
            view(after, audience)
        t2 = clock()
        spent["apply"] += t1 - t0
        spent["views"] += t2 - t1
        spent["commands"] += 1
        return after, events

    player = Player(seed, mode, 33, on_apply=timed_apply)
    player.play()
    spent["seats"] = len(player.state["seat_names"])
    spent["nights"] = player.state["night"]
    return spent


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per mode (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    parser.add_argument("--mode", action="append", choices=("standard", "solo", "nine", "crowd"),
                        help="mode (repeatable; default standard and crowd)")
    parser.add_argument("--clock", choices=CLOCKS, default="cpu")
    args = parser.parse_args(argv)
    results = {}
    for mode in args.mode or ["standard", "crowd"]:
        games = [play(args.seed + i, mode, CLOCKS[args.clock]) for i in range(args.games)]
        results[mode] = {
            "seats": games[0]["seats"],
            "commands_per_game_median": statistics.median(g["commands"] for g in games),
            "nights_per_game_median": statistics.median(g["nights"] for g in games),
            "engine_ms_per_game_median": statistics.median(g["apply"] * 1000 for g in games),
            "engine_ms_per_command_median": statistics.median(g["apply"] * 1000 / g["commands"] for g in games),
            "views_ms_per_command_median": statistics.median(g["views"] * 1000 / g["commands"] for g in games),
        }
    print(f"{args.games} random 33-character games per mode from seed {args.seed}, Python "
          f"{sys.version.split()[0]}, {args.clock} clock")
    print(f"{'mode':<9} {'seats':>5} {'commands':>9} {'nights':>7} {'engine ms/game':>15} {'engine ms/cmd':>14} "
          f"{'views ms/cmd (all audiences)':>29}")
    for mode, r in results.items():
        print(f"{mode:<9} {r['seats']:>5} {r['commands_per_game_median']:>9.0f} {r['nights_per_game_median']:>7.0f} "
              f"{r['engine_ms_per_game_median']:>15.1f} {r['engine_ms_per_command_median']:>14.2f} "
              f"{r['views_ms_per_command_median']:>29.2f}")
    print(json.dumps({"bench": "three_kingdoms_engine", "games": args.games, "seed": args.seed, "clock": args.clock,
                      "results": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
