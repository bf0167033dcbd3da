"""Make ``bots/own_play.json``: how the master's own rounds against a level differ from the model.

    python -m game.games.aquawar.bots.training.own_play [--matches 200] [--seed 101] [--against expert]
        [--worlds 8] [--jobs 1] [--data rounds.jsonl]

``matchups.json`` is fitted on greedy against greedy, where both sides play alike. The master's
rounds against a level are not like that: it guesses better in some rounds than in others (its
prior knows what a level fields, and late rounds leave fewer species to guess among), and some of
its kinds fare better against a level's teams than greedy's play of them does. This plays whole
matches in which the master (``--worlds`` worlds a decision, seats and first movers alternated as
in ``bench/bot_tournament.py``) fields a random team of what is left of its roster each round (a
Mimic copying a random kind), and the level picks and plays as it does; every round is kept as
(our pick, their pick, did we move first, did we win, the round). Then, with the model's odds as a
fixed offset, it fits by logistic regression (an L2 penalty: with little data the correction stays
near zero and the model decides) a correction from our side only:

    logit P(we win) = model(ours, theirs, first) + Σ_k d_k × our fish of kind k + d_mimic × (we have a Mimic)
                      + Σ_k,l c_kl × our fish of kind k × their fish of kind l + d_first × (±1: we move first)

c_kl is how much better our kind k fares against their kind l when the master plays it than the
model says. The penalty (one of ``PENALTIES``, heavier than the model's: there are fewer rounds),
and whether the c_kl are fitted at all or only the d terms, are those with the lowest log loss in
5-fold cross-validation (each fifth of the rounds predicted by a fit on the other four); the file
records them, that loss, the model's own loss on the same rounds (no correction: nothing fitted),
and the command. Seeds here are for training: keep them apart from the benchmarks'.

The rounds are written to ``--data`` (JSON lines, default in the temporary directory) as each match
ends and read back on the next run, as for ``training/matchups.py``. Deterministic for a seed.
A match takes ~3 s of CPU against the expert on a quiet core.
"""
import argparse
import json
import math
import os
import random
import tempfile

import numpy as np

from game.games.aquawar.bots import make_bot
from game.games.aquawar.bots.matchups import (
    FEATURES,
    KINDS,
    MATCHUP_FILE,
    OWN_FEATURES,
    OWN_PLAY_FILE,
    features,
    load_weights,
    own_row,
)
from game.games.aquawar.bots.training.matchups import fit, log_loss, make_rounds
from game.games.aquawar.engine import apply, legal_commands, new_match, project, view
from game.games.aquawar.engine.legal import available
from game.games.aquawar.engine.species import MIMIC

# Heavier penalties than the self-play model's: a few hundred matches against one level's teams.
PENALTIES = (1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)
FOLDS = 5
KIND_TERMS = len(KINDS) + 2  # our kinds, our Mimic, our first move: the features before the counters


def random_team(available, rng):
    team = rng.sample(sorted(available), 4)
    pick = {"pick": team}
    if MIMIC in team:
        pick["mimic"] = rng.choice(KINDS)
    return pick


