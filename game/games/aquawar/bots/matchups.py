"""Picks by evaluation: the team (and a Mimic's copy) that gives the best chance to win the match.

A round is two teams and a first mover; ``matchups.json`` (made by ``training/matchups.py`` from
self-play) holds a fitted model of who wins it: P(A beats B) = sigmoid(strength(A) − strength(B)
± the first mover's edge), a team's strength the sum of its fish's kind weights (a Mimic counts as
the kind it copies, plus the Mimic's own term: it is harder to read).

The enemy's picks are not seen. They are drawn from what its roster may still hold (the roster
minus the species the deduction proves it used in earlier rounds) in proportion to the opponent
model's pick shares for each round (``prior.json``, mixed with the uniform as for the worlds), a
whole allocation of the remaining rounds at a time. Then every allocation of our own roster over
the remaining rounds (this round's team, the next round's, the rest) is valued by the chance to
win the match from the current score, each round's odds averaged over the sampled enemy teams and
the next round's first mover following the rules (the winner of a round moves second in the next).
The best allocation's first team is picked, in a random order (positions give nothing away).
"""
import json
import math
import os
from collections import Counter
from functools import lru_cache
from itertools import combinations

from game.games.aquawar.engine.deduction import analyse
from game.games.aquawar.engine.species import MIMIC, SPECIES

from .likelihood import PRIOR, TRUST

MATCHUP_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "matchups.json")
KINDS = [s for s in SPECIES if s != MIMIC]
FEATURES = [*KINDS, MIMIC, "first"]
ENEMY_SAMPLES = 300
BIN = 0.1  # enemy strengths are binned: each bin is scored once, at most 0.05 off in the logit
ROUNDS = 3


def features(pick_a, pick_b, a_first):
    """The model's feature row for one round: team A's picks against team B's."""
    row = dict.fromkeys(FEATURES, 0.0)
    for sign, pick in ((1.0, pick_a), (-1.0, pick_b)):
        for species in pick["pick"]:
            row[pick["mimic"] if species == MIMIC else species] += sign
            if species == MIMIC:
                row[MIMIC] += sign
    row["first"] = 1.0 if a_first else -1.0
    return [row[name] for name in FEATURES]


@lru_cache(maxsize=None)
def load_weights(path=MATCHUP_FILE):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)["weights"]


class Planner:
    """Chooses ``player``'s team for this round from its view and projected events."""

    def __init__(self, player_view, events, player, weights=None, prior=PRIOR, trust=TRUST,
                 samples=ENEMY_SAMPLES):
        self.view = player_view
        self.player = player
        self.weights = weights = weights or load_weights()
        self.round = player_view["round"]
        self.score = list(player_view["score"])
        self.samples = samples
        # The Mimic copies the strongest kind: with a linear model no copy does better anywhere.
        self.copy = max(KINDS, key=lambda k: (weights[k], k))
        self.shares = {}
        for rnd in range(self.round, ROUNDS + 1):
            seen = prior["picks"].get(str(rnd)) or {}
            self.shares[rnd] = {s: trust * seen.get(s, 0.0) + (1 - trust) / len(SPECIES) for s in SPECIES}
        self.enemy_roster = sorted(set(SPECIES) - _proven_used(player_view, events, player))

    def strength(self, team, copy):
        value = 0.0
        for species in team:
            if species == MIMIC:
                value += self.weights[copy] + self.weights[MIMIC]
            else:
                value += self.weights[species]
        return value

    def enemy_strengths(self, rng):
        """{round: Counter of the strengths of sampled enemy teams} for this round and the ones
        after it, binned (``BIN``)."""
        out = {rnd: Counter() for rnd in self.shares}
        for _ in range(self.samples):
            left = list(self.enemy_roster)
            for rnd in sorted(self.shares):
                if len(left) < 4:
                    break
                team = _weighted_sample(left, [self.shares[rnd][s] for s in left], 4, rng)
                left = [s for s in left if s not in team]
                out[rnd][round(self.strength(team, self.copy) / BIN) * BIN] += 1
        return out

    def choose(self, rng):
        """This round's team: the first of the allocation with the best chance to win the match."""
        mine = sorted(self.view["available"][self.player])
        teams = [_mask(team) for team in combinations(mine, 4)]
        members = {_mask([s]): s for s in mine}
        # odds[rnd][team] = (P(win) moving second, P(win) moving first) against the sampled teams.
        odds = {}
        for rnd, strengths in self.enemy_strengths(rng).items():
            if not strengths:
                continue
            total = sum(strengths.values())
            odds[rnd] = {}
            for team in teams:
                ours = self.strength([members[bit] for bit in members if bit & team], self.copy)
                odds[rnd][team] = tuple(
                    sum(n * _sigmoid(ours - theirs + edge * self.weights["first"]) for theirs, n in strengths.items())
                    / total
                    for edge in (-1.0, 1.0)
                )
        first = self.view["first_mover"]
        we_first = None if first is None else first == self.player
        search = _Search(odds)
        ours, theirs = self.score[self.player], self.score[1 - self.player]
        everything = _mask(mine)
        best = max(teams, key=lambda team: search.chance(self.round, ours, theirs, team, everything & ~team, we_first))
        return [members[bit] for bit in members if bit & best]


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


def _sigmoid(x):
    return 1 / (1 + math.exp(-x))


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
