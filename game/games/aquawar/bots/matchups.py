"""Picks by evaluation: the team (and a Mimic's copy) that gives the best chance to win the match.

A round is two teams and a first mover; ``matchups.json`` (made by ``training/matchups.py`` from
self-play) holds a fitted model of who wins it:

    P(A beats B) = sigmoid(strength(A) − strength(B) + Σ over A's fish a, B's fish b of v(a, b)
                           ± the first mover's edge)

a team's strength the sum of its fish's kind weights (a Mimic counts as the kind it copies, plus
the Mimic's own term: it is harder to read), v(a, b) = −v(b, a) how much better kind a fares against
kind b than their strengths say (counters: a Pufferfish's and a Sunfish's self-harm, a shark's crit
on the weakest).

The enemy's picks are not seen. They are drawn from what its roster may still hold (the roster
minus the species the deduction proves it used in earlier rounds) in proportion to the opponent
model's pick shares for each round (``prior.json``, mixed with the uniform as for the worlds), a
whole allocation of the remaining rounds at a time; an enemy Mimic is taken to copy the kind with
the largest weight. Then every allocation of our own roster over the remaining rounds (this round's
team, the next round's, the rest) is valued by the chance to win the match from the current score,
each round's odds averaged over the sampled enemy teams (with our Mimic's copy the best for that
round) and the next round's first mover following the rules (the winner of a round moves second in
the next). The best allocation's first team is picked, in a random order (positions give nothing
away).
"""
import json
import os
from collections import Counter
from functools import lru_cache
from itertools import combinations

import numpy as np

from game.games.aquawar.engine.deduction import analyse
from game.games.aquawar.engine.species import MIMIC, SPECIES

from .likelihood import PRIOR, TRUST

MATCHUP_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "matchups.json")
KINDS = [s for s in SPECIES if s != MIMIC]
PAIRS = [(a, b) for i, a in enumerate(KINDS) for b in KINDS[i + 1:]]
FEATURES = [*KINDS, MIMIC, "first", *(f"{a}~{b}" for a, b in PAIRS)]
ENEMY_SAMPLES = 300
ROUNDS = 3


def kind_counts(pick):
    """{kind: fish of that kind} for a pick command (a Mimic counted as its copy)."""
    return Counter(pick["mimic"] if species == MIMIC else species for species in pick["pick"])


def features(pick_a, pick_b, a_first):
    """The model's feature row for one round: team A's picks against team B's."""
    a, b = kind_counts(pick_a), kind_counts(pick_b)
    row = dict.fromkeys(FEATURES, 0.0)
    for kind in KINDS:
        row[kind] = float(a[kind] - b[kind])
    row[MIMIC] = float((MIMIC in pick_a["pick"]) - (MIMIC in pick_b["pick"]))
    row["first"] = 1.0 if a_first else -1.0
    for x, y in PAIRS:
        row[f"{x}~{y}"] = float(a[x] * b[y] - a[y] * b[x])
    return [row[name] for name in FEATURES]


@lru_cache(maxsize=None)
def load_weights(path=MATCHUP_FILE):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)["weights"]


class Model:
    """The fitted round model as arrays: kind weights ``w`` and the antisymmetric counter matrix
    ``v`` over ``KINDS`` (a weight missing from the file counts as 0: an additive model has no v)."""

    def __init__(self, weights):
        self.w = np.array([weights.get(k, 0.0) for k in KINDS])
        self.mimic = weights.get(MIMIC, 0.0)
        self.first = weights.get("first", 0.0)
        self.v = np.zeros((len(KINDS), len(KINDS)))
        for x, y in PAIRS:
            i, j = KINDS.index(x), KINDS.index(y)
            self.v[i, j] = weights.get(f"{x}~{y}", 0.0)
            self.v[j, i] = -self.v[i, j]

    def rows(self, teams, copies):
        """Kind-count rows and strengths of teams (species lists), each Mimic copying its team's copy."""
        counts = np.zeros((len(teams), len(KINDS)))
        for row, (team, copy) in enumerate(zip(teams, copies)):
            for species in team:
                counts[row, KINDS.index(copy if species == MIMIC else species)] += 1
        mimics = np.array([MIMIC in team for team in teams], dtype=float)
        return counts, counts @ self.w + self.mimic * mimics

    def odds(self, ours, theirs, weights_theirs, edge):
        """P(each of our teams wins) averaged over their teams (weighted), ``edge`` ±1 as we move first
        or second; ``ours`` and ``theirs`` are ``rows`` results."""
        (a, sa), (b, sb) = ours, theirs
        z = sa[:, None] - sb[None, :] + a @ self.v @ b.T + edge * self.first
        return (1 / (1 + np.exp(-z))) @ weights_theirs / weights_theirs.sum()


