"""Make ``bots/matchups.json``, the master's model of which team beats which, by self-play.

    python -m game.games.aquawar.bots.training.matchups [--rounds 3000] [--seed 1] [--jobs 2] [--level greedy]

Plays single rounds between two random teams (four distinct species each, a Mimic copying a random
other species, a random first mover), both sides played by ``--level``, and fits by logistic
regression (Newton steps, a small L2 penalty; plain Python, the problem is 13 weights) the model

    P(team A wins the round) = sigmoid(Σ_k w_k × (A's fish of kind k − B's fish of kind k)
                                       + w_mimic × (A has a Mimic − B has one) + w_first × (±1: A moves first))

where a fish's kind is its species, or for a Mimic the species it copies. The model is antisymmetric
(swapping the teams flips the odds), so no seat term. Deterministic for a seed.
"""
import argparse
import json
import math
import os
import random
from multiprocessing import Pool

from game.games.aquawar.bots import make_bot
from game.games.aquawar.bots.matchups import FEATURES, MATCHUP_FILE, features
from game.games.aquawar.engine import SPECIES, apply, legal_commands, new_match, project, view
from game.games.aquawar.engine.species import MIMIC

L2 = 1.0


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


def design(results):
    """Feature rows (A = seat 0) and outcomes (1 when seat 0 won)."""
    rows = [features(a, b, first == 0) for a, b, first, _ in results]
    return rows, [1.0 if w == 0 else 0.0 for *_, w in results]


def _sigmoid(z):
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def _solve(matrix, vector):
    """x with matrix · x = vector (Gaussian elimination with partial pivoting; matrix is SPD)."""
    n = len(vector)
    a = [list(row) + [v] for row, v in zip(matrix, vector)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def fit(x, y, l2=L2, steps=12):
    """Logistic regression without intercept by Newton's method; returns the weights."""
    n = len(x[0])
    w = [0.0] * n
    for _ in range(steps):
        gradient = [l2 * v for v in w]
        hessian = [[l2 if i == j else 0.0 for j in range(n)] for i in range(n)]
        for row, target in zip(x, y):
            p = _sigmoid(sum(a * b for a, b in zip(row, w)))
            curvature = p * (1 - p)
            for i, a in enumerate(row):
                if a:
                    gradient[i] += (p - target) * a
                    for j, b in enumerate(row):
                        hessian[i][j] += curvature * a * b
        step = _solve(hessian, gradient)
        w = [v - d for v, d in zip(w, step)]
    return w


def log_loss(x, y, w):
    total = 0.0
    for row, target in zip(x, y):
        p = min(1 - 1e-9, max(1e-9, _sigmoid(sum(a * b for a, b in zip(row, w)))))
        total -= target * math.log(p) + (1 - target) * math.log(1 - p)
    return total / len(y)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--level", default="greedy")
    parser.add_argument("--out", default=MATCHUP_FILE)
    args = parser.parse_args(argv)
    tasks = [(i, args.seed, args.level) for i in range(args.rounds)]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = pool.map(play, tasks, chunksize=4)
    else:
        results = [play(t) for t in tasks]
    x, y = design(results)
    # A fifth held out tells whether the model predicts rounds it was not fitted on.
    cut = len(y) * 4 // 5
    held = fit(x[:cut], y[:cut])
    w = fit(x, y)
    summary = {
        "rounds": len(y),
        "level": args.level,
        "held_out_log_loss": round(log_loss(x[cut:], y[cut:], held), 4),
        "coin_log_loss": round(math.log(2), 4),
        "command": f"python -m game.games.aquawar.bots.training.matchups --rounds {args.rounds} "
                   f"--seed {args.seed} --level {args.level}",
    }
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump({"weights": {name: round(v, 4) for name, v in zip(FEATURES, w)}, "fit": summary},
                  handle, indent=1, sort_keys=True)
        handle.write("\n")
    print(json.dumps(summary), "->", os.path.relpath(args.out))


if __name__ == "__main__":
    main()
