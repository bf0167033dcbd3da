"""Play bot levels against each other and report A's win rate and decision times.

    python bench/bot_tournament.py --a greedy --b random --matches 400 [--seed S] [--jobs 2]
        [--expert-worlds N] [--expert-uncapped] [--master-worlds N | --master-seconds S] [--master-plies P]
        [--master-option NAME=VALUE ...] [--progress] [--detail]

Seats and the round-1 first mover alternate over the matches (A sits at 0 and 1 equally often, and
each seat starts equally often). Each bot is handed only its own ``view``/``project`` of the true
state, as the server does. A bot that returns an illegal command loses the match (and it is
counted and reported). The win rate comes with a 95 % Wilson score interval. ``--detail`` prints
each round as it ends (with ``--progress``): both teams, who moved first, how it ended, each side's
assertions right/wrong and the HP each side had left, to see where matches are lost.
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._tournament import arguments, play_all, print_illegal, print_wins  # noqa: E402
from game.games.aquawar.bots import make_bot  # noqa: E402
from game.games.aquawar.engine.legal import TEAM_SIZE  # noqa: E402
from game.games.aquawar.engine.species import MIMIC  # noqa: E402
from game.games.aquawar.engine.state import START_HP  # noqa: E402
from game.games.aquawar.engine import (  # noqa: E402
    IllegalCommand,
    apply,
    legal_commands,
    new_match,
    project,
    resign,
    view,
)


def bot_options(level, budgets):
    """The level's options from the command line's budgets (empty: the level's defaults)."""
    expert_worlds, expert_uncapped, master_worlds, master_seconds, master_plies, master_options = budgets
    if level == "expert":
        options = {"worlds": expert_worlds} if expert_worlds else {}
        if expert_uncapped:
            options["time_cap"] = float("inf")
        return options
    if level != "master":
        return {}
    options = {"iterations": master_worlds} if master_worlds else {}
    if master_seconds:
        options["seconds"] = master_seconds
    if master_plies:
        options["plies"] = master_plies
    options.update(master_options)
    return options


def master_option(text):
    """``NAME=VALUE`` from the command line as (name, number), for tuning a ``MasterBot`` option."""
    name, sep, value = text.partition("=")
    if not sep or not name.isidentifier():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        return name, int(value)
    except ValueError:
        try:
            return name, float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name}: {value!r} is not a number") from None


def budgets_of(args):
    """The budgets tuple ``bot_options`` reads, from the arguments ``budget_arguments`` added."""
    return (args.expert_worlds, args.expert_uncapped, args.master_worlds, args.master_seconds, args.master_plies,
            tuple(args.master_option))


