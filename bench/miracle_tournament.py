"""Play 神迹之战 bot levels against each other: A's win rate with a 95 % Wilson interval, and the
CPU time each side spent per whole turn (CPU time of the worker process, which other work on a
shared machine disturbs far less than wall clock).

    .venv/bin/python bench/miracle_tournament.py --a greedy --b random --matches 200 [--seed S] [--jobs 2]
    .venv/bin/python bench/miracle_tournament.py --a master:width=6,turn_seconds=None --b expert

A level may carry its bot's options after a colon (numbers, or None), as ``BOT_LEVEL_OPTIONS`` does.

Seats alternate over the matches (A is player 0 in even matches, player 1 in odd ones), and the
first mover, drawn from each match's seed, falls to either seat. Each bot is handed only its own
view, projection and legal commands, as the server does. A bot whose command is refused loses the
match (counted and reported).
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._tournament import arguments, play_all, print_illegal, print_wins  # noqa: E402
from game.games.miracle.bots import make_bot  # noqa: E402
from game.games.miracle.engine import (IllegalCommand, apply, legal_commands, new_match, project,  # noqa: E402
                                       resign, to_move, view)


def level_bot(spec):
    """The bot of ``"level"`` or ``"level:option=value,…"``."""
    level, _, options = spec.partition(":")
    parsed = {}
    for option in filter(None, options.split(",")):
        name, _, value = option.partition("=")
        parsed[name] = None if value == "None" else float(value) if "." in value else int(value)
    return make_bot(level, **parsed)


def play_match(task):
    """One match; returns (A won?, A's seconds per whole turn, B's, "A"/"B" if one lost by an
    illegal command else None, turns played)."""
    index, level_a, level_b, seed = task
    seat_a = index % 2
    levels = {seat_a: level_a, 1 - seat_a: level_b}
    bots = {p: level_bot(levels[p]) for p in (0, 1)}
    rngs = {p: random.Random(f"{seed}:{index}:{p}") for p in (0, 1)}
    state = new_match(seed * 100003 + index)
    events = []
    turn_times = {0: [], 1: []}
    spent = {0: 0.0, 1: 0.0}
    illegal = None
    while state.phase != "over":
        player = to_move(state)[0]
        turn = state.turn
        legal = legal_commands(state, player)
        started = time.process_time()
        command = bots[player].choose(view(state, player), project(events, player), legal, player, rngs[player])
        spent[player] += time.process_time() - started
        try:
            state, produced = apply(state, player, command, in_place=True)
        except IllegalCommand:
            illegal = player
            state, produced = resign(state, player, "illegal", in_place=True)
        events.extend(produced)
        if turn and (state.turn != turn or state.phase == "over"):
            turn_times[player].append(spent[player])
            spent[player] = 0.0
    offender = None if illegal is None else ("A" if illegal == seat_a else "B")
    return state.winner == seat_a, turn_times[seat_a], turn_times[1 - seat_a], offender, state.turn


def main(argv=None):
    args = arguments(__doc__, 200, argv)
    tasks = [(i, args.a, args.b, args.seed) for i in range(args.matches)]
    results, elapsed = play_all(play_match, tasks, args.jobs)

    turns = sorted(r[4] for r in results)
    print(f"{args.a} vs {args.b}: {len(results)} matches, seed {args.seed}, {elapsed:.0f} s, "
          f"median {turns[len(turns) // 2]} turns per match")
    print_wins(args, results)
    for label, level, column in (("A", args.a, 1), ("B", args.b, 2)):
        samples = sorted(t for r in results for t in r[column])
        mean = sum(samples) / len(samples) if samples else 0.0
        print(f"  {label} {level}: {len(samples)} turns, mean {mean * 1000:.0f} ms, "
              f"p99 {samples[int(0.99 * (len(samples) - 1))] * 1000 if samples else 0:.0f} ms, "
              f"max {max(samples, default=0) * 1000:.0f} ms CPU per whole turn")
    print_illegal(results)


if __name__ == "__main__":
    main()
