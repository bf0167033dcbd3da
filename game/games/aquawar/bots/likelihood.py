"""Worlds weighted by how plausible they make what the opponent did: ``WeightedKnowledge``.

The deduction (``engine.deduction``) proves which species each hidden enemy fish can be, and
``world.Knowledge`` draws among them as if every consistent team were equally likely. They are not:
players pick strong species more often, differently in each round (what is left of the roster), and
a fish whose skill is strong rarely makes a plain attack. ``prior.json`` holds both, counted from
the levels' own matches by ``bots/training/prior.py``:

- ``picks[r][s]``: how often species ``s`` was in a round-``r`` team (a share of the fish picked),
- ``attack[k]``: how often a fish with the skills of ``k`` attacked rather than used its skill.

A sampled team's weight is the product, over its four fish, of the pick share of its species and,
for every action the fish took this round, the chance of that choice for its kind. Both are mixed
with the uniform (``TRUST``) so that an opponent who picks or plays unlike the levels still gets
every consistent world, only rarer. Sampling is importance resampling: ``CANDIDATES`` joint draws
from the deduction's sets, one kept with probability proportional to its weight.
"""
import json
import os

from game.games.aquawar.engine.species import SPECIES

from .world import Knowledge

PRIOR_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "prior.json")
TRUST = 0.5  # the learned prior's share; the rest is uniform
CANDIDATES = 8
UNIFORM_ATTACK = 0.5


def load_prior(path=PRIOR_FILE):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


PRIOR = load_prior()


class WeightedKnowledge(Knowledge):
    def __init__(self, player_view, events, player, prior=PRIOR, trust=TRUST, candidates=CANDIDATES):
        super().__init__(player_view, events, player)
        self.trust = trust
        self.candidates = candidates
        # A round the prior never saw tells nothing about its picks.
        picks = prior["picks"].get(str(player_view["round"])) or dict.fromkeys(SPECIES, 1 / len(SPECIES))
        self.pick_share = {s: trust * picks.get(s, 0.0) + (1 - trust) / len(SPECIES) for s in SPECIES}
        self.attack_share = {
            k: trust * p + (1 - trust) * UNIFORM_ATTACK for k, p in prior["attack"].items()
        }
        self.choices = _enemy_choices(events, 1 - player, player_view["round"])

    def weight(self, identities):
        """How plausible one sampled enemy team is (unnormalised)."""
        weight = 1.0
        for pos, (species, kind) in enumerate(identities):
            weight *= self.pick_share[species]
            attacks, skills = self.choices[pos]
            share = self.attack_share.get(kind, UNIFORM_ATTACK)
            weight *= share ** attacks * (1 - share) ** skills
        return weight

    def marginals(self, rng, n):
        """P(fish i is species s) over ``n`` unweighted joint draws, each counted by its weight
        (self-normalised importance sampling): as sharp as ``n`` resampled draws, at an eighth of
        their cost, which leaves the search its time."""
        counts = [dict() for _ in self.foes]
        total = 0.0
        for _ in range(n):
            draw = super().sample_identities(rng)
            weight = self.weight(draw)
            total += weight
            for i, (species, _kind) in enumerate(draw):
                counts[i][species] = counts[i].get(species, 0.0) + weight
        if total <= 0:
            return super().marginals(rng, n)
        return [{s: w / total for s, w in row.items()} for row in counts]

    def sample_identities(self, rng):
        draws = [super(WeightedKnowledge, self).sample_identities(rng) for _ in range(self.candidates)]
        weights = [self.weight(d) for d in draws]
        total = sum(weights)
        if total <= 0:
            return draws[0]
        point = rng.random() * total
        for draw, weight in zip(draws, weights):
            point -= weight
            if point <= 0:
                return draw
        return draws[-1]


def _enemy_choices(events, enemy, round_number):
    """[(plain attacks, skill uses)] of each enemy fish in this round, from the projected events."""
    counts = [[0, 0] for _ in range(4)]
    current = None
    for event in events:
        if event["type"] == "round_start":
            current = event["round"]
        elif event["type"] == "action" and current == round_number and event["player"] == enemy:
            counts[event["actor"]][0 if event["kind"] == "attack" else 1] += 1
    return counts