def play(task):
    """One match of the master (random teams) against ``level``: its rounds, each
    [our pick, their pick, we moved first, we won, the round]."""
    index, seed, level, worlds = task
    ours = index % 2
    options = {"time_cap": float("inf")} if level == "expert" else {}
    bots = {ours: make_bot("master", iterations=worlds), 1 - ours: make_bot(level, **options)}
    rngs = {p: random.Random(f"{seed}:{index}:{p}") for p in (0, 1)}
    state, events = new_match(seed * 100003 + index, first_mover=(index // 2) % 2), []
    while state.phase != "over":
        player = (0 if state.picks[0] is None else 1) if state.phase == "pick" else state.to_move
        if state.phase == "pick" and player == ours:
            command = random_team(available(state, player), rngs[player])
        else:
            command = bots[player].choose(view(state, player), project(events, player),
                                          legal_commands(state, player), player, rngs[player])
        state, produced = apply(state, player, command, in_place=True)
        events += produced
    rounds = []
    for number, (ended, picks) in enumerate(zip(state.rounds, state.past_picks), 1):
        mine, theirs = ({"pick": p["fish"], **({"mimic": p["mimic"]} if p["mimic"] else {})}
                        for p in (picks[ours], picks[1 - ours]))
        rounds.append([mine, theirs, ended["first_mover"] == ours, ended["winner"] == ours, number])
    return rounds


def design(matches, weights):
    """Correction rows, the model's logits (the offset) and outcomes, a row per round."""
    model = np.array([weights.get(name, 0.0) for name in FEATURES])
    rows, offsets, outcomes = [], [], []
    for rounds in matches:
        for mine, theirs, first, won, _number in rounds:
            offsets.append(float(np.dot(features(mine, theirs, first), model)))
            rows.append(own_row(mine, theirs, first))
            outcomes.append(1.0 if won else 0.0)
    return np.array(rows), np.array(offsets), np.array(outcomes)


def cross_validated(x, y, offset, l2, folds):
    """The mean log loss of each fold's rounds under the correction fitted on the other folds."""
    losses = []
    for fold in folds:
        rest = np.setdiff1d(np.arange(len(y)), fold)
        w = fit(x[rest], y[rest], l2, offset=offset[rest])
        losses.append(log_loss(x[fold], y[fold], w, offset[fold]) * len(fold))
    return sum(losses) / len(y)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--against", default="expert")
    parser.add_argument("--worlds", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--model", default=MATCHUP_FILE)
    parser.add_argument("--out", default=OWN_PLAY_FILE)
    parser.add_argument("--data", default=None, help="JSON-lines file of played matches, reused and extended")
    args = parser.parse_args(argv)
    tasks = [(i, args.seed, args.against, args.worlds) for i in range(args.matches)]
    data = args.data or os.path.join(tempfile.gettempdir(), f"aquawar-own-{args.against}-{args.seed}.jsonl")
    matches = make_rounds(data, tasks, args.jobs, play=play)
    weights = load_weights(args.model)
    x, offset, y = design(matches, weights)
    # Cross-validation chooses the penalty and whether the counters earn their place (the kind terms
    # alone are 13 weights, the counters 121 more), and tells whether the correction predicts at all:
    # with a few hundred rounds one held-out fifth is too noisy to choose among the settings.
    folds = np.array_split(np.arange(len(y)), FOLDS)  # contiguous: a match's rounds stay together
    held = {}
    for columns in (KIND_TERMS, len(OWN_FEATURES)):
        for l2 in PENALTIES:
            held[columns, l2] = cross_validated(x[:, :columns], y, offset, l2, folds)
    columns, l2 = min(held, key=held.get)
    correction = fit(x[:, :columns], y, l2, offset=offset) + [0.0] * (len(OWN_FEATURES) - columns)
    summary = {
        "matches": len(matches),
        "rounds": len(y),
        "against": args.against,
        "worlds": args.worlds,
        "l2": l2,
        "counters": columns > KIND_TERMS,
        "held_out_log_loss": round(held[columns, l2], 4),
        "held_out_log_loss_kinds_only": round(min(v for (c, _), v in held.items() if c == KIND_TERMS), 4),
        "held_out_log_loss_of_the_model": round(log_loss(np.zeros((len(y), 0)), y, [], offset), 4),
        "coin_log_loss": round(math.log(2), 4),
        "command": f"python -m game.games.aquawar.bots.training.own_play --matches {args.matches} "
                   f"--seed {args.seed} --against {args.against} --worlds {args.worlds}",
    }
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump({"correction": {name: round(w, 4) for name, w in zip(OWN_FEATURES, correction)}, "fit": summary},
                  handle, indent=1, sort_keys=True)
        handle.write("\n")
    print(json.dumps(summary), "->", os.path.relpath(args.out))


if __name__ == "__main__":
    main()
