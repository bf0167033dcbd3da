"""Make the master's deck table (game/games/miracle/bots/data/deck_table.json) by self-play.

    .venv/bin/python bench/miracle_deck_table.py [--matches 4] [--finalists 8] [--jobs 2] [--seed 1]

Both phases play the decks with the same policy on both sides (the greedy level's, cheap enough for
all 80 decks), seats alternated. Phase 1 plays every deck against the decks of the other levels
(the field a visitor meets); phase 2 plays the best ``--finalists`` of phase 1 and the field's decks
round robin. The table holds phase 2's results: for each pair, the row deck's wins and the matches
played. The master picks from it without knowing the opponent's deck (``bots/decks.py``).
"""
import json
import os
import random
import sys
from itertools import combinations

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._tournament import play_all  # noqa: E402
from game.games.miracle.bots import expert, greedy  # noqa: E402
from game.games.miracle.bots.decks import TABLE_PATH, deck_key  # noqa: E402
from game.games.miracle.bots.greedy import GreedyBot  # noqa: E402
from game.games.miracle.engine import apply, legal_commands, new_match, project, to_move, view  # noqa: E402

FIELD = [greedy.DECK["deck"], expert.DECK["deck"]]


class DeckBot(GreedyBot):
    """The greedy policy with a given deck."""

    def __init__(self, deck):
        self.chosen = {"deck": deck}

    def deck(self, legal, player, rng):
        return self.chosen


def all_decks():
    return [cmd["deck"] for cmd in legal_commands(new_match(0), 0) if "deck" in cmd]


def play_pair(task):
    """(row deck won?) for one match; the row deck sits in seat ``index % 2``."""
    index, row, column, seed = task
    seat = index % 2
    bots = {seat: DeckBot(row), 1 - seat: DeckBot(column)}
    rng = random.Random(seed)
    state = new_match(seed * 100003 + index)
    events = []
    while state.phase != "over":
        player = to_move(state)[0]
        command = bots[player].choose(view(state, player), project(events, player), legal_commands(state, player),
                                      player, rng)
        state, produced = apply(state, player, command, in_place=True)
        events.extend(produced)
    return state.winner == seat


def play_table(pairs, matches, seed, jobs):
    """``{(row key, column key): wins of row}`` over ``matches`` per pair, seats alternated."""
    tasks = [(i, row, column, seed) for row, column in pairs for i in range(matches)]
    results, _ = play_all(play_pair, tasks, jobs)
    wins = {}
    for (_, row, column, _), won in zip(tasks, results):
        key = (deck_key(row), deck_key(column))
        wins[key] = wins.get(key, 0) + int(won)
    return wins


def main():
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--finalists", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()

    decks = all_decks()
    phase1 = play_table([(d, f) for d in decks for f in FIELD], args.matches, args.seed, args.jobs)
    score = {deck_key(d): sum(phase1[deck_key(d), deck_key(f)] for f in FIELD) for d in decks}
    finalists = sorted(decks, key=lambda d: -score[deck_key(d)])[:args.finalists]
    entrants = finalists + [f for f in FIELD if f not in finalists]
    pairs = [(a, b) for a, b in combinations(entrants, 2)]
    phase2 = play_table(pairs, 2 * args.matches, args.seed + 1, args.jobs)
    keys = [deck_key(d) for d in entrants]
    table = {
        "made_by": "bench/miracle_deck_table.py " + " ".join(sys.argv[1:]),
        "policy": "greedy",
        "matches_per_pair": 2 * args.matches,
        "decks": entrants,
        "wins": [[None if a == b else phase2[a, b] if (a, b) in phase2 else 2 * args.matches - phase2[b, a]
                  for b in keys] for a in keys],
    }
    with open(TABLE_PATH, "w", encoding="utf-8") as out:
        json.dump(table, out, indent=1)
        out.write("\n")
    for key, row in zip(keys, table["wins"]):
        print(key, row, "phase 1:", score[key], "/", args.matches * len(FIELD))


if __name__ == "__main__":
    main()