class Planner:
    """Chooses ``player``'s team for this round from its view and projected events."""

    def __init__(self, player_view, events, player, weights=None, prior=PRIOR, trust=TRUST,
                 samples=ENEMY_SAMPLES):
        self.view = player_view
        self.player = player
        weights = weights or load_weights()
        self.model = Model(weights)
        self.round = player_view["round"]
        self.score = list(player_view["score"])
        self.samples = samples
        # Whom an enemy Mimic copies is not seen: the kind the model rates strongest alone.
        self.enemy_copy = max(KINDS, key=lambda k: (weights.get(k, 0.0), k))
        self.copy = None  # our Mimic's copy in the team ``choose`` returned, when it has one
        self.shares = {}
        for rnd in range(self.round, ROUNDS + 1):
            seen = prior["picks"].get(str(rnd)) or {}
            self.shares[rnd] = {s: trust * seen.get(s, 0.0) + (1 - trust) / len(SPECIES) for s in SPECIES}
        self.enemy_roster = sorted(set(SPECIES) - _proven_used(player_view, events, player))

    def enemy_teams(self, rng):
        """{round: Counter of sampled enemy teams (sorted tuples)} for this round and the ones after it."""
        out = {rnd: Counter() for rnd in self.shares}
        for _ in range(self.samples):
            left = list(self.enemy_roster)
            for rnd in sorted(self.shares):
                if len(left) < 4:
                    break
                team = _weighted_sample(left, [self.shares[rnd][s] for s in left], 4, rng)
                left = [s for s in left if s not in team]
                out[rnd][tuple(sorted(team))] += 1
        return out

    def choose(self, rng):
        """This round's team: the first of the allocation with the best chance to win the match
        (``self.copy`` is then its Mimic's copy)."""
        mine = sorted(self.view["available"][self.player])
        # Every team, and a team with a Mimic once per copy.
        variants = [(team, copy) for team in combinations(mine, 4)
                    for copy in (KINDS if MIMIC in team else [None])]
        ours = self.model.rows([t for t, _ in variants], [c for _, c in variants])
        masks = [_mask(team) for team, _ in variants]
        # odds[rnd][team] = (P(win) moving second, P(win) moving first) against the sampled teams,
        # each with the Mimic's copy best for it; now[row] = those of this round's variants.
        odds, now = {}, None
        for rnd, sampled in self.enemy_teams(rng).items():
            if not sampled:
                continue
            teams = list(sampled)
            theirs = self.model.rows(teams, [self.enemy_copy] * len(teams))
            counts = np.array([sampled[t] for t in teams], dtype=float)
            chances = np.stack([self.model.odds(ours, theirs, counts, edge) for edge in (-1.0, 1.0)], axis=1)
            if rnd == self.round:
                now = chances
            odds[rnd] = {}
            for mask, pair in zip(masks, chances.tolist()):
                best = odds[rnd].get(mask)
                odds[rnd][mask] = tuple(pair) if best is None else (max(best[0], pair[0]), max(best[1], pair[1]))
        first = self.view["first_mover"]
        we_first = None if first is None else first == self.player
        search = _Search(odds)
        score_ours, score_theirs = self.score[self.player], self.score[1 - self.player]
        everything = _mask(mine)
        best = max(sorted(set(masks)), key=lambda team: search.chance(
            self.round, score_ours, score_theirs, team, everything & ~team, we_first))
        # The copy for the team picked: the best for the side it moves from (both, when not yet known).
        side = now.mean(axis=1) if we_first is None else now[:, 1 if we_first else 0]
        row = max((r for r, mask in enumerate(masks) if mask == best), key=lambda r: side[r])
        self.copy = variants[row][1]
        return [s for s in mine if _mask([s]) & best]


class _Search:
    """The chance to win the match from a score with a given team now and the best teams after
    (teams and what is left of the roster as bit masks over the species)."""

    def __init__(self, odds):
        self.odds = odds
        self.best = {}

    def chance(self, rnd, ours, theirs, team, rest, we_first):
        if rnd not in self.odds:
            return 0.0  # no round left to play (never with a legal score)
        second, first = self.odds[rnd][team]
        p = (second + first) / 2 if we_first is None else (first if we_first else second)
        # The winner of a round moves second in the next.
        win = 1.0 if ours == 1 else self.best_next(rnd + 1, ours + 1, theirs, rest, False)
        loss = 0.0 if theirs == 1 else self.best_next(rnd + 1, ours, theirs + 1, rest, True)
        return p * win + (1 - p) * loss

    def best_next(self, rnd, ours, theirs, rest, we_first):
        key = (rnd, ours, theirs, rest, we_first)
        value = self.best.get(key)
        if value is None:
            if ours == theirs == 1:
                # The deciding round: its odds alone (the common case, kept out of the recursion).
                odds, side = self.odds.get(rnd, {}), 1 if we_first else 0
                value = max((odds[team][side] for team in _teams_in(rest) if team in odds), default=0.0)
            else:
                value = max(
                    (self.chance(rnd, ours, theirs, team, rest & ~team, we_first) for team in _teams_in(rest)),
                    default=0.0,
                )
            self.best[key] = value
        return value


def _mask(species):
    return sum(1 << SPECIES.index(s) for s in species)


@lru_cache(maxsize=1024)
def _teams_in(roster):
    """Every four-fish team (a bit mask) drawn from ``roster`` (a bit mask)."""
    bits = [1 << i for i in range(len(SPECIES)) if roster >> i & 1]
    return tuple(sum(team) for team in combinations(bits, 4))


def _weighted_sample(items, weights, k, rng):
    items, weights, chosen = list(items), list(weights), []
    for _ in range(k):
        point = rng.random() * sum(weights)
        for i, w in enumerate(weights):
            point -= w
            if point <= 0 or i == len(items) - 1:
                chosen.append(items.pop(i))
                weights.pop(i)
                break
    return chosen


def _proven_used(player_view, events, player):
    """Species the enemy surely used in finished rounds (a single candidate left in the deduction)."""
    used = set()
    deduction = analyse(player_view, events, player)
    for rnd in deduction.rounds:
        if rnd.number >= player_view["round"]:
            continue
        for fish in rnd.teams[1 - player]:
            if len(fish.species) == 1:
                used |= set(fish.species)
    return used


def plan_pick(player_view, events, player, rng):
    """The pick command for ``player`` this round (see the module's docstring)."""
    planner = Planner(player_view, events, player)
    team = planner.choose(rng)
    rng.shuffle(team)
    command = {"pick": team}
    if MIMIC in team:
        command["mimic"] = planner.copy
    return command
