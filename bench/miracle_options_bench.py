"""神迹之战's compact options (``engine.options``): the CPU of one call for the player to move, which every
change of a live match costs once per match (``Game.choices``, kept per version in ``fanout.game_part``).

Positions come from random matches (``randomplay``), every ``--every`` commands; each position's call is
timed ``--repeat`` times with ``time.thread_time`` and its median kept. Prints the median and 90th
percentile over the positions in µs, the moves offered per call, and one JSON line.

    .venv/bin/python bench/miracle_options_bench.py --matches 20 --every 5 --repeat 20
"""
import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.games.miracle.engine import apply, new_match, options, randomplay, to_move  # noqa: E402


def positions(matches, every, seed):
    for index in range(matches):
        rng = random.Random(seed + index)
        state = new_match(seed + index)
        count = 0
        while state.phase != "over":
            mover = to_move(state)[0]
            if state.phase == "play" and count % every == 0:
                yield state, mover
            state, _events = apply(state, mover, randomplay.random_command(state, mover, rng))
            count += 1


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    per_call, moves = [], []
    for state, mover in positions(args.matches, args.every, args.seed):
        times = []
        for _ in range(args.repeat):
            start = time.thread_time()
            offered = options(state, mover)
            times.append(time.thread_time() - start)
        per_call.append(statistics.median(times) * 1e6)
        moves.append(sum(len(unit["moves"]) for unit in offered["units"]))
    per_call.sort()
    result = {
        "positions": len(per_call),
        "us_per_call_median": round(statistics.median(per_call), 1),
        "us_per_call_p90": round(per_call[int(0.9 * (len(per_call) - 1))], 1),
        "moves_per_call_median": statistics.median(moves),
    }
    print(f"{result['positions']} positions: {result['us_per_call_median']} µs per call (median), "
          f"p90 {result['us_per_call_p90']} µs; {result['moves_per_call_median']} moves offered (median)")
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
