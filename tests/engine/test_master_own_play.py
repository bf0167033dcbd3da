"""The correction of the master's round model by its own play (``bots/training/own_play.py``,
``matchups.own_row``, ``Model(own=...)``): fitted on rounds the master played against a level with
random teams, with the self-play model's odds as a fixed offset."""
import json
import math
import random

import numpy as np

from game.games.aquawar.bots.matchups import (
    FEATURES,
    KINDS,
    OWN_FEATURES,
    Model,
    Planner,
    features,
    load_own,
    own_row,
    plan_pick,
)
from game.games.aquawar.bots.training.matchups import fit, make_rounds
from game.games.aquawar.bots.training.own_play import design, play
from game.games.aquawar.engine import is_legal, new_match, view
from game.games.aquawar.engine.species import MIMIC, SPECIES

TOP = ["great_white_shark", "sea_turtle", "hammerhead_shark", "sea_wolf"]
MIDDLE = ["octopus", "electric_eel", "clownfish", "archerfish"]
FLAT = dict.fromkeys(FEATURES, 0.0)


def test_a_row_counts_our_kinds_against_theirs_from_our_side_only():
    ours = {"pick": ["mimic_fish", "octopus", "sunfish", "sea_wolf"], "mimic": "sea_wolf"}
    theirs = {"pick": TOP}
    row = dict(zip(OWN_FEATURES, own_row(ours, theirs, False)))
    assert row["sea_wolf"] == 2 and row[MIMIC] == 1 and row["first"] == -1 and row["great_white_shark"] == 0
    assert row["sea_wolf>great_white_shark"] == 2 and row["octopus>sea_turtle"] == 1
    assert row["great_white_shark>sea_wolf"] == 0  # their kinds never count as ours


def test_without_a_correction_the_odds_are_the_models():
    rng = random.Random(3)
    weights = {name: rng.uniform(-1, 1) for name in FEATURES}
    plain, zero = Model(weights), Model(weights, {name: 0.0 for name in OWN_FEATURES})
    teams = [rng.sample(KINDS, 4) for _ in range(5)]
    theirs = plain.rows(teams, [None] * 5)
    for model in (plain, zero):
        odds = model.odds(model.rows(teams, [None] * 5, ours=True), theirs, np.ones(5), 1.0)
        assert np.allclose(odds, plain.odds(plain.rows(teams, [None] * 5), theirs, np.ones(5), 1.0))


def test_a_correction_raises_our_odds_with_that_kind_against_that_kind_and_only_ours():
    model = Model(FLAT, {"pufferfish>sea_wolf": 2.0})
    ours = model.rows([["pufferfish", *MIDDLE[:3]], MIDDLE], [None, None], ours=True)
    theirs = model.rows([TOP], [None])
    odds = model.odds(ours, theirs, np.ones(1), 1.0)
    assert odds[0] > 0.8 and math.isclose(odds[1], 0.5)
    # Their Pufferfish against our Sea Wolf is not what the correction says.
    ours = model.rows([TOP], [None], ours=True)
    theirs = model.rows([["pufferfish", *MIDDLE[:3]]], [None])
    assert math.isclose(model.odds(ours, theirs, np.ones(1), 1.0)[0], 0.5)


def test_the_fit_with_an_offset_recovers_a_correction():
    rng = random.Random(4)
    base = {**FLAT, "great_white_shark": 1.0, "pufferfish": -1.0}
    true = {"sea_wolf>sunfish": 1.5}
    rows, offsets, outcomes = [], [], []
    for _ in range(6000):
        ours, theirs = {"pick": rng.sample(KINDS, 4)}, {"pick": rng.sample(KINDS, 4)}
        first = rng.random() < 0.5
        offset = sum(base[n] * v for n, v in zip(FEATURES, features(ours, theirs, first)))
        row = own_row(ours, theirs, first)
        z = offset + sum(true.get(n, 0.0) * v for n, v in zip(OWN_FEATURES, row))
        rows.append(row)
        offsets.append(offset)
        outcomes.append(1.0 if rng.random() < 1 / (1 + math.exp(-z)) else 0.0)
    fitted = dict(zip(OWN_FEATURES, fit(rows, outcomes, 3.0, offset=np.array(offsets))))
    assert abs(fitted["sea_wolf>sunfish"] - 1.5) < 0.4
    others = [abs(w) for name, w in fitted.items() if name != "sea_wolf>sunfish"]
    assert max(others) < 0.4


def test_the_planner_fields_where_the_correction_says_our_kind_does_well():
    # The enemy fields the top four in round 3; only the correction makes our Pufferfish their counter.
    player_view = view(new_match(3, first_mover=0), 0)
    player_view["round"], player_view["score"] = 3, [1, 1]
    player_view["available"][0] = ["pufferfish", "sunfish", *MIDDLE, "manta_ray", "sea_wolf"]
    prior = {"picks": {"3": dict.fromkeys(TOP, 0.25)}, "attack": {}}
    weights = {**FLAT, "pufferfish": -0.1}
    own = {"pufferfish>great_white_shark": 2.0}
    assert "pufferfish" in Planner(player_view, [], 0, weights=weights, prior=prior, trust=1.0, own=own).choose(
        random.Random(1))
    assert "pufferfish" not in Planner(player_view, [], 0, weights=weights, prior=prior, trust=1.0).choose(
        random.Random(1))


def test_a_played_match_gives_its_rounds_with_random_teams_of_what_was_left(tmp_path):
    path = str(tmp_path / "own.jsonl")
    task = (1, 5, "greedy", 1)
    rounds = make_rounds(path, [task], 1, play=play)[0]
    assert 2 <= len(rounds) <= 3 and [r[4] for r in rounds] == list(range(1, len(rounds) + 1))
    used = [s for mine, *_ in rounds for s in mine["pick"]]
    assert len(used) == len(set(used)) and set(used) <= set(SPECIES)
    assert sum(r[3] for r in rounds) in (2, len(rounds) - 2)  # the master won 2, or the other side did
    for mine, *_ in rounds:
        assert (MIMIC in mine["pick"]) == ("mimic" in mine)
    # Kept in the file and read back, not played again.
    assert make_rounds(path, [task], 1, play=play)[0] == tuple(json.loads(json.dumps(play(task))))
    x, offsets, y = design([rounds], FLAT)
    assert x.shape == (len(rounds), len(OWN_FEATURES)) and not offsets.any() and len(y) == len(rounds)


def test_the_committed_correction_covers_every_feature_and_its_picks_are_legal():
    own = load_own()
    assert set(own) == set(OWN_FEATURES)
    state = new_match(4)
    command = plan_pick(view(state, 0), [], 0, random.Random(0))
    assert is_legal(state, 0, command), command
