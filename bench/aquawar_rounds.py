"""Aquawar play at equal teams: the master against another level over single rounds.

    python bench/aquawar_rounds.py --pairs 20 [--round R] [--b expert] [--seed S] [--jobs 2] [--master-worlds 8]
        [--master-option NAME=VALUE ...] [--expert-uncapped] [--progress]

Match results mix picks and play. Here each of ``--pairs`` random pairs of teams (random Mimic
copies) is played as round 1 twice: seat 0 always fields the first team and moves first, seat 1
the second, and the master takes seat 0 in one game and seat 1 in the other. Each side thus plays
both teams from the same seat as its opponent did, so the teams' strength cancels out and the
master's round win rate (with a 95 % Wilson interval) measures only how it plays. ``--round 2`` or
``3`` plays the earlier rounds first (random teams, greedy against greedy, the same for both games
of a pair), so the measured round has what later rounds have: fewer species left to guess among,
hence more assertions, and the first mover the rules make. Each bot is handed
only its own ``view``/``project`` of the true state, as in ``bench/bot_tournament.py``.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._tournament import play_all, wilson  # noqa: E402
from bench.bot_tournament import budget_arguments, bot_options, budgets_of  # noqa: E402
from game.games.aquawar.bots import make_bot  # noqa: E402
from game.games.aquawar.engine import apply, legal_commands, new_match, project, view  # noqa: E402
from game.games.aquawar.engine.randomplay import random_command  # noqa: E402


def play_round(task):
    """One round; returns (did the master win it?, the turns it took, {"master"/"other": [hits,
    misses]}), or None when the match ended before the measured round."""
    pair, master_seat, level_b, seed, budgets, measured = task
    state = new_match(seed * 100003 + pair, first_mover=0)
    team_rng = random.Random(f"{seed}:teams:{pair}")
    warm_up = {p: make_bot("greedy") for p in (0, 1)}
    levels = {master_seat: "master", 1 - master_seat: level_b}
    bots = {p: make_bot(levels[p], **bot_options(levels[p], budgets)) for p in (0, 1)}
    rngs = {p: random.Random(f"{seed}:{pair}:{master_seat}:{p}") for p in (0, 1)}
    events, start = [], None
    while state.round <= measured and state.phase != "over":
        if state.phase == "pick":
            for player in (0, 1):
                state, produced = apply(state, player, random_command(state, player, team_rng), in_place=True)
                events.extend(produced)
            continue
        if state.round == measured and start is None:
            start = len(events)
        player = state.to_move
        bot, rng = (bots[player], rngs[player]) if state.round == measured else (warm_up[player], team_rng)
        command = bot.choose(view(state, player), project(events, player), legal_commands(state, player), player, rng)
        state, produced = apply(state, player, command, in_place=True)
        events.extend(produced)
    if start is None:
        return None
    guesses = {"master": [0, 0], "other": [0, 0]}
    for event in events[start:]:
        if event["type"] == "assert":
            guesses["master" if event["player"] == master_seat else "other"][0 if event["success"] else 1] += 1
    result = state.rounds[measured - 1]
    return result["winner"] == master_seat, result["turns"], guesses


def main(argv=None):

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--b", default="expert")
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--round", type=int, default=1, choices=(1, 2, 3), help="the round measured")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    budget_arguments(parser)
    args = parser.parse_args(argv)
    budgets = budgets_of(args)
    tasks = [(pair, seat, args.b, args.seed, budgets, args.round) for pair in range(args.pairs) for seat in (0, 1)]

    def report(task, result):
        if result is not None:
            print(f"  pair {task[0]} master at seat {task[1]}: {'won' if result[0] else 'lost'} in {result[1]} turns", flush=True)

    results, elapsed = play_all(play_round, tasks, args.jobs, report=report if args.progress else None)
    results = [r for r in results if r is not None]  # both games of a pair share the earlier rounds
    wins = sum(result[0] for result in results)
    low, high = wilson(wins, len(results))
    print(f"master vs {args.b} at equal teams: {len(results)} rounds {args.round} ({len(results) // 2} pairs), seed {args.seed}, {elapsed:.0f} s")
    print(f"master wins {wins}/{len(results)} rounds = {wins / len(results):.1%} (95% Wilson {low:.1%} - {high:.1%})")
    both = sum(results[i][0] and results[i + 1][0] for i in range(0, len(results), 2))
    neither = sum(not results[i][0] and not results[i + 1][0] for i in range(0, len(results), 2))
    print(f"  pairs won with both teams {both}, with neither {neither}")
    for side, label in (("master", "master"), ("other", args.b)):
        hits = sum(result[2][side][0] for result in results)
        misses = sum(result[2][side][1] for result in results)
        print(f"  {label}'s assertions: {hits} right, {misses} wrong")


if __name__ == "__main__":
    main()
