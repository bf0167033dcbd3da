"""Place every bot level of a game on the site's rating scale: a round robin, then Glicko-2.

    python bench/bot_ratings.py [--game aquawar] [--matches 20] [--seed 1] [--jobs 2] [--master-worlds 8] [--out FILE]
    python bench/bot_ratings.py --game miracle [--master-width 4] ...

Every pair of levels plays ``--matches`` matches (seats and first movers alternated, each bot fed
only its own view, as in bench/bot_tournament.py and bench/miracle_tournament.py; the masters on a
fixed amount of work, so the result does not depend on how busy the machine was). The results are then rated as the site rates
accounts (``ratings.glicko2``: every level starts as a new account, 1500 ± 350, and each match is
its own rating period for both sides), in a shuffled but seeded order, and written as a small JSON
file: ``{"ratings": {level: {"rating", "deviation"}}, "matches": {"a-b": [a's wins, matches]}, ...}``.
"""
import argparse
import itertools
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import bot_tournament, miracle_tournament  # noqa: E402
from bench._tournament import play_all  # noqa: E402
from game.games.aquawar.bots import LEVELS as AQUAWAR_LEVELS  # noqa: E402
from game.games.miracle.bots import LEVELS as MIRACLE_LEVELS  # noqa: E402
from ratings.glicko2 import Glicko, update  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def out_path(game):
    """Where the game reads its levels' ratings (``game.games.base.measured_level_ratings``)."""
    return os.path.join(ROOT, "game", "games", game, "bots", "level_ratings.json")


def aquawar_tasks(args):
    budgets = (0, False, args.master_worlds, 0.0, 0, ())
    pairs = list(itertools.combinations(AQUAWAR_LEVELS, 2))
    return bot_tournament.play_match, [(i, a, b, args.seed, budgets) for a, b in pairs for i in range(args.matches)]


def miracle_tasks(args):
    master = f"master:width={args.master_width},turn_seconds=None"
    specs = {level: master if level == "master" else level for level in MIRACLE_LEVELS}
    pairs = list(itertools.combinations(specs.values(), 2))
    return miracle_tournament.play_match, [(i, a, b, args.seed) for a, b in pairs for i in range(args.matches)]


def level_of(spec):
    return spec.partition(":")[0]


def rate(outcomes, seed):
    """Glicko-2 ratings from ``[(winner level, loser level)]``, one rating period per match."""
    ratings = {level: Glicko() for pair in outcomes for level in pair}
    order = list(outcomes)
    random.Random(seed).shuffle(order)
    for winner, loser in order:
        won, lost = ratings[winner], ratings[loser]
        ratings[winner] = update(won, [(lost, 1.0)])
        ratings[loser] = update(lost, [(won, 0.0)])
    return ratings


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("aquawar", "miracle"), default="aquawar")
    parser.add_argument("--matches", type=int, default=20, help="matches per pair of levels")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--master-worlds", type=int, default=8, help="Aquawar: the master's worlds per decision")
    parser.add_argument("--master-width", type=int, default=4, help="神迹之战: the master's search width per turn")
    parser.add_argument("--out", help="default: the game's bots/level_ratings.json")
    args = parser.parse_args(argv)
    args.out = args.out or out_path(args.game)
    play_match, tasks = (aquawar_tasks if args.game == "aquawar" else miracle_tasks)(args)
    results, elapsed = play_all(play_match, tasks, args.jobs)
    outcomes, table = [], {}
    for (_i, a, b, *_rest), (a_won, *_times) in zip(tasks, results):
        a, b = level_of(a), level_of(b)
        outcomes.append((a, b) if a_won else (b, a))
        wins, played = table.get(f"{a}-{b}", (0, 0))
        table[f"{a}-{b}"] = (wins + a_won, played + 1)
    ratings = rate(outcomes, args.seed)
    data = {
        "ratings": {level: {"rating": round(r.rating), "deviation": round(r.deviation)} for level, r in ratings.items()},
        "matches": {pair: list(result) for pair, result in table.items()},
        "command": "python bench/bot_ratings.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1)
        handle.write("\n")
    for level, r in sorted(ratings.items(), key=lambda item: item[1].rating):
        print(f"{level}: {r.rating:.0f} ± {2 * r.deviation:.0f}")
    print(f"{len(tasks)} matches, {elapsed:.0f} s -> {args.out}")


if __name__ == "__main__":
    main()
