"""The master's picks by evaluation (``bots/matchups.py``) and the model behind them
(``bots/training/matchups.py``): the team comes from the best allocation of the roster over the
remaining rounds against the enemy's likely picks, not from a fixed table."""
import random

from game.games.aquawar.bots import make_bot
from game.games.aquawar.bots.matchups import FEATURES, KINDS, Planner, features, load_weights, plan_pick
from game.games.aquawar.bots.training.matchups import fit
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
    fitted = dict(zip(FEATURES, fit(rows, outcomes)))
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
    assert planner.copy == "sea_turtle"
    assert sorted(planner.choose(random.Random(1))) == sorted(BOTTOM)


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
