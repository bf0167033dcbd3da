"""Make ``bots/prior.json``, the master's opponent model, from matches between the levels.

    python -m game.games.aquawar.bots.training.prior [--matches 200] [--seed 1] [--jobs 2]

Plays greedy and expert against each other and themselves (their seats and first movers alternated)
and counts, from the true record, which species were picked in each round and how often a fish of
each kind (a Mimic counts as its copy) attacked rather than used its skill. Deterministic for a seed.
"""
import argparse
import json
import random
from collections import Counter
from multiprocessing import Pool

from game.games.aquawar.bots import make_bot
from game.games.aquawar.bots.likelihood import PRIOR_FILE
from game.games.aquawar.engine import SPECIES, apply, legal_commands, new_match, project, view

PAIRINGS = (("expert", "expert"), ("expert", "greedy"), ("greedy", "greedy"))


def play(task):
    """One match's counts: picks[round][species], and (kind, "attack"/"skill") per action."""
    index, seed = task
    levels = PAIRINGS[index % len(PAIRINGS)]
    bots = [make_bot(levels[(p + index) % 2]) for p in (0, 1)]
    rngs = [random.Random(f"{seed}:{index}:{p}") for p in (0, 1)]
    state, events = new_match(seed * 100003 + index, first_mover=(index // 2) % 2), []
    picks, actions = Counter(), Counter()
    while state.phase != "over":
        player = (0 if state.picks[0] is None else 1) if state.phase == "pick" else state.to_move
        command = bots[player].choose(view(state, player), project(events, player),
                                      legal_commands(state, player), player, rngs[player])
        if "act" in command:
            actions[(state.teams[player][command["act"]["actor"]].kind, command["act"]["kind"])] += 1
        if "pick" in command:
            picks.update((state.round, s) for s in command["pick"])
        state, produced = apply(state, player, command, in_place=True)
        events += produced
    return picks, actions


def make_prior(picks, actions):
    by_round = {}
    for (rnd, species), n in picks.items():
        by_round.setdefault(str(rnd), {})[species] = n
    shares = {rnd: {s: round(n / sum(row.values()), 4) for s, n in sorted(row.items())} for rnd, row in by_round.items()}
    kinds = [s for s in SPECIES if s != "mimic_fish"]
    attack = {}
    for kind in kinds:
        # One imagined action of each sort keeps a kind never seen from a certain 0 or 1.
        attacks, skills = actions[(kind, "attack")] + 1, actions[(kind, "skill")] + 1
        attack[kind] = round(attacks / (attacks + skills), 4)
    return {"picks": dict(sorted(shares.items())), "attack": attack}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=PRIOR_FILE)
    args = parser.parse_args(argv)
    tasks = [(i, args.seed) for i in range(args.matches)]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = pool.map(play, tasks, chunksize=1)
    else:
        results = [play(t) for t in tasks]
    picks, actions = Counter(), Counter()
    for p, a in results:
        picks.update(p)
        actions.update(a)
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(make_prior(picks, actions), handle, indent=1, sort_keys=True)
        handle.write("\n")
    print(f"{args.matches} matches -> {args.out}")


if __name__ == "__main__":
    main()
