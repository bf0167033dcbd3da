"""The master's picks by evaluation (``bots/matchups.py``) and the model behind them
(``bots/training/matchups.py``): the team comes from the best allocation of the roster over the
remaining rounds against the enemy's likely picks, not from a fixed table."""
import json
import math
import random

from game.games.aquawar.bots import make_bot
from game.games.aquawar.bots.matchups import FEATURES, KINDS, Model, Planner, features, load_weights, plan_pick
from game.games.aquawar.bots.training.matchups import canonical, fit, make_rounds, play
from game.games.aquawar.engine import apply, is_legal, legal_commands, new_match, project, view
from game.games.aquawar.engine.species import MIMIC

TOP = ["great_white_shark", "sea_turtle", "hammerhead_shark", "sea_wolf"]
MIDDLE = ["octopus", "electric_eel", "clownfish", "archerfish"]
BOTTOM = ["manta_ray", "mimic_fish", "sunfish", "pufferfish"]
# A model where the top four are far stronger than the middle four, and those than the bottom (a
# Mimic's copy is worth nothing here, so the bottom four stay the bottom).
TIERED = {**{k: 0.0 for k in FEATURES}, **dict.fromkeys(TOP, 1.5), **dict.fromkeys(MIDDLE, 0.5), MIMIC: -1.5}
# An opponent who always picks top, then middle, then bottom (as the fixed table does).
TABLE_PRIOR = {"picks": {str(r): dict.fromkeys(team, 0.25) for r, team in enumerate((TOP, MIDDLE, BOTTOM), 1)},
               "attack": {}}


def pick_view(round_number=1, score=(0, 0)):
    state = new_match(3, first_mover=0)
    player_view = view(state, 0)
    player_view["round"], player_view["score"] = round_number, list(score)
    return player_view


def test_features_are_antisymmetric_and_count_a_mimic_as_its_copy():
    a = {"pick": ["mimic_fish", "octopus", "sunfish", "sea_wolf"], "mimic": "octopus"}
    b = {"pick": TOP}
    row = dict(zip(FEATURES, features(a, b, True)))
    assert row["octopus"] == 2 and row[MIMIC] == 1 and row["great_white_shark"] == -1 and row["first"] == 1
    assert features(b, a, False) == [-v for v in features(a, b, True)]


def test_the_fit_recovers_the_weights_that_made_the_outcomes():
    rng = random.Random(5)
    true = {"great_white_shark": 1.2, "pufferfish": -0.8, "first": 0.3}
    rows, outcomes = [], []
    for _ in range(3000):
        a, b = ({"pick": rng.sample(KINDS, 4)} for _ in range(2))
        row = features(a, b, rng.random() < 0.5)
        z = sum(true.get(name, 0.0) * v for name, v in zip(FEATURES, row))
        rows.append(row)
        outcomes.append(1.0 if rng.random() < 1 / (1 + 2.718281828 ** -z) else 0.0)
    fitted = canonical(fit(rows, outcomes))
    # Only differences between kinds are identified (every team has four fish).
    assert abs((fitted["great_white_shark"] - fitted["octopus"]) - 1.2) < 0.25
    assert abs((fitted["pufferfish"] - fitted["octopus"]) + 0.8) < 0.25
    assert abs(fitted["first"] - 0.3) < 0.15


def test_against_a_fixed_table_it_gives_up_round_one_to_win_the_next_two():
    planner = Planner(pick_view(), [], 0, weights=TIERED, prior=TABLE_PRIOR, trust=1.0)
    assert sorted(planner.choose(random.Random(1))) == sorted(BOTTOM)


def test_against_an_unknown_opponent_it_does_not_throw_a_round_away():
    planner = Planner(pick_view(), [], 0, weights=TIERED, prior=TABLE_PRIOR, trust=0.0)
    assert not set(planner.choose(random.Random(1))) & set(BOTTOM)


def test_it_picks_what_is_left_and_the_strongest_when_it_must_win_now():
    player_view = pick_view(round_number=2, score=(0, 1))
    player_view["available"][0] = MIDDLE + BOTTOM
    planner = Planner(player_view, [], 0, weights=TIERED, prior=TABLE_PRIOR, trust=1.0)
    assert sorted(planner.choose(random.Random(1))) == sorted(MIDDLE)


def test_a_mimic_copies_the_strongest_kind_of_the_model():
    weights = {**TIERED, "sea_turtle": 2.0, MIMIC: 0.0}
    player_view = pick_view(round_number=3, score=(1, 1))
    player_view["available"][0] = list(BOTTOM)
    planner = Planner(player_view, [], 0, weights=weights, prior=TABLE_PRIOR, trust=1.0)
    assert sorted(planner.choose(random.Random(1))) == sorted(BOTTOM)
    assert planner.copy == "sea_turtle"


def test_species_the_enemy_was_proven_to_use_are_not_expected_again():
    state, events = new_match(9, first_mover=0), []
    for player, team in ((0, TOP), (1, MIDDLE)):
        state, produced = apply(state, player, {"pick": team})
        events += produced
    for target, species in enumerate(MIDDLE):  # player 0 names every enemy fish right
        state, produced = apply(state, 0, {"assert": {"target": target, "fish": species}})
        events += produced
        if state.round != 1:
            break
        state, produced = apply(state, 0, legal_commands(state, 0)[0])
        events += produced
        state, produced = apply(state, 1, {"assert": None})
        events += produced
        state, produced = apply(state, 1, legal_commands(state, 1)[0])
        events += produced
    while state.round == 1:  # play the round out
        player = state.to_move
        state, produced = apply(state, player, legal_commands(state, player)[0])
        events += produced
    planner = Planner(view(state, 0), project(events, 0), 0, weights=TIERED)
    assert not set(planner.enemy_roster) & set(MIDDLE)
    assert set(TOP) <= set(planner.enemy_roster)


