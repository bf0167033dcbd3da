"""Make ``bots/matchups.json``, the master's model of which team beats which, by self-play.

    python -m game.games.aquawar.bots.training.matchups [--rounds 3000] [--seed 1] [--jobs 2]
        [--level expert] [--data rounds.jsonl]

Plays single rounds between two random teams (four distinct species each, a Mimic copying a random
other species, a random first mover), both sides played by ``--level``, and fits by logistic
regression (Newton steps, an L2 penalty) the model

    P(team A wins the round) = sigmoid(Σ_k w_k × (A's fish of kind k − B's fish of kind k)
                                       + Σ_{k<l} v_kl × (A's k × B's l − A's l × B's k)
                                       + w_mimic × (A has a Mimic − B has one) + w_first × (±1: A moves first))

where a fish's kind is its species, or for a Mimic the species it copies, and v_kl how much better
kind k fares against kind l than their weights say (55 counter terms besides the 13 weights). The
model is antisymmetric (swapping the teams flips the odds), so no seat term. The penalty is the one
of ``PENALTIES`` with the lowest log loss on the last fifth of the rounds when fitted on the rest;
the file records it, that loss, the loss of the kind weights alone, and the command.

The rounds are played into ``--data`` (JSON lines, default in the temporary directory) as they end
and read back on the next run, so a stopped run loses nothing and a larger ``--rounds`` only plays
the rounds that are new. Deterministic for a seed. Expert rounds take ~0.5 s of CPU each, greedy's
~0.05 s.
"""
import argparse
import json
import math
import os
import random
import tempfile
from multiprocessing import Pool

import numpy as np

from game.games.aquawar.bots import make_bot
from game.games.aquawar.bots.matchups import FEATURES, KINDS, MATCHUP_FILE, PAIRS, features
from game.games.aquawar.engine import SPECIES, apply, legal_commands, new_match, project, view
from game.games.aquawar.engine.species import MIMIC

L2 = 1.0
PENALTIES = (1.0, 3.0, 10.0, 30.0, 100.0)


def random_pick(rng):
    team = rng.sample(list(SPECIES), 4)
    pick = {"pick": team}
    if MIMIC in team:
        pick["mimic"] = rng.choice([s for s in SPECIES if s != MIMIC])
    return pick


def play(task):
    """One round between random teams: (pick 0, pick 1, first mover, winner)."""
    index, seed, level = task
    rng = random.Random(f"{seed}:{index}")
    bots = [make_bot(level) for _ in (0, 1)]
    rngs = [random.Random(f"{seed}:{index}:{p}") for p in (0, 1)]
    first = index % 2
    state, events = new_match(seed * 100003 + index, first_mover=first), []
    picks = [random_pick(rng), random_pick(rng)]
    for player in (0, 1):
        state, produced = apply(state, player, picks[player], in_place=True)
        events += produced
    while state.round == 1 and state.phase != "over":
        player = state.to_move
        command = bots[player].choose(view(state, player), project(events, player),
                                      legal_commands(state, player), player, rngs[player])
        state, produced = apply(state, player, command, in_place=True)
        events += produced
    return picks[0], picks[1], first, state.rounds[0]["winner"]


def load_rounds(path):
    """The rounds already played into ``path`` (JSON lines, one round each), by task."""
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as handle:
        return {(r["index"], r["seed"], r["level"]): r for r in map(json.loads, handle)}


def make_rounds(path, tasks, jobs):
    """Plays the tasks not yet in ``path`` and appends them to it as they finish (a long run that is
    stopped keeps what it played); returns every task's round as (pick 0, pick 1, first, winner)."""
    done = load_rounds(path)
    todo = [t for t in tasks if t not in done]
    with open(path, "a", encoding="utf-8") as handle:
        pool = Pool(jobs) if jobs > 1 else None
        played = pool.imap(play, todo, chunksize=4) if pool else map(play, todo)
        for task, result in zip(todo, played):
            done[task] = dict(zip(("index", "seed", "level"), task), round=result)
            handle.write(json.dumps(done[task]) + "\n")
            handle.flush()
        if pool:
            pool.close()
    return [tuple(done[t]["round"]) for t in tasks]


def design(results):
    """Feature rows (A = seat 0) and outcomes (1 when seat 0 won)."""
    rows = [features(a, b, first == 0) for a, b, first, _ in results]
    return rows, [1.0 if w == 0 else 0.0 for *_, w in results]


def fit(x, y, l2=L2, steps=12):
    """Logistic regression without intercept by Newton's method (an L2 penalty ``l2``); the weights."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (p - y) + l2 * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w.tolist()


def canonical(w):
    """The same model with every kind's counter terms summing to zero, as a dict by feature.

    With four fish a side, counters of the form v(a, b) = c(a) − c(b) add 4 × (Σ c over A − Σ c over
    B): a difference of strengths. The fit cannot tell them apart, so that part is moved into the
    kind weights; what stays in v is how a kind fares against some kinds rather than others."""
    weights = dict(zip(FEATURES, w))
    v = np.zeros((len(KINDS), len(KINDS)))
    for x, y in PAIRS:
        i, j = KINDS.index(x), KINDS.index(y)
        v[i, j], v[j, i] = weights[f"{x}~{y}"], -weights[f"{x}~{y}"]
    c = v.sum(axis=1) / len(KINDS)
    for i, kind in enumerate(KINDS):
        weights[kind] += 4 * c[i]
    for x, y in PAIRS:
        weights[f"{x}~{y}"] -= c[KINDS.index(x)] - c[KINDS.index(y)]
    return weights


def log_loss(x, y, w):
    p = np.clip(1 / (1 + np.exp(-(np.asarray(x, dtype=float) @ np.asarray(w)))), 1e-9, 1 - 1e-9)
    y = np.asarray(y, dtype=float)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--level", default="greedy")
    parser.add_argument("--out", default=MATCHUP_FILE)
    parser.add_argument("--data", default=None, help="JSON-lines file of played rounds, reused and extended")
    args = parser.parse_args(argv)
    tasks = [(i, args.seed, args.level) for i in range(args.rounds)]
    data = args.data or os.path.join(tempfile.gettempdir(), f"aquawar-rounds-{args.level}-{args.seed}.jsonl")
    results = make_rounds(data, tasks, args.jobs)
    x, y = design(results)
    # A fifth held out chooses the penalty and tells whether the model predicts unseen rounds.
    cut = len(y) * 4 // 5
    held = {l2: log_loss(x[cut:], y[cut:], fit(x[:cut], y[:cut], l2)) for l2 in PENALTIES}
    l2 = min(PENALTIES, key=held.get)
    additive = len(KINDS) + 2  # the features before the counter terms
    kinds_only = fit([row[:additive] for row in x[:cut]], y[:cut], l2)
    weights = canonical(fit(x, y, l2))
    summary = {
        "rounds": len(y),
        "level": args.level,
        "l2": l2,
        "held_out_log_loss": round(held[l2], 4),
        "held_out_log_loss_without_counters": round(
            log_loss([row[:additive] for row in x[cut:]], y[cut:], kinds_only), 4),
        "coin_log_loss": round(math.log(2), 4),
        "command": f"python -m game.games.aquawar.bots.training.matchups --rounds {args.rounds} "
                   f"--seed {args.seed} --level {args.level}",
    }
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump({"weights": {name: round(weights[name], 4) for name in FEATURES}, "fit": summary},
                  handle, indent=1, sort_keys=True)
        handle.write("\n")
    print(json.dumps(summary), "->", os.path.relpath(args.out))


if __name__ == "__main__":
    main()
