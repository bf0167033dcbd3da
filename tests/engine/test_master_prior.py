"""The master's opponent model: worlds weighted by the picks and plays the prior finds likely, the
prior's making from counted matches, and what its own actions give away to the opponent."""
import random
from collections import Counter

import pytest

from game.games.aquawar.bots.exposure import exposure_costs
from game.games.aquawar.bots.likelihood import PRIOR, WeightedKnowledge
from game.games.aquawar.bots.training.prior import make_prior
from game.games.aquawar.engine import SPECIES, apply, new_match, project, view

TEAM = ["sea_wolf", "sea_turtle", "octopus", "manta_ray"]


def after_plain_attacks(attacks=4):
    """Round 1 with player 1's fish 0 having attacked plainly ``attacks`` times (player 0's view)."""
    state, events = new_match(3, first_mover=1), []
    for player in (0, 1):
        state, produced = apply(state, player, {"pick": TEAM})
        events += produced
    for turn in range(2 * attacks):
        player = state.to_move
        for command in ({"assert": None}, {"act": {"actor": 0 if player else turn // 2 % 4, "kind": "attack", "enemy": 1}}):
            state, produced = apply(state, player, command)
            events += produced
    return view(state, 0), project(events, 0)


def marginal(prior, trust, fish, species, evidence):
    knowledge = WeightedKnowledge(*evidence, 0, prior=prior, trust=trust)
    return knowledge.marginals(random.Random(4), 2000)[fish].get(species, 0.0)


def test_a_species_that_rarely_attacks_plainly_becomes_unlikely_after_plain_attacks():
    evidence = after_plain_attacks()
    prior = {"picks": {}, "attack": {"sea_wolf": 0.02}}
    uniform = marginal(prior, 0.0, 0, "sea_wolf", evidence)
    weighted = marginal(prior, 1.0, 0, "sea_wolf", evidence)
    assert uniform > 0.05
    assert weighted < uniform / 2
    # A fish that never attacked is not judged by it.
    assert marginal(prior, 1.0, 2, "sea_wolf", evidence) > weighted


def test_the_round_pick_shares_favour_the_species_players_pick():
    evidence = after_plain_attacks(attacks=0)
    prior = {"picks": {"1": {"octopus": 1.0}}, "attack": {}}
    assert marginal(prior, 0.9, 3, "octopus", evidence) > 2 * marginal(prior, 0.0, 3, "octopus", evidence)
    # Another round's shares say nothing about this one.
    other_round = {"picks": {"2": {"octopus": 1.0}}, "attack": {}}
    assert abs(marginal(other_round, 0.9, 3, "octopus", evidence) - marginal(prior, 0.0, 3, "octopus", evidence)) < 0.05


def test_make_prior_counts_shares_per_round_and_smooths_attack_rates():
    picks = Counter({(1, "sea_wolf"): 3, (1, "octopus"): 1, (2, "clownfish"): 2})
    actions = Counter({("sea_wolf", "attack"): 1, ("sea_wolf", "skill"): 7})
    prior = make_prior(picks, actions)
    assert prior["picks"] == {"1": {"octopus": 0.25, "sea_wolf": 0.75}, "2": {"clownfish": 1.0}}
    assert prior["attack"]["sea_wolf"] == 0.2  # (1 + 1) / (8 + 2)
    assert prior["attack"]["octopus"] == 0.5  # never seen: even odds
    assert "mimic_fish" not in prior["attack"]  # a Mimic plays as its copy


def test_the_committed_prior_covers_every_kind_and_round():
    kinds = [s for s in SPECIES if s != "mimic_fish"]
    assert sorted(PRIOR["attack"]) == sorted(kinds)
    assert all(0 < p < 1 for p in PRIOR["attack"].values())
    assert sorted(PRIOR["picks"]) == ["1", "2", "3"]
    for shares in PRIOR["picks"].values():
        assert abs(sum(shares.values()) - 1) < 0.01


def test_a_skill_that_names_its_category_gives_more_away_than_a_plain_attack():
    state, events = new_match(3, first_mover=0), []
    for player, team in ((0, ["great_white_shark", "sea_turtle", "octopus", "manta_ray"]), (1, TEAM)):
        state, produced = apply(state, player, {"pick": team})
        events += produced
    state, produced = apply(state, 0, {"assert": None})
    events += produced
    seen_view, seen_events = view(state, 0), project(events, 0)
    world = WeightedKnowledge(seen_view, seen_events, 0).world(random.Random(1))
    attack = {"act": {"actor": 0, "kind": "attack", "enemy": 0}}
    crit = {"act": {"actor": 0, "kind": "skill", "enemy": 0}}  # the lowest-HP crit: 4 kinds left
    plain, skill = exposure_costs(world, 0, [attack, crit], seen_events, seen_view)
    # Nothing known yet: each of our four fish could be any of 12, so 4 × 1/12 of 50 × 4 HP.
    assert plain == pytest.approx(4 * 200 / 12)
    assert skill > plain