def test_the_committed_model_covers_every_feature_and_its_picks_are_legal():
    weights = load_weights()
    assert set(weights) == set(FEATURES)
    state = new_match(4)
    for player in (0, 1):
        command = plan_pick(view(state, player), [], player, random.Random(player))
        assert is_legal(state, player, command), command
        assert (MIMIC in command["pick"]) == ("mimic" in command)
        state, _ = apply(state, player, command)


def test_the_master_picks_by_evaluation_not_by_the_table():
    bot = make_bot("master", iterations=1)
    state = new_match(11, first_mover=1)
    player_view = view(state, 0)
    command = bot.choose(player_view, [], legal_commands(state, 0), 0, random.Random(2))
    planned = plan_pick(player_view, [], 0, random.Random(2))
    assert command == planned


def test_a_counter_term_counts_each_pair_of_fish_across_the_teams():
    a = {"pick": ["sea_wolf", "mimic_fish", "octopus", "clownfish"], "mimic": "sea_wolf"}
    b = {"pick": ["sunfish", "pufferfish", "octopus", "archerfish"]}
    row = dict(zip(FEATURES, features(a, b, True)))
    # Two Sea Wolves (one a Mimic's copy) against one Sunfish; the Sunfish comes first in KINDS.
    assert row["sunfish~sea_wolf"] == -2
    assert row["octopus~clownfish"] == -1  # A's Clownfish against B's Octopus (one each side: no term)
    assert row["archerfish~octopus"] == -1


def _rounds(true, n, rng):
    rows, outcomes = [], []
    for _ in range(n):
        a, b = ({"pick": rng.sample(KINDS, 4)} for _ in range(2))
        row = features(a, b, rng.random() < 0.5)
        z = sum(true.get(name, 0.0) * v for name, v in zip(FEATURES, row))
        rows.append(row)
        outcomes.append(1.0 if rng.random() < 1 / (1 + math.exp(-z)) else 0.0)
    return rows, outcomes


def test_the_fit_recovers_a_counter_between_two_kinds():
    true = {"sunfish~sea_wolf": -1.5, "great_white_shark": 0.8}
    rows, outcomes = _rounds(true, 8000, random.Random(6))
    fitted, expected = canonical(fit(rows, outcomes)), canonical([true.get(name, 0.0) for name in FEATURES])
    assert abs(fitted["sunfish~sea_wolf"] - expected["sunfish~sea_wolf"]) < 0.35
    assert abs((fitted["great_white_shark"] - fitted["octopus"])
               - (expected["great_white_shark"] - expected["octopus"])) < 0.3


def test_the_canonical_form_moves_strength_out_of_the_counters_without_changing_a_prediction():
    rng = random.Random(8)
    raw = [rng.uniform(-1, 1) for _ in FEATURES]
    weights = canonical(raw)
    model = Model(weights)
    assert abs(model.v.sum(axis=1)).max() < 1e-9
    for _ in range(20):
        a, b = ({"pick": rng.sample(KINDS, 4)} for _ in range(2))
        row = features(a, b, True)
        assert math.isclose(sum(w * v for w, v in zip(raw, row)),
                            sum(weights[name] * v for name, v in zip(FEATURES, row)), abs_tol=1e-9)


# A slightly weak Pufferfish, which beats a Great White.
COUNTER = {**{k: 0.0 for k in FEATURES}, "pufferfish": -0.1, "pufferfish~great_white_shark": 2.0}
# An opponent who fields the top four in the deciding round.
TOP_LAST = {"picks": {"3": dict.fromkeys(TOP, 0.25)}, "attack": {}}


def test_it_fields_the_counter_to_the_team_it_expects():
    player_view = pick_view(round_number=3, score=(1, 1))
    player_view["available"][0] = ["pufferfish", "sunfish", *MIDDLE, "manta_ray", "sea_wolf"]
    picked = Planner(player_view, [], 0, weights=COUNTER, prior=TOP_LAST, trust=1.0).choose(random.Random(1))
    assert "pufferfish" in picked
    # Without the counter term the Pufferfish is the one fish not worth fielding.
    additive = {**COUNTER, "pufferfish~great_white_shark": 0.0}
    picked = Planner(player_view, [], 0, weights=additive, prior=TOP_LAST, trust=1.0).choose(random.Random(1))
    assert "pufferfish" not in picked


def test_a_mimic_copies_the_counter_to_the_team_it_expects():
    player_view = pick_view(round_number=3, score=(1, 1))
    player_view["available"][0] = list(BOTTOM)
    planner = Planner(player_view, [], 0, weights=COUNTER, prior=TOP_LAST, trust=1.0)
    assert sorted(planner.choose(random.Random(1))) == sorted(BOTTOM)
    assert planner.copy == "pufferfish"


def test_rounds_are_kept_as_they_are_played_and_reused(tmp_path):
    path = str(tmp_path / "rounds.jsonl")
    first = make_rounds(path, [(i, 3, "greedy") for i in range(2)], 1)
    again = make_rounds(path, [(i, 3, "greedy") for i in range(3)], 1)
    assert again[:2] == first and len(again) == 3
    assert len(open(path, encoding="utf-8").readlines()) == 3
    assert again[2] == tuple(json.loads(json.dumps(play((2, 3, "greedy")))))