def percentile(samples, share):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def play_match(task):
    """One match; returns (A won?, A's decision times, B's decision times, "A"/"B" if one of them
    lost by an illegal command else None, [A won round 1?, round 2?, ...], [each round's summary
    from A's side, see ``round_summary``])."""
    index, level_a, level_b, seed, budgets = task
    seat_a = index % 2
    levels = {seat_a: level_a, 1 - seat_a: level_b}
    bots = {p: make_bot(levels[p], **bot_options(levels[p], budgets)) for p in (0, 1)}
    rngs = {p: random.Random(f"{seed}:{index}:{p}") for p in (0, 1)}
    state = new_match(seed * 100003 + index, first_mover=(index // 2) % 2)
    events, summaries = [], []
    times = {0: [], 1: []}
    illegal = None
    while state.phase != "over":
        if state.phase == "pick":
            player = 0 if state.picks[0] is None else 1
        else:
            player = state.to_move
        legal = legal_commands(state, player)
        started = time.perf_counter()
        command = bots[player].choose(view(state, player), project(events, player), legal, player, rngs[player])
        times[player].append(time.perf_counter() - started)
        try:
            state, produced = apply(state, player, command, in_place=True)
        except IllegalCommand:
            illegal = player
            state, produced = resign(state, player, "illegal", in_place=True)
        events.extend(produced)
        if len(summaries) < len(state.rounds):
            summaries.append(round_summary(state, events, seat_a))
    offender = None if illegal is None else ("A" if illegal == seat_a else "B")
    rounds = [r["winner"] == seat_a for r in state.rounds if r.get("winner") is not None]
    return state.winner == seat_a, times[seat_a], times[1 - seat_a], offender, rounds, summaries


def round_summary(state, events, seat_a):
    """The round that just ended, from A's side: (A's pick, B's pick, A moved first?, A won?, how it
    ended, turns, A's assertions [right, wrong], B's [right, wrong], A's HP left, B's HP left), read
    from the events (the teams are cleared when a round ends)."""
    ended = state.rounds[-1]
    picks = state.past_picks[-1]
    start = max(i for i, e in enumerate(events) if e["type"] == "round_start")
    guesses = {seat_a: [0, 0], 1 - seat_a: [0, 0]}
    left = {(side, pos): START_HP for side in (0, 1) for pos in range(TEAM_SIZE)}
    for event in events[start:]:
        if event["type"] == "assert":
            guesses[event["player"]][0 if event["success"] else 1] += 1
        elif event["type"] in ("damage", "hp_loss", "heal"):
            left[event["side"], event["pos"]] = event["hp"]
        elif event["type"] == "death":
            left[event["side"], event["pos"]] = 0
    hp = [sum(left[side, pos] for pos in range(TEAM_SIZE)) for side in (0, 1)]
    return (picks[seat_a], picks[1 - seat_a], ended["first_mover"] == seat_a, ended["winner"] == seat_a,
            ended["reason"], ended["turns"], guesses[seat_a], guesses[1 - seat_a], hp[seat_a], hp[1 - seat_a])


def print_match(task, result, detail=False):
    won, _times_a, _times_b, _offender, rounds, summaries = result
    print(f"  match {task[0]}: A {'won' if won else 'lost'}, rounds {''.join('AB'[not r] for r in rounds)}", flush=True)
    for number, (a, b, first, a_won, reason, turns, ga, gb, hp_a, hp_b) in enumerate(summaries if detail else [], 1):
        print(f"    round {number}: A {team_text(a)} vs B {team_text(b)}, {'A' if first else 'B'} first: "
              f"{'A' if a_won else 'B'} won ({reason}, {turns} turns), assertions right/wrong A {ga[0]}/{ga[1]} "
              f"B {gb[0]}/{gb[1]}, HP left A {hp_a} B {hp_b}", flush=True)


def team_text(pick):
    return ",".join(f"{s}>{pick['mimic']}" if s == MIMIC else s for s in sorted(pick["fish"]))


def budget_arguments(parser):
    parser.add_argument("--expert-worlds", type=int, default=0, help="the expert's worlds per decision (0: default)")
    parser.add_argument("--expert-uncapped", action="store_true",
                        help="no wall-clock cap on the expert: on a loaded machine its 1 s cap cuts its search short")
    parser.add_argument("--master-worlds", type=int, default=0,
                        help="the master's worlds per decision: its reproducible iteration mode (0: time mode)")
    parser.add_argument("--master-seconds", type=float, default=0.0, help="the master's seconds per decision (0: default)")
    parser.add_argument("--master-plies", type=int, default=0, help="the master's rollout plies (0: default)")
    parser.add_argument("--master-option", type=master_option, action="append", default=[], metavar="NAME=VALUE",
                        help="any other MasterBot option (repeatable), e.g. beam=6")
    parser.add_argument("--progress", action="store_true", help="a line per match as it ends")
    parser.add_argument("--detail", action="store_true", help="with --progress, a line per round too")


def main(argv=None):
    args = arguments(__doc__, 400, argv, budget_arguments)
    budgets = budgets_of(args)
    tasks = [(i, args.a, args.b, args.seed, budgets) for i in range(args.matches)]
    results, elapsed = play_all(play_match, tasks, args.jobs, report=(lambda task, result: print_match(task, result, args.detail)) if args.progress else None)

    print(f"{args.a} vs {args.b}: {len(results)} matches, seed {args.seed}, {elapsed:.0f} s")
    print_wins(args, results)
    for label, level, column in (("A", args.a, 1), ("B", args.b, 2)):
        samples = [t for r in results for t in r[column]]
        mean = sum(samples) / len(samples) if samples else 0.0
        print(f"  {label} {level}: {len(samples)} decisions, mean {mean * 1000:.1f} ms, "
              f"p99 {percentile(samples, 0.99) * 1000:.1f} ms, max {max(samples, default=0) * 1000:.1f} ms")
    print_illegal(results)
    # Where the matches are won and lost: the picks decide which teams meet in which round.
    for number in (1, 2, 3):
        played = [r[4][number - 1] for r in results if len(r[4]) >= number]
        if played:
            print(f"  round {number}: A won {sum(played)}/{len(played)}")


if __name__ == "__main__":
    main()
